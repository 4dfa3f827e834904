// Lists and maps as operands: indexing (`list[i]`, `map[k]`), membership
// (`in`) and size, with cel-go's error texts.

import { CelError, CelMap, Double, Uint } from '../values.js';
import { celEquals } from './equality.js';
import { errNoSuchOverload } from './errors.js';
import { formatKey, mapFind, mapHas, mapSize } from './maps.js';
import { formatFloatG } from './numfmt.js';
import { sizeString } from './strings.js';
import { typeOfValue } from './typeof.js';

const TWO_63 = 2 ** 63;

/** The list position an index value denotes (int, or a uint/double that
 * converts losslessly). */
function listPosition(idx: unknown): number {
  if (typeof idx === 'number') {
    if (Number.isInteger(idx)) return idx;
    throw new CelError(`unsupported index value ${formatFloatG(idx)} in list`);
  }
  if (typeof idx === 'bigint') return Number(idx); // beyond any list's size
  if (idx instanceof Double) {
    const d = idx.v;
    if (Number.isInteger(d) && d > -TWO_63 && d < TWO_63) return d;
    throw new CelError(`unsupported index value ${formatFloatG(d)} in list`);
  }
  if (idx instanceof Uint) {
    if (typeof idx.v === 'number') return idx.v;
    if (idx.v < 2n ** 63n) return Number(idx.v);
    throw new CelError(`unsupported index value ${idx.v} in list`);
  }
  throw new CelError(`unsupported index type '${typeOfValue(idx).name}' in list`);
}

export function indexList(list: readonly unknown[], idx: unknown): unknown {
  const i = typeof idx === 'number' && Number.isInteger(idx) ? idx : listPosition(idx);
  if (i < 0 || i >= list.length) {
    const shown = typeof idx === 'bigint' ? String(idx) : String(i);
    throw new CelError(`index '${shown}' out of range in list size '${list.length}'`);
  }
  return list[i];
}

export function indexMap(m: object, key: unknown): unknown {
  const v = mapFind(m, key);
  if (v === undefined) throw new CelError(`no such key: ${formatKey(key)}`);
  return v;
}

/** `v in list`: heterogeneous equality against each element. */
export function inList(v: unknown, list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (celEquals(v, list[i])) return true;
  return false;
}

/** `k in map`. */
export const inMap = (k: unknown, m: object): boolean => mapHas(m, k);

/** size(x) of a string (code points), bytes, list or map. */
export function size(v: unknown): number {
  if (typeof v === 'string') return sizeString(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof CelMap) return v.entries.size;
  if (typeof v === 'object' && v !== null) {
    const p = Object.getPrototypeOf(v);
    if (p === Object.prototype || p === null) return mapSize(v);
  }
  throw errNoSuchOverload;
}
