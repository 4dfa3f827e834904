// The runtime cost model the planner consults (cel-go's CostTracker): fixed
// costs per kind of step, and each call's cost by overload id. The per-call
// costs come from the cost model (src/cel/cost); `unitCallCosts` is cel-go's
// default of 1 per call, used when no model is given.

/** cel-go common.SelectAndIdentCost: an identifier, a field selection, an index. */
export const SELECT_AND_IDENT_COST = 1;
/** cel-go common.ListCreateBaseCost */
export const LIST_CREATE_COST = 10;
/** cel-go common.MapCreateBaseCost */
export const MAP_CREATE_COST = 30;
/** cel-go common.StructCreateBaseCost */
export const STRUCT_CREATE_COST = 40;

export interface CallCosts {
  /** The cost of an overload that does not depend on its arguments, or
   * undefined when it does (then callCost is asked after each call). */
  constantCallCost(overloadId: string): number | undefined;
  /** The cost of one call given its arguments and result. */
  callCost(overloadId: string, args: readonly unknown[], result: unknown): number;
}

export const unitCallCosts: CallCosts = {
  constantCallCost: () => 1,
  callCost: () => 1,
};
