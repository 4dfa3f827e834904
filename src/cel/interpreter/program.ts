// A planned program: evaluates against an activation (a record of variables
// or a resolver function), reusing one frame per program.

import { CelError } from '../values.js';
import { CostLimitExceeded, Frame } from './frame.js';
import type { Plan } from './planner.js';

/** The variables of one evaluation: a record, or a function resolving a name
 * (undefined = unbound). Values are CEL runtime values (values.ts). */
export type Activation = Readonly<Record<string, unknown>> | ((name: string) => unknown);

export interface EvalResult {
  value: unknown;
  /** The runtime cost (0 when the program does not track cost). */
  cost: number;
}

export class Program {
  private readonly frame: Frame;
  private lastCost = 0;

  constructor(
    private readonly plan: Plan,
    /** Halt once the runtime cost exceeds this (only with cost tracking). */
    readonly costLimit: number = Infinity,
  ) {
    this.frame = new Frame(plan.slots);
  }

  /** Whether this program counts its runtime cost. */
  get tracksCost(): boolean {
    return this.plan.tracksCost;
  }

  /** The cost of the last evaluation (0 without cost tracking). */
  get actualCost(): number {
    return this.lastCost;
  }

  /** Evaluates; throws CelError (CostLimitExceeded when the cost limit is
   * passed). */
  eval(activation: Activation): unknown {
    let f = this.frame;
    if (f.busy) f = new Frame(this.plan.slots);
    const { names, nameSlots } = this.plan;
    const s = f.s;
    if (typeof activation === 'function') {
      for (let i = 0; i < names.length; i++) s[nameSlots[i]] = activation(names[i]);
    } else {
      for (let i = 0; i < names.length; i++) s[nameSlots[i]] = activation[names[i]];
    }
    f.c = 0;
    f.limit = this.costLimit;
    f.busy = true;
    try {
      const v = this.plan.root(f);
      if (f.c > f.limit) throw new CostLimitExceeded(f.c);
      return v;
    } catch (e) {
      if (f.c > f.limit && !(e instanceof CostLimitExceeded)) throw new CostLimitExceeded(f.c);
      if (e instanceof CelError) throw e;
      if (e instanceof RangeError) throw new CelError(e.message);
      throw e;
    } finally {
      this.lastCost = f.c;
      f.busy = false;
      for (let i = 0; i < names.length; i++) s[nameSlots[i]] = undefined;
    }
  }

  /** Evaluates and returns the value with the cost it took. */
  evalWithCost(activation: Activation): EvalResult {
    const value = this.eval(activation);
    return { value, cost: this.lastCost };
  }
}
