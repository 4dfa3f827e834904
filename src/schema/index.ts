// The structural-schema engine (DESIGN.md §6): one schema model (model.ts),
// written with a builder DSL (dsl.ts, shared meta/v1 pieces in common.ts),
// and everything derived from it:
//
//   bytes ─ json.ts (value + duplicate paths) ─► prune.ts (unknown.ts decides)
//         ─► defaults.ts ─► validate.ts (field errors, Kubernetes' wording)
//   schema ─► openapi.ts (published documents) · parity.ts (checks against the official ones)
//   write bodies of built-in kinds: node.ts (schemas compiled for fast walks) ─► gotypes.ts
//         (Go's type check + unknown fields + pruning, one walk) ─► defaults ─► gozero.ts
//         (Go's omitempty drop + always-written zero values, one walk)
export * from './model.js';
export * from './dsl.js';
export * from './common.js';
export { decodeJson, JsonSyntaxError, type Decoded } from './json.js';
export { validate, goNumber, jsonEqual, type ValidateOptions } from './validate.js';
export { unknownFields, walkUnknown, unknownFieldMessage, duplicateFieldMessage, type UnknownVisitor } from './unknown.js';
export { prune } from './prune.js';
export { applyDefaults } from './defaults.js';
export { toOpenAPI, componentsOf, collectComponents, type OpenAPISchema, type OpenAPIOptions } from './openapi.js';
export { compareWithReference, formatDifference, type Difference, type DifferenceKind, type OpenAPIDocument, type RefSchema } from './parity.js';
