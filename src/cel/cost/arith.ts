// Cost and size intervals with cel-go's saturating uint64 arithmetic, over
// JavaScript numbers: exact up to 2^53, then rounded to the nearest double
// (the estimates that large only ever say "far over budget"); the ceiling
// is MAX_UINT64 (2^64 as a double), which cel-go's math.MaxUint64 is too
// when converted to float64.

export interface CostEstimate {
  min: number;
  max: number;
}
/** Estimated size of a string (code points), bytes, list or map. */
export type SizeEstimate = CostEstimate;

export const MAX_UINT64 = 18446744073709551615;

export const add = (x: number, y: number): number => {
  const s = x + y;
  return s >= MAX_UINT64 ? MAX_UINT64 : s;
};

export const mul = (x: number, y: number): number => {
  if (x === 0 || y === 0) return 0;
  const p = x * y;
  return p >= MAX_UINT64 ? MAX_UINT64 : p;
};

/** x·factor rounded up (multiplyByCostFactor). */
export const mulFactor = (x: number, f: number): number => {
  if (x > 0 && f > 0 && x > MAX_UINT64 / f) return MAX_UINT64;
  return Math.ceil(x * f);
};

export const est = (min: number, max: number): CostEstimate => ({ min, max });
export const ZERO: Readonly<CostEstimate> = Object.freeze(est(0, 0));
export const ONE: Readonly<CostEstimate> = Object.freeze(est(1, 1));
export const UNBOUNDED: Readonly<SizeEstimate> = Object.freeze(est(0, MAX_UINT64));

export const addE = (a: CostEstimate, b: CostEstimate): CostEstimate => est(add(a.min, b.min), add(a.max, b.max));
export const mulE = (a: CostEstimate, b: CostEstimate): CostEstimate => est(mul(a.min, b.min), mul(a.max, b.max));
export const factorE = (a: CostEstimate, f: number): CostEstimate => est(mulFactor(a.min, f), mulFactor(a.max, f));
export const unionE = (a: CostEstimate, b: CostEstimate): CostEstimate =>
  est(b.min < a.min ? b.min : a.min, b.max > a.max ? b.max : a.max);
