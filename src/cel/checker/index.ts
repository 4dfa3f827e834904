// The CEL type checker: check(parsed, env) → checked AST (types and
// references by node id) or issues worded as cel-go words them.
//
//   env.ts     CheckEnv, buildCheckEnv (libraries + variables), name resolution
//   checker.ts the walk: identifiers, selection, calls, literals, comprehensions
//   overloads.ts overload resolution (type parameters, common result type)
//   assign.ts  assignability, unification with type parameters, substitution
//   format.ts  types printed as cel-go prints them
//   declare.ts builders for the declaration tables (stdlib/decls.ts, ext/*_decls.ts)
//   adorner.ts the `~type^reference` adornment of cel-go's checked-AST debug print
//   exprpb.ts  cel.expr Decl/Type messages (conformance type environments) as declarations
//   typename.ts types read back from cel-go's printed form

export { check, selectedField } from './checker.js';
export { checkedAdorner } from './adorner.js';
export { declsFromPb, typeFromPb, UnsupportedTypeError } from './exprpb.js';
export type { PbDecl, PbType } from './exprpb.js';
export { parseTypeName } from './typename.js';
export type { CheckedExpr, CheckIssue, CheckResult, Reference } from './checker.js';
export { buildCheckEnv, candidateNames, OverloadConflictError } from './env.js';
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
