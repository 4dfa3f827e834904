// The CEL type checker: check(parsed, env) → checked AST (types and
// references by node id) or issues worded as cel-go words them.
//
//   env.ts     CheckEnv, buildCheckEnv (libraries + variables), name resolution
//   checker.ts the walk: identifiers, selection, overload resolution, literals, comprehensions
//   assign.ts  assignability, unification with type parameters, substitution
//   format.ts  types printed as cel-go prints them
//   declare.ts builders for the declaration tables (stdlib/decls.ts, ext/*_decls.ts)

export { check } from './checker.js';
export type { CheckedExpr, CheckIssue, CheckResult, Reference } from './checker.js';
export { buildCheckEnv, candidateNames } from './env.js';
export type { BuildEnvOptions, CheckEnv } from './env.js';
export { formatType, formatArgs } from './format.js';
export {
  Substitution,
  hasTypeParam,
  isAssignable,
  isAssignableList,
  isDyn,
  isDynOrError,
  isExactType,
  isOptional,
  mostGeneral,
  optionalElem,
  substitute,
} from './assign.js';
