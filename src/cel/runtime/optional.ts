// Optional values (cel-go's optional library): of, none, ofNonZeroValue,
// value, hasValue, or, orValue, optional indexing and selection, first/last,
// unwrap.

import { CelError, CelMap, Double, Duration, Optional, Timestamp, Uint } from '../values.js';
import { mapFind, mapSize } from './maps.js';

export const errNoValue = new CelError('optional.none() dereference');

/** Whether v is its type's zero value (cel-go's traits.Zeroer). */
export function isZeroValue(v: unknown): boolean {
  switch (typeof v) {
    case 'number':
      return v === 0;
    case 'bigint':
      return false; // normalised: a bigint is never 0
    case 'string':
      return v === '';
    case 'boolean':
      return v === false;
  }
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Uint) return v.v === 0;
  if (v instanceof Double) return v.v === 0;
  if (v instanceof Uint8Array) return v.length === 0;
  if (v instanceof Duration) return v.nanos === 0n;
  // Go's time.Time zero value: 0001-01-01T00:00:00Z.
  if (v instanceof Timestamp) return v.seconds === -62135596800 && v.nanos === 0;
  if (v instanceof CelMap) return v.entries.size === 0;
  if (typeof v === 'object') {
    const p = Object.getPrototypeOf(v);
    if (p === Object.prototype || p === null) return mapSize(v as object) === 0;
  }
  return false;
}

export const optionalOf = (v: unknown): Optional => Optional.of(v);
export const optionalNone = (): Optional => Optional.none;
export const optionalOfNonZeroValue = (v: unknown): Optional => (isZeroValue(v) ? Optional.none : Optional.of(v));

export function optionalValue(o: Optional): unknown {
  if (!o.hasValue) throw errNoValue;
  return o.value;
}

export const optionalHasValue = (o: Optional): boolean => o.hasValue;
/** `a.or(b)` once both are evaluated (the interpreter short-circuits). */
export const optionalOr = (a: Optional, b: Optional): Optional => (a.hasValue ? a : b);
/** `a.orValue(v)` once both are evaluated. */
export const optionalOrValue = (a: Optional, v: unknown): unknown => (a.hasValue ? a.value : v);

/** `list[?i]`. */
export function listOptIndex(list: readonly unknown[], idx: unknown): Optional {
  if (typeof idx === 'number' && Number.isInteger(idx) && idx >= 0 && idx < list.length) return Optional.of(list[idx]);
  if (idx instanceof Uint && typeof idx.v === 'number' && idx.v < list.length) return Optional.of(list[idx.v]);
  if (idx instanceof Double && Number.isInteger(idx.v) && idx.v >= 0 && idx.v < list.length) return Optional.of(list[idx.v]);
  return Optional.none;
}

/** `map[?k]`, and `m.?f` on a map. */
export function mapOptIndex(m: object, key: unknown): Optional {
  const v = mapFind(m, key);
  return v === undefined ? Optional.none : Optional.of(v);
}

/** `opt[?i]` / `opt[i]` on an optional list or map. */
export function optionalIndex(o: Optional, key: unknown): Optional {
  if (!o.hasValue) return Optional.none;
  const c = o.value;
  if (Array.isArray(c)) return listOptIndex(c, key);
  if (typeof c === 'object' && c !== null) return mapOptIndex(c, key);
  return Optional.none;
}

export const listFirst = (list: readonly unknown[]): Optional => (list.length === 0 ? Optional.none : Optional.of(list[0]));
export const listLast = (list: readonly unknown[]): Optional =>
  list.length === 0 ? Optional.none : Optional.of(list[list.length - 1]);

/** optional.unwrap(list) / list.unwrapOpt(): the values of the valued optionals. */
export function optionalUnwrap(list: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const e of list) {
    if (!(e instanceof Optional)) throw new CelError(`value ${String(e)} is not optional`);
    if (e.hasValue) out.push(e.value);
  }
  return out;
}
