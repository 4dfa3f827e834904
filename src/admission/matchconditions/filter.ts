// Evaluating a list of compiled admission expressions against one request
// (kube's plugin/cel filter.ForInput): each result or error in order, the
// runtime cost of each counted against a budget shared by the list; past the
// budget, evaluation stops with an error for the whole list. Texts as kube's:
//   compilation error: <detail>
//   expression '<expr>' resulted in error: <cel error>
//   validation failed due to running out of cost budget, no further validation rules will be run
import type { Compiled } from './compile.js';
import type { AdmissionActivation } from './engine.js';
import { PER_CALL_LIMIT } from './limits.js';

export interface EvaluationResult {
  readonly value?: unknown;
  /** The evaluation (or compilation) error, as kube words it. */
  readonly error?: string;
}

export interface FilterOutcome {
  readonly results: readonly (EvaluationResult | undefined)[];
  readonly remainingBudget: number;
  /** Set when the budget ran out: no result counts. */
  readonly error?: string;
  /** Set when an authorizer check waits: evaluate again once it settled (no result counts). */
  readonly pending?: Promise<void>;
}

export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

const TRUE: EvaluationResult = Object.freeze({ value: true });
const FALSE: EvaluationResult = Object.freeze({ value: false });

/** Evaluates each expression (undefined entries are placeholders and stay undefined). */
export function evaluateAll(list: readonly (Compiled | undefined)[], activation: AdmissionActivation, budget: number): FilterOutcome {
  const results: (EvaluationResult | undefined)[] = new Array(list.length);
  let remaining = budget;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (!c) continue;
    if (c.error) {
      results[i] = { error: `compilation error: ${c.error.detail}` };
      continue;
    }
    const out = c.program!.eval(activation, PER_CALL_LIMIT);
    if (out.ok === 'pending') return { results: [], remainingBudget: remaining, pending: out.settled };
    if (out.cost > remaining) return { results: [], remainingBudget: -1, error: OUT_OF_BUDGET };
    remaining -= out.cost;
    results[i] = out.ok ? (out.value === true ? TRUE : out.value === false ? FALSE : { value: out.value }) : { error: `expression '${c.expression}' resulted in error: ${out.error}` };
  }
  return { results, remainingBudget: remaining };
}
