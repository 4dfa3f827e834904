// api/meta owns what every API object and response shares: Status and the
// StatusError constructors (status.ts), field errors (field.ts), and name and
// metadata validation (validation.ts), Go's aggregate of error messages (aggregate.ts).
export * from './status.js';
export * from './field.js';
export * from './validation.js';
export * from './aggregate.js';
