// CEL's deterministic cost model, as cel-go v0.12 (the version Kubernetes
// v1.27 vendors) and Kubernetes define it.
//
//   constants.ts     cel-go's cost units (ident 1, list literal 10, …) and the CostModel choice
//   arith.ts         [min, max] intervals with cel-go's saturating uint64 arithmetic
//   estimate.ts      static estimate over a checked AST (cel-go's coster, path tracking, sizes)
//   kubeestimate.ts  Kubernetes' library call estimates (lists, strings, regex, urls, authz)
//   runtime.ts       the actual cost of each call (constant costs resolved at plan time)
//   size.ts          runtime sizes of values and kube's traversal cost
//   limits.ts        kube's budgets, limits and messages
//   crdcost.ts       a CRD's rules: cardinality, per-rule cost, the CRD total and its errors
//   budget.ts        a runtime budget shared by several evaluations
//
//   checked AST ──estimateCost──▶ {min, max} ──× cardinality──▶ vs STATIC_ESTIMATED_COST_LIMIT
//   evaluation ──Σ node costs + callCost──▶ actual ──▶ vs PER_CALL_LIMIT, then the budget

export * from './constants.js';
export { MAX_UINT64 } from './arith.js';
export type { CostEstimate, SizeEstimate } from './arith.js';
export { estimateCost, isScalar, schemaSizes } from './estimate.js';
export type { CallEstimate, CallEstimator, CheckedForCost, CostNode, EstimateOptions, SizeEstimator } from './estimate.js';
export { kubeCallEstimate } from './kubeestimate.js';
export { callCost, constantCallCost, kubeFunctionOf, sizeCallCost } from './runtime.js';
export type { CallCostFn } from './runtime.js';
export { actualSize, codePoints, traversalCost, utf8Length } from './size.js';
export * from './limits.js';
export { ROOT_CARDINALITY, TotalCost, childCardinality, ruleCost } from './crdcost.js';
export type { CardinalitySchema, RuleCost } from './crdcost.js';
export { CostBudget } from './budget.js';
