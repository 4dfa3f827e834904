// The runtime cost model the planner consults (cel-go's CostTracker as
// Kubernetes v1.27 vendors it, v0.12.6): fixed costs per kind of step come
// from src/cel/cost, each call's cost by overload id, resolved once per call
// site: a constant, or a function of the arguments and result.

import type { CostModel } from '../cost/constants.js';
import { constantCallCost, sizeCallCost } from '../cost/runtime.js';

export {
  LIST_CREATE_BASE_COST as LIST_CREATE_COST,
  MAP_CREATE_BASE_COST as MAP_CREATE_COST,
  SELECT_AND_IDENT_COST,
} from '../cost/constants.js';

export type SizedCost = (args: readonly unknown[], result: unknown) => number;

export interface CallCosts {
  /** The cost of an overload that does not depend on its arguments, or
   * undefined when it does (then sizeCallCost gives its function). */
  constantCallCost(overloadId: string): number | undefined;
  sizeCallCost(overloadId: string): SizedCost | undefined;
}

/** The call costs of a cost model ('kubernetes': cel-go's plus Kubernetes'
 * library estimator, as CRD validation uses; 'cel': cel-go's own). */
export function callCostsOf(model: CostModel): CallCosts {
  let c = byModel.get(model);
  if (c === undefined) {
    // Memoised per overload id: planning asks for the same ids again and again.
    const constants = new Map<string, number | undefined>();
    const sized = new Map<string, SizedCost | undefined>();
    c = {
      constantCallCost: (id) => {
        if (constants.has(id)) return constants.get(id);
        const k = constantCallCost(id, model);
        constants.set(id, k);
        return k;
      },
      sizeCallCost: (id) => {
        if (sized.has(id)) return sized.get(id);
        const f = sizeCallCost(id, model);
        sized.set(id, f);
        return f;
      },
    };
    byModel.set(model, c);
  }
  return c;
}

const byModel = new Map<CostModel, CallCosts>();
const binaryByCosts = new WeakMap<CallCosts, Map<string, BinarySizedCost>>();

const one: SizedCost = () => 1;

/** A call site's cost function (constant costs wrapped; 1 when unknown). */
export function sizedCostOf(costs: CallCosts, id: string): SizedCost {
  const k = costs.constantCallCost(id);
  if (k !== undefined) return () => k;
  return costs.sizeCallCost(id) ?? one;
}

export type BinarySizedCost = (a: unknown, b: unknown, result: unknown) => number;

/** cel-go's O(min(m, n)) overloads: ordering of strings/bytes and (in)equality. */
const MIN_SIZE_IDS = new Set([
  'equals',
  'not_equals',
  'less_string',
  'less_equals_string',
  'greater_string',
  'greater_equals_string',
  'less_bytes',
  'less_equals_bytes',
  'greater_bytes',
  'greater_equals_bytes',
]);

/** Size of a value the way the cost model measures it, with the common
 * answer for short strings computed without a traversal: a string of at most
 * 10 UTF-16 units has at most 10 code points, so ⌈size·0.1⌉ is 1 (0 when empty). */
const scalar = (v: unknown): boolean => typeof v !== 'object' || v === null;

/** A two-argument call site's cost function that does not allocate an
 * argument array on the common paths. */
export function binarySizedCostOf(costs: CallCosts, id: string): BinarySizedCost {
  let byId = binaryByCosts.get(costs);
  if (byId === undefined) binaryByCosts.set(costs, (byId = new Map()));
  let f = byId.get(id);
  if (f === undefined) byId.set(id, (f = makeBinarySizedCost(costs, id)));
  return f;
}

function makeBinarySizedCost(costs: CallCosts, id: string): BinarySizedCost {
  const k = costs.constantCallCost(id);
  if (k !== undefined) return () => k;
  const fn = costs.sizeCallCost(id) ?? one;
  if (MIN_SIZE_IDS.has(id)) {
    return (a, b, r) => {
      // ⌈min(size a, size b)·0.1⌉: scalars have size 1, short strings ≤ 10.
      const sa = typeof a === 'string' ? (a.length <= 10 ? (a.length === 0 ? 0 : 1) : -1) : scalar(a) ? 1 : -1;
      const sb = typeof b === 'string' ? (b.length <= 10 ? (b.length === 0 ? 0 : 1) : -1) : scalar(b) ? 1 : -1;
      if (sa === 0 || sb === 0) return 0;
      if (sa === 1 || sb === 1) return 1;
      return fn([a, b], r);
    };
  }
  return (a, b, r) => fn([a, b], r);
}
