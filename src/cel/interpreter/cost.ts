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
  return {
    constantCallCost: (id) => constantCallCost(id, model),
    sizeCallCost: (id) => sizeCallCost(id, model),
  };
}

const one: SizedCost = () => 1;

/** A call site's cost function (constant costs wrapped; 1 when unknown). */
export function sizedCostOf(costs: CallCosts, id: string): SizedCost {
  const k = costs.constantCallCost(id);
  if (k !== undefined) return () => k;
  return costs.sizeCallCost(id) ?? one;
}
