// A ValidatingAdmissionPolicy compiled once per stored version (uid and
// resourceVersion): its match criteria, its matchConditions, validations
// (with their messageExpressions) and auditAnnotations compiled in kube's
// environments — validations, matchConditions and audit annotations with the
// authorizer, messageExpressions without it; params declared when the policy
// has a paramKind (kube's policyController.latestPolicyData).
import { BOOL, STRING, STRING_OR_NULL, compileExpression, type Compiled } from '../../matchconditions/compile.js';
import type { AdmissionCelEngine } from '../../matchconditions/engine.js';
import { MatchConditionMatcher, matchConditionsOf } from '../../matchconditions/matcher.js';
import { matchResourcesOf, type MatchResources } from './matching.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface Validation {
  readonly expression: string;
  readonly message: string;
  /** Unset: Invalid. */
  readonly reason: string | undefined;
  readonly compiled: Compiled;
  /** The messageExpression, when given. */
  readonly messageExpression: Compiled | undefined;
}

export interface AuditAnnotation {
  readonly key: string;
  readonly valueExpression: string;
  readonly compiled: Compiled;
}

export interface ParamKind {
  readonly apiVersion: string;
  readonly kind: string;
}

export interface CompiledPolicy {
  readonly name: string;
  /** "Fail" (also when unset), "Ignore", or what the object says (kube: "unrecognized failure policy"). */
  readonly failurePolicy: string;
  readonly paramKind: ParamKind | undefined;
  readonly matchConstraints: MatchResources;
  readonly matchConditions: MatchConditionMatcher | undefined;
  readonly validations: readonly Validation[];
  readonly auditAnnotations: readonly AuditAnnotation[];
  /** The compiled expressions in order, as the evaluator takes them. */
  readonly validationPrograms: readonly Compiled[];
  readonly messagePrograms: readonly (Compiled | undefined)[];
  readonly annotationPrograms: readonly Compiled[];
}

export function compilePolicy(engine: AdmissionCelEngine, policy: Obj): CompiledPolicy {
  const spec = obj(policy.spec);
  const name = str(obj(policy.metadata).name);
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  const withAuthorizer = { hasParams, hasAuthorizer: true };
  const failurePolicy = typeof spec.failurePolicy === 'string' ? spec.failurePolicy : 'Fail';
  const conditions = matchConditionsOf(list(spec.matchConditions));
  const pk = obj(spec.paramKind);
  const validations = list(spec.validations).map((v): Validation => {
    const o = obj(v);
    const expression = str(o.expression);
    const messageExpression = str(o.messageExpression);
    return {
      expression,
      message: str(o.message),
      reason: typeof o.reason === 'string' ? o.reason : undefined,
      compiled: compileExpression(engine, expression, BOOL, withAuthorizer),
      messageExpression: messageExpression !== '' ? compileExpression(engine, messageExpression, STRING, { hasParams, hasAuthorizer: false }) : undefined,
    };
  });
  const auditAnnotations = list(spec.auditAnnotations).map((v): AuditAnnotation => {
    const o = obj(v);
    const valueExpression = str(o.valueExpression);
    return { key: str(o.key), valueExpression, compiled: compileExpression(engine, valueExpression, STRING_OR_NULL, withAuthorizer) };
  });
  return {
    name,
    failurePolicy,
    paramKind: hasParams ? { apiVersion: str(pk.apiVersion), kind: str(pk.kind) } : undefined,
    matchConstraints: matchResourcesOf(spec.matchConstraints),
    matchConditions: conditions.length > 0
      ? new MatchConditionMatcher(engine, conditions, failurePolicy === 'Ignore' ? 'Ignore' : 'Fail', withAuthorizer)
      : undefined,
    validations,
    auditAnnotations,
    validationPrograms: validations.map((v) => v.compiled),
    messagePrograms: validations.map((v) => v.messageExpression),
    annotationPrograms: auditAnnotations.map((a) => a.compiled),
  };
}
