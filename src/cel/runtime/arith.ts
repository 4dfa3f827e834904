// Arithmetic with cel-go's semantics: int64 and uint64 with overflow errors
// (`integer overflow`, `unsigned integer overflow`), `division by zero`,
// `modulus by zero`; doubles follow IEEE 754 (no errors). Ints and uints are
// safe numbers or bigints (values.ts): the fast path is plain number
// arithmetic with one range check, bigints only beyond 2^53.

import { Double, Uint, intOf } from '../values.js';
import { errDivideByZero, errIntOverflow, errModulusByZero, errUintOverflow } from './errors.js';

type Int = number | bigint;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

const big = (v: Int): bigint => (typeof v === 'bigint' ? v : BigInt(v));

/** A bigint result as a normalised int, or `integer overflow`. */
export function checkedInt(r: bigint): Int {
  if (r < INT64_MIN || r > INT64_MAX) throw errIntOverflow;
  return intOf(r);
}

/** A bigint result as a normalised uint, or `unsigned integer overflow`. */
export function checkedUint(r: bigint): Uint {
  if (r < 0n || r > UINT64_MAX) throw errUintOverflow;
  return new Uint(intOf(r));
}

// --- int64 -----------------------------------------------------------------

export function addInt(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return checkedInt(big(a) + big(b));
}

export function subInt(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
  }
  return checkedInt(big(a) - big(b));
}

export function mulInt(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (r <= MAX_SAFE && r >= -MAX_SAFE) return r === 0 ? 0 : r;
  }
  return checkedInt(big(a) * big(b));
}

export function divInt(a: Int, b: Int): Int {
  if (b === 0) throw errDivideByZero;
  if (typeof a === 'number' && typeof b === 'number') {
    const q = (a - (a % b)) / b; // exact: a - a % b is a multiple of b
    return q === 0 ? 0 : q;
  }
  if (b === -1 && a === INT64_MIN) throw errIntOverflow;
  return checkedInt(big(a) / big(b));
}

export function modInt(a: Int, b: Int): Int {
  if (b === 0) throw errModulusByZero;
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a % b;
    return r === 0 ? 0 : r;
  }
  if (b === -1 && a === INT64_MIN) throw errIntOverflow;
  return intOf(big(a) % big(b));
}

export function negInt(a: Int): Int {
  if (typeof a === 'number') return a === 0 ? 0 : -a;
  if (a === INT64_MIN) throw errIntOverflow;
  return intOf(-a);
}

// --- uint64 ----------------------------------------------------------------

export function addUint(a: Uint, b: Uint): Uint {
  const x = a.v;
  const y = b.v;
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x + y;
    if (r <= MAX_SAFE) return new Uint(r);
  }
  return checkedUint(big(x) + big(y));
}

export function subUint(a: Uint, b: Uint): Uint {
  const x = a.v;
  const y = b.v;
  if (typeof x === 'number' && typeof y === 'number') {
    if (y > x) throw errUintOverflow;
    return new Uint(x - y);
  }
  return checkedUint(big(x) - big(y));
}

export function mulUint(a: Uint, b: Uint): Uint {
  const x = a.v;
  const y = b.v;
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x * y;
    if (r <= MAX_SAFE) return new Uint(r);
  }
  return checkedUint(big(x) * big(y));
}

export function divUint(a: Uint, b: Uint): Uint {
  const x = a.v;
  const y = b.v;
  if (y === 0) throw errDivideByZero;
  if (typeof x === 'number' && typeof y === 'number') return new Uint((x - (x % y)) / y);
  return new Uint(intOf(big(x) / big(y)));
}

export function modUint(a: Uint, b: Uint): Uint {
  const x = a.v;
  const y = b.v;
  if (y === 0) throw errModulusByZero;
  if (typeof x === 'number' && typeof y === 'number') return new Uint(x % y);
  return new Uint(intOf(big(x) % big(y)));
}

// --- double ----------------------------------------------------------------

/** A double's number: a Double box or a non-integral JSON number. */
export const dbl = (v: unknown): number => (typeof v === 'number' ? v : (v as Double).v);

export const addDouble = (a: unknown, b: unknown): Double => new Double(dbl(a) + dbl(b));
export const subDouble = (a: unknown, b: unknown): Double => new Double(dbl(a) - dbl(b));
export const mulDouble = (a: unknown, b: unknown): Double => new Double(dbl(a) * dbl(b));
export const divDouble = (a: unknown, b: unknown): Double => new Double(dbl(a) / dbl(b));
export const negDouble = (a: unknown): Double => new Double(-dbl(a));

// --- sequences -------------------------------------------------------------

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export function concatLists(a: readonly unknown[], b: readonly unknown[]): readonly unknown[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return a.concat(b);
}
