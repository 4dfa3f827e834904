// The runtime type of a value, as cel-go names it (type(x), dynamic dispatch).

import { CelMap, Double, Duration, Optional, Timestamp, TypeValue, Uint } from '../values.js';

/** Shared TypeValue instances, one per built-in type name. */
export const TYPES = {
  int: new TypeValue('int'),
  uint: new TypeValue('uint'),
  double: new TypeValue('double'),
  string: new TypeValue('string'),
  bytes: new TypeValue('bytes'),
  bool: new TypeValue('bool'),
  null: new TypeValue('null_type'),
  list: new TypeValue('list'),
  map: new TypeValue('map'),
  timestamp: new TypeValue('google.protobuf.Timestamp'),
  duration: new TypeValue('google.protobuf.Duration'),
  type: new TypeValue('type'),
  optional: new TypeValue('optional_type'),
} as const;

/** The built-in type names a type identifier can denote at runtime (`int`,
 * `list`, `google.protobuf.Timestamp`…), mapped to their TypeValue. */
export const TYPE_BY_NAME: ReadonlyMap<string, TypeValue> = new Map(
  Object.values(TYPES).map((t) => [t.name, t] as const),
);

/** The runtime type of v. Values outside the representation (a function, a
 * class instance of another library) have the type named by their
 * `celTypeName` property when present, else `dyn`. */
export function typeOfValue(v: unknown): TypeValue {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? TYPES.int : TYPES.double;
    case 'bigint':
      return TYPES.int;
    case 'string':
      return TYPES.string;
    case 'boolean':
      return TYPES.bool;
    case 'object':
      if (v === null) return TYPES.null;
      if (Array.isArray(v)) return TYPES.list;
      if (v instanceof Double) return TYPES.double;
      if (v instanceof Uint) return TYPES.uint;
      if (v instanceof Uint8Array) return TYPES.bytes;
      if (v instanceof Timestamp) return TYPES.timestamp;
      if (v instanceof Duration) return TYPES.duration;
      if (v instanceof TypeValue) return TYPES.type;
      if (v instanceof Optional) return TYPES.optional;
      if (v instanceof CelMap) return TYPES.map;
      {
        const proto = Object.getPrototypeOf(v);
        if (proto === Object.prototype || proto === null) return TYPES.map;
        const named = (v as { celTypeName?: unknown }).celTypeName;
        if (typeof named === 'string') return new TypeValue(named);
      }
      return new TypeValue('dyn');
    default:
      return new TypeValue('dyn');
  }
}
