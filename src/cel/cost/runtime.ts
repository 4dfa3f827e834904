// The actual cost of evaluating a CEL expression, as cel-go's runtime cost
// tracker (interpreter/runtimecost.go, v0.12.x) charges it and, in the
// 'kubernetes' model, Kubernetes' library estimator (apiserver
// pkg/cel/library/cost.go CallCost) on top of it.
//
// How the interpreter charges (cel-go's CostObserver):
//   constant                         CONST_COST (0)
//   identifier / attribute           SELECT_AND_IDENT_COST (1)
//   each field/index qualifier       SELECT_AND_IDENT_COST (1)
//   has(a.f) presence test           the operand's cost only
//   list / map / message literal     LIST_ / MAP_ / STRUCT_CREATE_BASE_COST
//   function call                    callCost(overload, args, result)
//   `&&`, `||`, `?:`                 nothing themselves (only their operands)
//   comprehension                    its parts, as evaluated, per iteration
// and halts with COST_LIMIT_EXCEEDED (limits.ts) once the total passes the
// limit. Two quirks of cel-go v0.12's observer that Kubernetes inherits:
// a variable used as an index key (`m[k]`) is read without being charged,
// and when a branch of `?:` is an identifier or selection, the branch's
// base identifier is not charged (its qualifiers are). A step that fails
// is charged like one that succeeds (the error is its value), and a call
// whose argument failed is still charged (sized over the error as 1).
//
// Kubernetes plans CRD rules and admission policies with cel-go's
// OptOptimize, which changes what is charged: a list or map literal of
// constants is a constant (0, not 10/30); `x in <constant list of
// primitives>` is a set lookup that is not a call (0; over an empty list
// the whole test is the constant false); a type conversion of a constant
// (int('1'), duration('1s')…) is folded (0). pipeline.test.ts holds tables
// of these.
//
// Most overloads cost a constant: resolve that once when planning a call
// with constantCallCost(id) (1; 0 for logical_and/logical_or/conditional;
// 350000 for the authorizer check); it is undefined only for size-dependent
// overloads, whose cost function sizeCallCost(id) returns.

import type { CostModel } from './constants.js';
import {
  AUTHZ_CHECK_COST,
  DEFAULT_CALL_COST,
  REGEX_STRING_LENGTH_COST_FACTOR as REGEX_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR as STR_FACTOR,
} from './constants.js';
import { actualSize, codePoints, traversalCost } from './size.js';

export {
  CONST_COST,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  SELECT_AND_IDENT_COST,
  STRUCT_CREATE_BASE_COST,
} from './constants.js';
export type { CostModel } from './constants.js';

/** The cost of one call from its arguments (receiver first) and result. */
export type CallCostFn = (args: readonly unknown[], result: unknown) => number;

const ceil = Math.ceil;

/** ⌈size·0.1⌉ of one argument: one traversal of it. */
const traverseArg0: CallCostFn = (a) => ceil(actualSize(a[0]) * STR_FACTOR);

/** Regex over a string: ⌈(1+|s|)·0.1⌉ · ⌈|re|·0.25⌉ (the +1 keeps an empty
 * input from making an expensive pattern free). */
const regexCost = (s: unknown, re: unknown): number =>
  ceil((1 + actualSize(s)) * STR_FACTOR) * ceil(actualSize(re) * REGEX_FACTOR);

/** cel-go's size-dependent overloads. */
const celSized: Record<string, CallCostFn> = {
  // O(n)
  starts_with_string: traverseArg0,
  ends_with_string: traverseArg0,
  string_to_bytes: traverseArg0,
  bytes_to_string: traverseArg0,
  in_list: (a) => actualSize(a[1]),
  // O(nm)
  matches_string: (a) => regexCost(a[0], a[1]),
  contains_string: (a) => ceil(actualSize(a[0]) * STR_FACTOR) * ceil(actualSize(a[1]) * STR_FACTOR),
  // O(m+n)
  add_string: (a) => ceil((actualSize(a[0]) + actualSize(a[1])) * STR_FACTOR),
  add_bytes: (a) => ceil((actualSize(a[0]) + actualSize(a[1])) * STR_FACTOR),
};
/** O(min(m, n)): comparisons and (in)equality. Sizes of scalars are 1, so
 * comparing two scalars costs ⌈0.1⌉ = 1. */
const minSizeCost: CallCostFn = (a) => {
  const x = a[0];
  const y = a[1];
  const tx = typeof x;
  const ty = typeof y;
  // two scalars (numbers, bigints, booleans): sizes 1 and 1
  if (tx !== 'object' && tx !== 'string' && ty !== 'object' && ty !== 'string') return 1;
  if (tx === 'string' && ty === 'string') return ceil(minCodePoints(x as string, y as string) * STR_FACTOR);
  return ceil(Math.min(actualSize(x), actualSize(y)) * STR_FACTOR);
};

/** The smaller code point count of two strings, counting the longer one
 * only when it could be the smaller (it has at least half its UTF-16
 * length in code points). */
function minCodePoints(x: string, y: string): number {
  const swap = x.length > y.length;
  const s = swap ? y : x;
  const l = swap ? x : y;
  const cs = codePoints(s);
  return cs <= (l.length + 1) >> 1 ? cs : Math.min(cs, codePoints(l));
}
for (const id of [
  'less_string',
  'less_equals_string',
  'greater_string',
  'greater_equals_string',
  'less_bytes',
  'less_equals_bytes',
  'greater_bytes',
  'greater_equals_bytes',
  'equals',
  'not_equals',
]) {
  celSized[id] = minSizeCost;
}

