// The per-evaluation state every planned closure receives: the variable and
// comprehension slots (fixed at plan time) and the running cost.

import { CelError } from '../values.js';

export class Frame {
  /** Slots: declared variables first (filled from the activation), then the
   * comprehension variables of the program. */
  readonly s: unknown[];
  /** Cost so far (only counted by programs planned with cost tracking). */
  c = 0;
  /** Cost limit; Infinity when none. */
  limit = Infinity;
  /** Whether an evaluation is using this frame (re-entrancy guard). */
  busy = false;
  constructor(size: number) {
    this.s = new Array<unknown>(size).fill(undefined);
  }
}

/** A planned expression. */
export type Interp = (f: Frame) => unknown;

/** cel-go's text when the runtime cost exceeds the program's limit. */
export const COST_LIMIT_MESSAGE = 'operation cancelled: actual cost limit exceeded';

/** Evaluation halted because its cost exceeded the limit. A CelError so that
 * callers see one error type, but never absorbed by `&&`, `||` or the macros. */
export class CostLimitExceeded extends CelError {
  readonly costLimitExceeded = true;
  constructor(readonly cost: number) {
    super(COST_LIMIT_MESSAGE);
  }
}

/** The error a catch site may absorb, or rethrows anything else (cost
 * cancellations, JavaScript bugs). */
export function absorbable(e: unknown): CelError {
  if (e instanceof CelError && !(e instanceof CostLimitExceeded)) return e;
  throw e;
}

export function checkCost(f: Frame): void {
  if (f.c > f.limit) throw new CostLimitExceeded(f.c);
}

export const noSuchOverload = (fn?: string): CelError =>
  new CelError(fn === undefined ? 'no such overload' : `no such overload: ${fn}`);
