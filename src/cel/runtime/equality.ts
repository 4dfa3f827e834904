// CEL equality (cel-go's heterogeneous equality): numbers compare by value
// across int, uint and double; NaN equals nothing; lists and maps compare
// element-wise (plain-object maps and CelMaps alike); values of different
// types are simply unequal (never an error).

import { CelMap, Double, Duration, Optional, Timestamp, TypeValue, Uint } from '../values.js';
import { mapFind, mapForEach, mapHas, mapSize } from './maps.js';

/** Whether a double equals an int or uint held as number or bigint. */
function doubleEqualsInteger(d: number, i: number | bigint): boolean {
  // As cel-go (compareDoubleInt): the integer is converted to a double, so
  // beyond 2^53 equality is that of the nearest double.
  return d === (typeof i === 'number' ? i : Number(i));
}

/** Whether the number-like a (int/uint/double value) equals the CEL value b. */
function numEquals(a: number | bigint, aIsDouble: boolean, b: unknown): boolean {
  let bv: number | bigint;
  let bIsDouble: boolean;
  if (typeof b === 'number') {
    bv = b;
    bIsDouble = !Number.isInteger(b);
  } else if (typeof b === 'bigint') {
    bv = b;
    bIsDouble = false;
  } else if (b instanceof Double) {
    bv = b.v;
    bIsDouble = true;
  } else if (b instanceof Uint) {
    bv = b.v;
    bIsDouble = false;
  } else return false;
  if (typeof a === 'number' && typeof bv === 'number') return a === bv;
  if (aIsDouble) return doubleEqualsInteger(a as number, bv);
  if (bIsDouble) return doubleEqualsInteger(bv as number, a);
  if (typeof a === typeof bv) return a === bv;
  // number vs bigint: a computed int is normalised, but JSON may hold an
  // integer beyond 2^53 as a number.
  return typeof a === 'number' ? Number.isInteger(a) && !Number.isSafeInteger(a) && BigInt(a) === bv : Number.isInteger(bv) && !Number.isSafeInteger(bv) && BigInt(bv as number) === a;
}

export function celEquals(a: unknown, b: unknown): boolean {
  switch (typeof a) {
    case 'string':
    case 'boolean':
      return a === b;
    case 'number':
      if (typeof b === 'number') return a === b;
      return numEquals(a, !Number.isInteger(a), b);
    case 'bigint':
      if (typeof b === 'bigint') return a === b;
      return numEquals(a, false, b);
    case 'object':
      break;
    default:
      return a === b;
  }
  if (a === null) return b === null;
  if (b === null || typeof b !== 'object') {
    if (a instanceof Double) return numEquals(a.v, true, b);
    if (a instanceof Uint) return numEquals(a.v, false, b);
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!celEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Double) return numEquals(a.v, true, b);
  if (a instanceof Uint) return numEquals(a.v, false, b);
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (a instanceof Timestamp) return b instanceof Timestamp && a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Duration) return b instanceof Duration && a.nanos === b.nanos;
  if (a instanceof TypeValue) return b instanceof TypeValue && a.name === b.name;
  if (a instanceof Optional) {
    if (!(b instanceof Optional) || a.hasValue !== b.hasValue) return false;
    return !a.hasValue || celEquals(a.value, b.value);
  }
  if (isMapObject(a)) return isMapObject(b) && mapsEqual(a, b);
  return a === b;
}

function isMapObject(v: object): boolean {
  if (v instanceof CelMap) return true;
  if (Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function mapsEqual(a: object, b: object): boolean {
  if (!(a instanceof CelMap) && !(b instanceof CelMap)) return plainMapsEqual(a as Record<string, unknown>, b as Record<string, unknown>);
  if (mapSize(a) !== mapSize(b)) return false;
  let equal = true;
  mapForEach(a, (k, v) => {
    if (!equal) return;
    if (!mapHas(b, k) || !celEquals(v, mapFind(b, k))) equal = false;
  });
  return equal;
}

/** Two plain-object maps (JSON data): no closures, no key normalisation. */
function plainMapsEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (!Object.hasOwn(b, k) || !celEquals(a[k], b[k])) return false;
  }
  return true;
}
