// cel-go's cost units (common/cost.go, v0.12.x as Kubernetes v1.27 vendors
// it). One unit is roughly 50 ns of work; the numbers are part of the API:
// a CRD rule's estimated cost decides whether the CRD is accepted, so any
// change here changes which CRDs are valid.

/** Reading a variable, or one field/index step of a selection. */
export const SELECT_AND_IDENT_COST = 1;
/** A literal. */
export const CONST_COST = 0;
/** Building a list literal (plus the cost of its elements). */
export const LIST_CREATE_BASE_COST = 10;
/** Building a map literal (plus its keys and values). */
export const MAP_CREATE_BASE_COST = 30;
/** Building a message literal (plus its field values). */
export const STRUCT_CREATE_BASE_COST = 40;
/** Cost per character (code point; per byte for bytes) of one traversal. */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** Cost per pattern character of running a regex over a unit of input. */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
/** A call with no size-dependent cost. */
export const DEFAULT_CALL_COST = 1;
/** Kubernetes' fixed cost of an authorizer check (allows two per expression). */
export const AUTHZ_CHECK_COST = 350000;

/** Which cost model applies: cel-go's own, or cel-go's with Kubernetes'
 * library estimator (`library.CostEstimator`) on top. Kubernetes v1.27 uses
 * the latter for CRD validation rules; admission policies evaluate with
 * cel-go's defaults (no CostTracking estimator is installed there). */
export type CostModel = 'cel' | 'kubernetes';
