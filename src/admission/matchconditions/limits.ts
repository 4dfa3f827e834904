// kube v1.27's CEL limits for admission (k8s.io/apiserver/pkg/apis/cel/config.go).

/** The runtime cost one expression may spend (cel.CostLimit of every program). */
export const PER_CALL_LIMIT = 1_000_000;
/** The runtime cost all of one policy binding's validations may spend together. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** The runtime cost a webhook's or policy's matchConditions may spend together. */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
/** A messageExpression result longer than this (bytes) is not used. */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;
