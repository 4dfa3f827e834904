// Kubernetes v1.27's CEL budgets and limits, and the messages that report
// them (apiserver pkg/apis/cel/config.go, pkg/cel/limits.go; apiextensions
// pkg/apis/apiextensions/validation/validation.go, pkg/apiserver/schema/cel/
// validation.go; apiserver pkg/admission/plugin/cel/filter.go).
import { goQuote } from '../goquote.js';

export { goQuote };

/** Runtime cost limit of one evaluation (about 0.1 s). */
export const PER_CALL_LIMIT = 1_000_000;
/** Runtime budget over all rules of one custom resource, and over all
 * validations of one ValidatingAdmissionPolicyBinding (about 1 s). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** Runtime budget of the matchConditions of one webhook or binding. */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
/** Comprehension iterations between checks for interruption. */
export const CHECK_FREQUENCY = 100;
/** The request size the estimates assume (3 MiB). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
/** Longest message a messageExpression may produce. */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;
/** Largest estimated cost of one CRD rule (after multiplying by how many
 * times its schema node can occur). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** Largest estimated cost of all the rules of one CRD schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

/** The most times data of the given minimum serialised size can occur in
 * one request (apiextensions compilation.go maxCardinality): one comma
 * between elements assumed. */
export function maxCardinality(minSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1));
}

const MAX_UINT64 = 18446744073709551615;

/** baseCost × cardinality, saturating at uint64's maximum
 * (multiplyWithOverflowGuard); an empty rule costs 0. */
export function expressionCost(baseCost: number, cardinality: number): number {
  if (baseCost === 0) return 0;
  const p = baseCost * cardinality;
  return p >= MAX_UINT64 ? MAX_UINT64 : p;
}

// ---- messages ------------------------------------------------------------

/** cel-go's error when the runtime cost passes the per-call limit; kube
 * recognises it by this prefix. */
export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

/** Runtime budget exhausted (CRD rules, admission policy validations). */
export const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

/** Runtime budget exhausted by a CRD rule's messageExpression. */
export const MESSAGE_EXPRESSION_OUT_OF_BUDGET =
  'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run';

/** A CRD rule halted by the per-call limit: `'<error>': no further …`. */
export function ruleCostLimitMessage(rule: string): string {
  return `'${COST_LIMIT_EXCEEDED}': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`;
}

/** A CRD rule's messageExpression halted by the per-call limit (Go %q). */
export function messageExpressionCostLimitMessage(expr: string): string {
  return `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(expr)}`;
}

/** The forbidden-field detail for a rule whose estimated cost is over
 * budget (getCostErrorMessage): the factor is "more than 100x" above 100,
 * Go's %f below 1.5 (so never a misleading "1.0x"), else one decimal. */
export function costErrorMessage(costName: string, expressionCost: number, costLimit: number): string {
  const exceed = expressionCost / costLimit;
  let factor: string;
  if (exceed > 100) factor = 'more than 100x';
  else if (exceed < 1.5) factor = `${exceed.toFixed(6)}x`;
  else factor = `${exceed.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The costName kube passes for one rule, one messageExpression, and the
 * whole schema. */
export const ESTIMATED_RULE_COST = 'estimated rule cost';
export const ESTIMATED_MESSAGE_EXPRESSION_COST = 'estimated messageExpression cost';
export const ESTIMATED_TOTAL_COST = 'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema';
/** Detail on each of the most expensive rules when the CRD total is over. */
export const CONTRIBUTED_TO_TOTAL =
  'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema';

