// Reading from CEL aggregates: field selection, indexing, presence tests and
// map keys, over the representation of values.ts (arrays, plain objects,
// CelMap). Errors use cel-go's attribute wording (`no such key: k`,
// `index out of bounds: i`).

import { celMapInsert, formatKey, mapKeyOf } from '../runtime/maps.js';
import { typeOfValue } from '../runtime/typeof.js';
import { CelError, CelMap, Double, Optional, Uint } from '../values.js';

export { formatKey };

const hasOwn = Object.prototype.hasOwnProperty;

/** A plain object (JSON data or an object of a schema) used as a map. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/** Whether reading `name` from a plain object with `o[name]` could find an
 * inherited property (toString, constructor, __proto__…); such names are
 * read through hasOwnProperty. Decided once per planned field. */
export const inheritedName = (name: string): boolean => name in Object.prototype;

const MISSING = undefined;

/** m[k] for a map of either representation, or MISSING. */
export function mapGet(m: object, k: unknown): unknown {
  if (m instanceof CelMap) {
    const e = m.entries.get(mapKeyOf(k));
    return e === undefined ? MISSING : e[1];
  }
  if (typeof k !== 'string') return MISSING;
  const o = m as Record<string, unknown>;
  const v = o[k];
  if (v === undefined || (typeof v === 'function' || (typeof v === 'object' && v === Object.prototype)) && !hasOwn.call(o, k)) return MISSING;
  return v;
}

/** The list position for an index value (int, uint or an integral double). */
function listIndex(i: unknown): number {
  if (typeof i === 'number') {
    if (Number.isInteger(i)) return i;
    throw new CelError(`unsupported index value ${i} in list`);
  }
  if (typeof i === 'bigint') return -1;
  if (i instanceof Uint) return typeof i.v === 'number' ? i.v : -1;
  if (i instanceof Double) {
    if (Number.isInteger(i.v)) return i.v;
    throw new CelError(`unsupported index value ${i.v} in list`);
  }
  throw new CelError(`unsupported index type '${typeName(i)}' in list`);
}

/** `c[k]`. */
export function index(c: unknown, k: unknown): unknown {
  if (Array.isArray(c)) {
    const i = listIndex(k);
    if (i >= 0 && i < c.length) return c[i];
    throw new CelError(`index out of bounds: ${formatKey(k)}`);
  }
  if (c instanceof CelMap || isPlainObject(c)) {
    const v = mapGet(c, k);
    if (v === MISSING) throw new CelError(`no such key: ${formatKey(k)}`);
    return v;
  }
  if (c instanceof Optional) return optionalIndex(c, k);
  throw new CelError(`no such key: ${formatKey(k)}`);
}

/** `c[?k]` (and indexing of an optional): optional.of(c[k]) or optional.none. */
export function optionalIndex(c: unknown, k: unknown): Optional {
  if (c instanceof Optional) {
    if (!c.hasValue) return c;
    c = c.value;
  }
  if (Array.isArray(c)) {
    const i = listIndex(k);
    return i >= 0 && i < c.length ? Optional.of(c[i]) : Optional.none;
  }
  if (c instanceof CelMap || isPlainObject(c)) {
    const v = mapGet(c, k);
    return v === MISSING ? Optional.none : Optional.of(v);
  }
  throw new CelError(`no such key: ${formatKey(k)}`);
}

/** `c.f` on a value of unknown type. */
export function select(c: unknown, f: string): unknown {
  if (c instanceof CelMap || isPlainObject(c)) {
    const v = mapGet(c, f);
    if (v === MISSING) throw new CelError(`no such key: ${f}`);
    return v;
  }
  if (c instanceof Optional) return optionalSelect(c, f);
  throw new CelError(`no such key: ${f}`);
}

/** `c.?f` (and selection on an optional). */
export function optionalSelect(c: unknown, f: string): Optional {
  if (c instanceof Optional) {
    if (!c.hasValue) return c;
    c = c.value;
  }
  if (c instanceof CelMap || isPlainObject(c)) {
    const v = mapGet(c, f);
    return v === MISSING ? Optional.none : Optional.of(v);
  }
  throw new CelError(`no such key: ${f}`);
}

/** `has(c.f)`. */
export function present(c: unknown, f: string): boolean {
  if (c instanceof CelMap || isPlainObject(c)) return mapGet(c, f) !== MISSING;
  if (c instanceof Optional) return c.hasValue && present(c.value, f);
  // cel-go without errorOnBadPresenceTest: absent.
  return false;
}

/** `k in m` for maps. */
export function hasKey(m: object, k: unknown): boolean {
  return mapGet(m, k) !== MISSING;
}

/** The runtime type name used in error texts. */
export const typeName = (v: unknown): string => typeOfValue(v).name;

/** Adds a map literal's entry (cel-go rejects invalid and repeated keys). */
export const mapSet = celMapInsert;