/** Kubernetes' library costs, keyed (as kube keys them) by function name;
 * an overload id is mapped to its function by kubeFunctionOf. */
const kubeConstant: Record<string, number> = {
  check: AUTHZ_CHECK_COST,
  serviceAccount: 1,
  path: 1,
  group: 1,
  resource: 1,
  subresource: 1,
  namespace: 1,
  name: 1,
  allowed: 1,
  denied: 1,
  reason: 1,
};
const traverseTree: CallCostFn = (a) => (a.length > 0 ? traversalCost(a[0]) : 0);
const kubeSized: Record<string, CallCostFn> = {
  isSorted: traverseTree,
  sum: traverseTree,
  max: traverseTree,
  min: traverseTree,
  indexOf: traverseTree,
  lastIndexOf: traverseTree,
  url: traverseArg0,
  lowerAscii: traverseArg0,
  upperAscii: traverseArg0,
  substring: traverseArg0,
  trim: traverseArg0,
  // traversal plus building the result
  replace: (a) => ceil(actualSize(a[0]) * 2 * STR_FACTOR),
  split: (a) => ceil(actualSize(a[0]) * 2 * STR_FACTOR),
  join: (_a, r) => ceil(actualSize(r) * 2 * STR_FACTOR),
  find: (a) => regexCost(a[0], a[1]),
  findAll: (a) => regexCost(a[0], a[1]),
};

/** The function (as Kubernetes' estimator names it) of the overloads its
 * cost switch covers: the Kubernetes libraries' and cel-go's strings
 * extension's ids. Undefined for every other overload. */
export function kubeFunctionOf(overloadId: string): string | undefined {
  const known = kubeOverloadFunctions[overloadId];
  if (known !== undefined) return known;
  // lists library: list_<elem>_is_sorted_bool, list_<elem>_sum_<elem>,
  // list_<elem>_max_<elem>, list_<elem>_min_<elem>
  if (overloadId.startsWith('list_')) {
    if (overloadId.endsWith('_is_sorted_bool')) return 'isSorted';
    const m = /^list_(.+)_(sum|max|min)_(.+)$/.exec(overloadId);
    if (m && m[1] === m[3]) return m[2];
  }
  return undefined;
}

const kubeOverloadFunctions: Record<string, string> = {
  // authorizer library (authz.go)
  authorizer_path: 'path',
  authorizer_group: 'group',
  authorizer_serviceaccount: 'serviceAccount',
  groupcheck_resource: 'resource',
  resourcecheck_subresource: 'subresource',
  resourcecheck_namespace: 'namespace',
  resourcecheck_name: 'name',
  pathcheck_check: 'check',
  resourcecheck_check: 'check',
  decision_allowed: 'allowed',
  decision_denied: 'denied',
  decision_reason: 'reason',
  // lists library
  list_a_index_of_int: 'indexOf',
  list_a_last_index_of_int: 'lastIndexOf',
  // urls library
  string_to_url: 'url',
  // regex library
  string_find_string: 'find',
  string_find_all_string: 'findAll',
  string_find_all_string_int: 'findAll',
  // cel-go strings extension (ext/strings.go)
  string_index_of_string: 'indexOf',
  string_index_of_string_int: 'indexOf',
  string_last_index_of_string: 'lastIndexOf',
  string_last_index_of_string_int: 'lastIndexOf',
  string_lower_ascii: 'lowerAscii',
  string_upper_ascii: 'upperAscii',
  string_substring_int: 'substring',
  string_substring_int_int: 'substring',
  string_trim: 'trim',
  string_replace_string_string: 'replace',
  string_replace_string_string_int: 'replace',
  string_split_string: 'split',
  string_split_string_int: 'split',
  list_join: 'join',
  list_join_string: 'join',
};

/** The cost of a call to this overload when it does not depend on the
 * arguments (1 for almost everything; Kubernetes' authorizer check
 * 350000); undefined when it does — then use sizeCallCost. */
export function constantCallCost(overloadId: string, model: CostModel = 'kubernetes'): number | undefined {
  if (model === 'kubernetes') {
    const fn = kubeFunctionOf(overloadId);
    if (fn !== undefined) {
      const c = kubeConstant[fn];
      if (c !== undefined) return c;
      if (kubeSized[fn] !== undefined) return undefined;
    }
  }
  if (celSized[overloadId] !== undefined) return undefined;
  return FREE.has(overloadId) ? 0 : DEFAULT_CALL_COST;
}

/** `&&`, `||` and `?:` are not calls at runtime in cel-go (and cost their
 * operands only in the estimate): nothing of their own. */
const FREE = new Set(['logical_and', 'logical_or', 'conditional']);

/** The cost function of a size-dependent overload (those for which
 * constantCallCost is undefined); undefined for constant-cost ones. */
export function sizeCallCost(overloadId: string, model: CostModel = 'kubernetes'): CallCostFn | undefined {
  if (model === 'kubernetes') {
    const fn = kubeFunctionOf(overloadId);
    if (fn !== undefined) {
      if (kubeConstant[fn] !== undefined) return undefined;
      const f = kubeSized[fn];
      if (f !== undefined) return f;
    }
  }
  return celSized[overloadId];
}

/** The actual cost of one call (slow path: resolves the overload each
 * time; the interpreter resolves once with constantCallCost/sizeCallCost). */
export function callCost(
  overloadId: string,
  args: readonly unknown[],
  result: unknown,
  model: CostModel = 'kubernetes',
): number {
  const c = constantCallCost(overloadId, model);
  if (c !== undefined) return c;
  return (sizeCallCost(overloadId, model) as CallCostFn)(args, result);
}
