// The size bounds Kubernetes derives from a schema for cost estimation
// (apiserver pkg/cel/common/schemas.go, pkg/cel/limits.go, v1.27): the
// value of DeclType.MaxElements, which the schema mapping stores on the
// Types (maxLength of primitives, maxElements of lists, maps and objects)
// for the estimator (estimate.ts schemaSizes) to read.
//
//   string with maxLength n      4·n (n code points are up to 4n bytes)
//   bytes with maxLength n       n
//   string/bytes without         3 MiB − 2 (a request of one string)
//   duration / date-time / date  32 / 32 / 12 (longest JSON form)
//   int-or-string                3 MiB − 2
//   array without maxItems       (3 MiB − 2) / (min item size + 1)
//   map without maxProperties    (3 MiB − 2) / (min value size + 6)
//   bool, number, integer, object, map keys   0 (no bound stored)

import { MAX_REQUEST_SIZE_BYTES } from './limits.js';

/** Smallest JSON serialisations (pkg/cel/limits.go, types.go). */
export const MIN_SERIALIZED_SIZE = {
  /** `""` */
  string: 2,
  bytes: 2,
  /** `true` */
  bool: 4,
  /** `0` */
  number: 1,
  integer: 1,
  /** `0`: an int-or-string */
  intOrString: 1,
  /** `"0"`: Go parses 0 as a duration */
  duration: 3,
  /** `"YYYY-MM-DD"` */
  date: 12,
  /** RFC 3339 date, T, time, quotes */
  dateTime: 21,
  /** `[]`, `{}` */
  list: 2,
  map: 2,
  /** `{}`, plus each required property without a default:
   * name length + its min size + 4 (see objectMinSerializedSize) */
  object: 2,
} as const;

/** Longest duration and date-time in JSON, quotes included; a date's. */
export const MAX_DURATION_SIZE_JSON = 32;
export const MAX_DATETIME_SIZE_JSON = 32;
export const JSON_DATE_SIZE = 12;

/** estimateMaxStringLengthPerRequest: the bound of a string-typed schema
 * (or int-or-string) without maxLength. */
export function estimateMaxStringLength(format?: string, intOrString = false): number {
  if (intOrString) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2; // minus the quotes
  }
}

/** The bound of a plain string with a declared maxLength (code points). */
export const declaredStringBound = (maxLength: number): number => Math.max(0, maxLength) * 4;

/** The bound of bytes, a list or a map with a declared maximum. */
export const declaredBound = (max: number): number => Math.max(0, max);

/** estimateMaxArrayItemsFromMinSize: items of that minimum size fitting a
 * request, one comma each. */
export const estimateMaxArrayItems = (itemMinSize: number): number =>
  Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (itemMinSize + 1));

/** estimateMaxAdditionalPropertiesFromMinSize: `"":v,` per entry. */
export const estimateMaxAdditionalProperties = (valueMinSize: number): number =>
  Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (valueMinSize + 6));

/** An object's minimum size: `{}` plus, for each required property without
 * a default, its name, its minimum size and 4 (quotes, colon, comma). */
export function objectMinSerializedSize(requiredWithoutDefault: Iterable<{ name: string; minSize: number }>): number {
  let n = MIN_SERIALIZED_SIZE.object;
  // kube counts len(name) in bytes
  for (const p of requiredWithoutDefault) n += Buffer.byteLength(p.name, 'utf8') + p.minSize + 4;
  return n;
}
