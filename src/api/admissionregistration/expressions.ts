// What webhook configurations (v1) and ValidatingAdmissionPolicy (v1alpha1)
// validate alike: matchConditions (at most 64, qualified unique names, a
// boolean expression each), and the check that an expression compiles in its
// environment (src/admission/matchconditions), with kube's field errors:
//   <path>: Invalid value: "<expr>": compilation failed: ERROR: <input>:1:24: …
//   <path>: Invalid value: "<expr>": must evaluate to bool
import { type FieldError, type FieldPath, duplicate, invalid, required, tooMany } from '../meta/field.js';
import { obj, str } from '../meta/checks.js';
import { qualifiedNameErrors } from '../meta/validation.js';
import { BOOL, compileExpression, type ReturnTypes } from '../../admission/matchconditions/compile.js';
import type { AdmissionCelEngine, VariableDeclarations } from '../../admission/matchconditions/engine.js';

const MAX_MATCH_CONDITIONS = 64;

/** Checks that an expression compiles; without an engine, expressions are not compiled. */
export type ExpressionCheck = (expression: string, returns: ReturnTypes, vars: VariableDeclarations, path: FieldPath) => FieldError[];

export function expressionCheck(engine: AdmissionCelEngine | undefined): ExpressionCheck {
  return (expression, returns, vars, path) => {
    if (!engine) return [];
    const c = compileExpression(engine, expression, returns, vars);
    if (!c.error) return [];
    return c.error.type === 'Invalid' ? [invalid(path, expression, c.error.detail)] : [{ type: 'Internal', field: String(path), detail: c.error.detail }];
  };
}

/** kube's validateMatchConditions. */
export function validateMatchConditions(list: readonly unknown[], hasParams: boolean, check: ExpressionCheck, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(path, list.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = obj(raw);
    const p = path.index(i);
    const expression = str(c.expression).trim();
    if (expression === '') errs.push(required(p.child('expression')));
    else errs.push(...check(expression, BOOL, { hasParams, hasAuthorizer: true }, p.child('expression')));
    const name = str(c.name);
    if (name === '') errs.push(required(p.child('name')));
    else {
      for (const m of qualifiedNameErrors(name)) errs.push(invalid(p.child('name'), name, m));
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}
