// x-kubernetes-validations of CustomResourceDefinitions (kube v1.27).
//
// CRD writes (the CRD strategy's SchemaDeps.ruleErrors):
//   ruleErrors(schema, 'spec.validation.openAPIV3Schema') → FieldError[]
//     compile, message and cost errors of every rule, kube's order and paths.
//   ruleShapeErrors(schema, path) → only the checks kube makes without a CEL context
//     (empty rule, blank/multi-line message, blank messageExpression): for schemas
//     that are not structural, where ruleErrors is not called.
// Custom-resource writes (the custom-resource strategy, per CRD version):
//   const v = compileCrdRules(version.schema.openAPIV3Schema)   // cached; null: no rules
//   if schema validation found errors: errs.push(rulesNotCheckedError())
//   else if (v) errs.push(...v.validate(obj, oldObj /* undefined on create */).errors)
//   (validate(obj, old, { budget }) → { errors, remainingBudget }, budget default
//   RUNTIME_CEL_COST_BUDGET)
//
//   compile.ts     a node's environment and kube's compileRule
//   minsize.ts     a node's smallest JSON (the unbounded-cardinality bound)
//   ruleerrors.ts  the CRD-write walk
//   validator.ts   the request-time walk
export { ruleErrors, ruleShapeErrors, goRuleValue, type RuleErrorsOptions } from './ruleerrors.js';
export { compileCrdRules, rulesNotCheckedError, ROOT_FIELD, type CrdRuleValidator, type ValidateOptions, type ValidateResult } from './validator.js';
