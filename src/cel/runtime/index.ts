// CEL's value semantics over the representation of values.ts, one concept per
// module, as cel-go defines them (common/types, ext):
//
//   errors      shared CelErrors with cel-go's texts (no such overload, overflow…)
//   typeof      the runtime type of a value (type(), dynamic dispatch)
//   equality    heterogeneous equality (numbers across kinds, lists, maps)
//   compare     ordering (<, <=, >, >=) across numeric kinds, strings by code point
//   arith       int64/uint64 with overflow errors, doubles, concatenation
//   maps        map keys normalised across int/uint/double, lookups, literals
//   containers  indexing, `in`, size
//   convert     int() uint() double() string() bytes() bool() type() dyn()
//   numfmt      Go's float formatting (%g, 'f', %.Nf, %.Ne; exact rounding)
//   bytes       UTF-8 encoding and strict decoding
//   time        timestamps, durations, RFC 3339, Go durations, time zones
//   strings     code-point strings, the strings extension
//   regex       RE2 matching: re2js programs cached per pattern, native RegExps
//               for the linear RE2 ∩ JavaScript subset
//   format      the strings extension's format()
//   math        the math extension
//   base64      the encoders extension
//   optional    optional values
//   impl        helpers to write OverloadImpl tables
//
// The libraries' implementations, keyed by cel-go's overload ids, are in
// stdlib/impls.ts and ext/*_impls.ts.

export * as arith from './arith.js';
export * as compare from './compare.js';
export * as containers from './containers.js';
export * as convert from './convert.js';
export * as equality from './equality.js';
export * as errors from './errors.js';
export * as maps from './maps.js';
export * as regex from './regex.js';
export * as strings from './strings.js';
export * as time from './time.js';
export * as typeOf from './typeof.js';
