// Maps at runtime: plain objects (string keys: JSON data, schema objects) and
// CelMap (keys of any CEL key type). Keys are normalised so that numerically
// equal int, uint and double keys find each other (CEL's heterogeneous
// equality): ints and uints become their normalised number/bigint, an
// integral double becomes the same, strings and bools stay themselves.

import { CelError, CelMap, Double, Uint } from '../values.js';
import { formatFloatG } from './numfmt.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TWO_64 = 2 ** 64;

/** The normalised CelMap key for a CEL value. */
export function mapKeyOf(k: unknown): unknown {
  if (typeof k === 'number') return doubleKey(k); // JSON may hold an int beyond 2^53 as a number
  if (typeof k === 'object' && k !== null) {
    if (k instanceof Uint) return k.v;
    if (k instanceof Double) return doubleKey(k.v);
  }
  return k;
}

function doubleKey(d: number): unknown {
  if (!Number.isInteger(d)) return d;
  if (d >= -MAX_SAFE && d <= MAX_SAFE) return d;
  if (d >= -TWO_64 && d < TWO_64) return BigInt(d);
  return d;
}

const isPlain = (m: object): m is Record<string, unknown> => !(m instanceof CelMap);

/** A sentinel for "absent" lookups (undefined is not a CEL value but keeps
 * lookups allocation-free). */
export const ABSENT: undefined = undefined;

/** The value under key, or undefined when absent. m must be a map value. */
export function mapFind(m: object, key: unknown): unknown {
  if (isPlain(m)) {
    if (typeof key !== 'string') return undefined;
    return Object.hasOwn(m, key) ? m[key] : undefined;
  }
  const e = (m as CelMap).entries.get(mapKeyOf(key));
  return e === undefined ? undefined : e[1];
}

export function mapHas(m: object, key: unknown): boolean {
  if (isPlain(m)) return typeof key === 'string' && Object.hasOwn(m, key);
  return (m as CelMap).entries.has(mapKeyOf(key));
}

export function mapSize(m: object): number {
  if (isPlain(m)) return Object.keys(m).length;
  return (m as CelMap).entries.size;
}

/** The keys of a map as CEL values, in insertion order. */
export function mapKeys(m: object): unknown[] {
  if (isPlain(m)) return Object.keys(m);
  const out: unknown[] = [];
  for (const e of (m as CelMap).entries.values()) out.push(e[0]);
  return out;
}

/** Calls fn for each entry (key as a CEL value). */
export function mapForEach(m: object, fn: (k: unknown, v: unknown) => void): void {
  if (isPlain(m)) {
    for (const k of Object.keys(m)) fn(k, m[k]);
    return;
  }
  for (const e of (m as CelMap).entries.values()) fn(e[0], e[1]);
}

/** Valid CEL map key types: int, uint, bool, string. */
export function isValidMapKey(k: unknown): boolean {
  switch (typeof k) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return true;
    case 'number':
      return Number.isInteger(k);
    default:
      return k instanceof Uint;
  }
}

/** Builds a CelMap from key/value pairs, as a map literal does: keys must be
 * int, uint, bool or string, and must not repeat. */
export function celMapOf(pairs: ReadonlyArray<readonly [unknown, unknown]>): CelMap {
  const m = new CelMap();
  for (const [k, v] of pairs) celMapInsert(m, k, v);
  return m;
}

/** Inserts one entry into a CelMap being built (a map literal). */
export function celMapInsert(m: CelMap, k: unknown, v: unknown): void {
  if (!isValidMapKey(k)) throw new CelError('unsupported key type');
  const nk = mapKeyOf(k);
  if (m.entries.has(nk)) throw new CelError(`insert failed: key ${formatKey(k)} already exists`);
  m.entries.set(nk, [k, v]);
}

/** A key as Go's `%v` prints it in cel-go's messages. */
export function formatKey(k: unknown): string {
  if (k instanceof Uint) return String(k.v);
  if (k instanceof Double) return formatFloatG(k.v);
  if (typeof k === 'number' && !Number.isInteger(k)) return formatFloatG(k);
  return String(k);
}

/** A copy of m with k → v added (cel-go's InsertMapKeyValue, as the
 * two-variable comprehensions' `cel.@mapInsert` uses it): `insert failed: key
 * k already exists` when present. */
export function mapWith(m: object, k: unknown, v: unknown): CelMap {
  if (mapHas(m, k)) throw new CelError(`insert failed: key ${formatKey(k)} already exists`);
  const out = new CelMap();
  if (m instanceof CelMap) for (const [nk, e] of m.entries) out.entries.set(nk, e);
  else mapForEach(m, (key, val) => out.entries.set(key, [key, val]));
  celMapInsert(out, k, v);
  return out;
}

/** A copy of m with every entry of update added (duplicates are errors). */
export function mapWithAll(m: object, update: object): CelMap {
  const out = new CelMap();
  mapForEach(m, (k, v) => celMapInsert(out, k, v));
  mapForEach(update, (k, v) => celMapInsert(out, k, v));
  return out;
}
