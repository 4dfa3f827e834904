// admissionregistration/v1alpha1: ValidatingAdmissionPolicy, CEL validations
// of admitted objects, with the type-checking status the server reports.
// Protobuf numbers are left out in this version: not yet checked against its generated.proto.
import { Condition, int64, kind, list, obj, ref, str } from '../../../schema/index.js';
import { MatchCondition, MatchResources } from './match.js';

const PKG = 'io.k8s.api.admissionregistration.v1alpha1';

export const ParamKind = obj({
  apiVersion: str().proto(1).desc('The group/version of the parameter resource.'),
  kind: str().proto(2).desc('The kind of the parameter resource.'),
})
  .atomic()
  .id(`${PKG}.ParamKind`)
  .desc('The kind of resource that parameterises a policy.');

export const Validation = obj({
  expression: str().proto(1, { keepZero: true }).required().desc('A CEL expression that must evaluate to true for the request to pass.'),
  message: str().proto(2).desc('The message returned when the validation fails; one line.'),
  reason: str().proto(3, { keepZero: true }).desc('The reason returned when the validation fails: Unauthorized, Forbidden, Invalid or RequestEntityTooLarge.'),
  messageExpression: str().proto(4).desc('A CEL expression producing the failure message; preferred over message when it yields one.'),
})
  .id(`${PKG}.Validation`)
  .desc('One CEL check of a policy.');

export const AuditAnnotation = obj({
  key: str().proto(1, { keepZero: true }).required().desc('The annotation key, a qualified name unique within the policy.'),
  valueExpression: str().proto(2, { keepZero: true }).required().desc('A CEL expression producing the annotation value, or null to omit it.'),
})
  .id(`${PKG}.AuditAnnotation`)
  .desc('A CEL expression whose value is recorded as an audit annotation.');

export const ValidatingAdmissionPolicySpec = obj({
  paramKind: ref(ParamKind).proto(1).desc('The kind of the parameter resources; no parameters when unset.'),
  matchConstraints: ref(MatchResources).proto(2).desc('The requests the policy applies to.'),
  validations: list(Validation).proto(3).atomic().desc('The CEL checks; this or auditAnnotations must be set.'),
  failurePolicy: str().proto(4, { keepZero: true }).desc('Ignore or Fail (the default): what an evaluation or configuration error means.'),
  auditAnnotations: list(AuditAnnotation).proto(5).atomic().desc('Audit annotations to produce; this or validations must be set.'),
  matchConditions: list(MatchCondition).proto(6).map('name').patch('merge', 'name').desc('CEL conditions that must all hold for the policy to be evaluated; at most 64.'),
})
  .id(`${PKG}.ValidatingAdmissionPolicySpec`)
  .desc('What a validating admission policy checks, and on which requests.');

export const ExpressionWarning = obj({
  fieldRef: str().proto(2, { always: true }).required().desc('The path of the field holding the expression.'),
  warning: str().proto(3, { always: true }).required().desc('What the type checker found, in readable form.'),
})
  .id(`${PKG}.ExpressionWarning`)
  .desc('A type-checking warning about one expression.');

export const TypeChecking = obj({
  expressionWarnings: list(ExpressionWarning).proto(1).atomic().desc('One warning per expression that failed type checking.'),
})
  .id(`${PKG}.TypeChecking`)
  .desc('The results of type-checking a policy\'s expressions.');

export const ValidatingAdmissionPolicyStatus = obj({
  observedGeneration: int64().proto(1).desc('The generation the status was computed from.'),
  typeChecking: ref(TypeChecking).proto(2).desc('Type-checking results; present once checking is done.'),
  conditions: list(Condition).proto(3).map('type').desc('The latest observations of the policy\'s state.'),
})
  .id(`${PKG}.ValidatingAdmissionPolicyStatus`)
  .desc('What the server observed about a policy.');

export const ValidatingAdmissionPolicy = kind({
  spec: ref(ValidatingAdmissionPolicySpec).proto(2).desc('What the policy checks.'),
  status: ref(ValidatingAdmissionPolicyStatus).proto(3).desc('The type-checking results and conditions, written by the server.'),
})
  .id(`${PKG}.ValidatingAdmissionPolicy`)
  .desc('CEL validations the API server applies to admitted requests, without webhooks.');
