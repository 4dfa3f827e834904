// The math extension's semantics (cel-go ext/math.go): greatest/least over
// mixed numerics and lists, rounding, abs/sign, IEEE predicates, bitwise
// operations on int64/uint64 with Go's shift rules, sqrt.

import { CelError, Double, Uint, intOf } from '../values.js';
import { dbl } from './arith.js';
import { celCompare } from './compare.js';
import { errIntOverflow } from './errors.js';

type Int = number | bigint;

const isNumeric = (v: unknown): boolean =>
  typeof v === 'number' || typeof v === 'bigint' || v instanceof Double || v instanceof Uint;

/** cel-go's maybeSuffixError: `<message>: <fn>` unless already suffixed. */
function suffixed(e: unknown, fn: string): unknown {
  if (e instanceof CelError && !e.message.includes(fn)) return new CelError(`${e.message}: ${fn}`);
  return e;
}

function pick(a: unknown, b: unknown, fn: string, wantGreater: boolean): unknown {
  let c: number;
  try {
    c = celCompare(a, b);
  } catch (e) {
    throw suffixed(e, fn);
  }
  return wantGreater ? (c < 0 ? b : a) : c > 0 ? b : a;
}

function extreme(args: readonly unknown[], fn: string, wantGreater: boolean): unknown {
  let list = args;
  if (args.length === 1 && Array.isArray(args[0])) {
    list = args[0];
    if (list.length === 0) throw new CelError(`${fn}(list) argument must not be empty`);
  }
  let best = list[0];
  for (let i = 1; i < list.length; i++) best = pick(best, list[i], fn, wantGreater);
  if (!isNumeric(best)) throw new CelError(`no such overload: ${fn}`);
  return best;
}

/** math.greatest (math.@max): one numeric, several, or a list of them. */
export const greatest = (args: readonly unknown[]): unknown => extreme(args, 'math.@max', true);
/** math.least (math.@min). */
export const least = (args: readonly unknown[]): unknown => extreme(args, 'math.@min', false);

export const ceil = (v: unknown): Double => new Double(Math.ceil(dbl(v)));
export const floor = (v: unknown): Double => new Double(Math.floor(dbl(v)));
/** Go's math.Round: half away from zero. */
export function round(v: unknown): Double {
  const x = dbl(v);
  return new Double(x < 0 ? -Math.round(-x) : Math.round(x));
}
export const trunc = (v: unknown): Double => new Double(Math.trunc(dbl(v)));
export const isInf = (v: unknown): boolean => {
  const x = dbl(v);
  return x === Infinity || x === -Infinity;
};
export const isNaN = (v: unknown): boolean => Number.isNaN(dbl(v));
export const isFinite = (v: unknown): boolean => Number.isFinite(dbl(v));

export const absDouble = (v: unknown): Double => new Double(Math.abs(dbl(v)));
export function absInt(v: Int): Int {
  if (typeof v === 'number') return v < 0 ? -v : v;
  if (v === -(2n ** 63n)) throw errIntOverflow;
  return v < 0n ? -v : v;
}

export function signDouble(v: unknown): Double {
  const x = dbl(v);
  if (Number.isNaN(x)) return v instanceof Double ? v : new Double(x);
  return new Double(x > 0 ? 1 : x < 0 ? -1 : 0);
}
export const signInt = (v: Int): number => (v > 0 ? 1 : v < 0 ? -1 : 0);
export const signUint = (v: Uint): Uint => new Uint(v.v === 0 ? 0 : 1);

export const sqrt = (v: unknown): Double =>
  new Double(Math.sqrt(v instanceof Uint ? Number(v.v) : typeof v === 'bigint' ? Number(v) : dbl(v)));

// --- bitwise ------------------------------------------------------------------

const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;
const isI32 = (v: Int): v is number => typeof v === 'number' && v >= I32_MIN && v <= I32_MAX;
const big = (v: Int): bigint => (typeof v === 'bigint' ? v : BigInt(v));
const int64 = (v: bigint): Int => intOf(BigInt.asIntN(64, v));
const uint64 = (v: bigint): Uint => new Uint(intOf(BigInt.asUintN(64, v)));

export const bitAndInt = (a: Int, b: Int): Int => (isI32(a) && isI32(b) ? a & b : int64(big(a) & big(b)));
export const bitOrInt = (a: Int, b: Int): Int => (isI32(a) && isI32(b) ? a | b : int64(big(a) | big(b)));
export const bitXorInt = (a: Int, b: Int): Int => (isI32(a) && isI32(b) ? a ^ b : int64(big(a) ^ big(b)));
export const bitNotInt = (a: Int): Int => (isI32(a) ? ~a : int64(~big(a)));
export const bitAndUint = (a: Uint, b: Uint): Uint => uint64(big(a.v) & big(b.v));
export const bitOrUint = (a: Uint, b: Uint): Uint => uint64(big(a.v) | big(b.v));
export const bitXorUint = (a: Uint, b: Uint): Uint => uint64(big(a.v) ^ big(b.v));
export const bitNotUint = (a: Uint): Uint => uint64(~big(a.v));

function shiftCount(bits: Int, fn: string): bigint {
  if (bits < 0) throw new CelError(`math.${fn}() negative offset: ${bits}`);
  return big(bits);
}

/** Go's << on int64: counts of 64 or more give 0. */
export function bitShiftLeftInt(v: Int, bits: Int): Int {
  const n = shiftCount(bits, 'bitShiftLeft');
  return n >= 64n ? 0 : int64(big(v) << n);
}
export function bitShiftLeftUint(v: Uint, bits: Int): Uint {
  const n = shiftCount(bits, 'bitShiftLeft');
  return n >= 64n ? new Uint(0) : uint64(big(v.v) << n);
}
/** cel-go shifts an int right logically (as a uint64), then back to int64. */
export function bitShiftRightInt(v: Int, bits: Int): Int {
  const n = shiftCount(bits, 'bitShiftRight');
  return n >= 64n ? 0 : int64(BigInt.asUintN(64, big(v)) >> n);
}
export function bitShiftRightUint(v: Uint, bits: Int): Uint {
  const n = shiftCount(bits, 'bitShiftRight');
  return n >= 64n ? new Uint(0) : uint64(big(v.v) >> n);
}
