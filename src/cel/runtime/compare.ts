// CEL ordering (`<`, `<=`, `>`, `>=`): numbers across int, uint and double
// (cel-go's compare.go: a double meets an integer converted to double, NaN
// cannot be ordered), strings by code point, bytes lexicographically, bools
// (false < true), timestamps and durations. Other pairs: no such overload.
// No allocation: results are -1, 0 or 1.

import { Double, Duration, Timestamp, Uint } from '../values.js';
import { errNaNOrder, errNoSuchOverload } from './errors.js';

/** Numeric kinds for the cross-type comparisons. */
const enum K {
  None,
  Int,
  Uint,
  Double,
}

let numVal: number | bigint = 0;
/** The numeric kind of v; its value is left in numVal. */
function numKind(v: unknown): K {
  switch (typeof v) {
    case 'number':
      numVal = v;
      return Number.isInteger(v) ? K.Int : K.Double;
    case 'bigint':
      numVal = v;
      return K.Int;
    case 'object':
      if (v instanceof Double) {
        numVal = v.v;
        return K.Double;
      }
      if (v instanceof Uint) {
        numVal = v.v;
        return K.Uint;
      }
  }
  return K.None;
}

const cmp = (a: number | bigint, b: number | bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/** Compares two numeric values as cel-go does across kinds. */
function compareNumbers(ak: K, a: number | bigint, bk: K, b: number | bigint): number {
  if (ak === K.Double || bk === K.Double) {
    const ad = typeof a === 'number' ? a : Number(a);
    const bd = typeof b === 'number' ? b : Number(b);
    if (ad !== ad || bd !== bd) throw errNaNOrder;
    return cmp(ad, bd);
  }
  // int/uint in any mix: JavaScript compares number and bigint exactly.
  return cmp(a, b);
}

/** Compares code points of two strings (Go compares UTF-8 bytes, which
 * orders as code points; UTF-16 code units differ above U+E000). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (0xD800–0xDFFF) stand for code points above 0xFFFF.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** -1, 0 or 1; throws `no such overload` for values without an ordering
 * between them, and `NaN values cannot be ordered`. */
export function celCompare(a: unknown, b: unknown): number {
  // Fast path: two JavaScript numbers (ints and JSON doubles compare exactly
  // as doubles), or a number and a Double box.
  const x = typeof a === 'number' ? a : a instanceof Double ? a.v : undefined;
  if (x !== undefined) {
    const y = typeof b === 'number' ? b : b instanceof Double ? b.v : undefined;
    if (y !== undefined) {
      if (x < y) return -1;
      if (x > y) return 1;
      if (x === y) return 0;
      throw errNaNOrder;
    }
  }
  const ak = numKind(a);
  if (ak !== K.None) {
    const av = numVal;
    const bk = numKind(b);
    if (bk === K.None) throw errNoSuchOverload;
    return compareNumbers(ak, av, bk, numVal);
  }
  switch (typeof a) {
    case 'string':
      if (typeof b === 'string') return compareStrings(a, b);
      break;
    case 'boolean':
      if (typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
      break;
    case 'object':
      if (a instanceof Timestamp && b instanceof Timestamp) return compareTimestamps(a, b);
      if (a instanceof Duration && b instanceof Duration) return cmp(a.nanos, b.nanos);
      if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  }
  throw errNoSuchOverload;
}

export const celLess = (a: unknown, b: unknown): boolean => celCompare(a, b) < 0;
export const celLessEquals = (a: unknown, b: unknown): boolean => celCompare(a, b) <= 0;
export const celGreater = (a: unknown, b: unknown): boolean => celCompare(a, b) > 0;
export const celGreaterEquals = (a: unknown, b: unknown): boolean => celCompare(a, b) >= 0;
