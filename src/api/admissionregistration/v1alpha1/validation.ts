// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding validation
// (admissionregistration.svc.io/v1alpha1) with kube-apiserver v1.27's paths
// and messages (pkg/apis/admissionregistration/validation). Every expression
// must compile in its environment (src/admission/matchconditions: the
// variables each kind of expression sees, the return type it must have);
// a compile error reads
//   spec.validations[0].expression: Invalid value: "<expr>": compilation failed: ERROR: <input>:1:24: …
// On update, matchConditions are checked again only when they or the
// paramKind changed (kube's ignoreValidatingAdmissionPolicyMatchConditions).
import { type FieldError, type FieldPath, duplicate, fieldPath, invalid, notSupported, required } from '../../meta/field.js';
import { type Obj, arr, isObj, obj, semanticEqual, str, validateLabelSelector } from '../../meta/checks.js';
import { dns1035LabelErrors, dns1123SubdomainErrors, pathSegmentNameErrors, qualifiedNameErrors } from '../../meta/validation.js';
import { goStringSlice } from '../../meta/govalue.js';
import type { KindValidator } from '../../core/v1/validation.js';
import { validateRule } from '../v1/validation.js';
import { BOOL, STRING, STRING_OR_NULL } from '../../../admission/matchconditions/compile.js';
import type { AdmissionCelEngine } from '../../../admission/matchconditions/engine.js';
import { expressionCheck, validateMatchConditions, type ExpressionCheck } from '../expressions.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;

function validateParamKind(pk: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk.apiVersion);
  if (apiVersion === '') errs.push(required(path.child('apiVersion')));
  else {
    const slashes = apiVersion.split('/').length - 1;
    if (slashes > 1) errs.push(invalid(path.child('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else if (apiVersion !== '/') {
      const [group, version] = slashes === 1 ? apiVersion.split('/') as [string, string] : ['', apiVersion];
      if (group !== '') {
        const e = dns1123SubdomainErrors(group);
        if (e.length > 0) errs.push(invalid(path.child('apiVersion'), group, e.join(',')));
      }
      if (version === '') errs.push(invalid(path.child('apiVersion'), apiVersion, 'version must be specified'));
      else {
        const e = dns1035LabelErrors(version);
        if (e.length > 0) errs.push(invalid(path.child('apiVersion'), version, e.join(',')));
      }
    }
  }
  const kind = str(pk.kind);
  if (kind === '') errs.push(required(path.child('kind')));
  else {
    const e = dns1035LabelErrors(kind.toLowerCase());
    if (e.length > 0) errs.push(invalid(path.child('kind'), kind, `may have mixed case, but should otherwise match: ${e.join(',')}`));
  }
  return errs;
}

function validateNamedRule(r: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arr(r.resourceNames).map(str).forEach((name, i) => {
    for (const m of pathSegmentNameErrors(name, false)) errs.push(invalid(path.child('resourceNames').index(i), name, m));
    if (seen.has(name)) errs.push(duplicate(path.child('resourceNames').index(i), name));
    else seen.add(name);
  });
  return [...errs, ...validateRule(r, path)];
}

function validateMatchResources(m: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (m.matchPolicy === undefined || m.matchPolicy === null) errs.push(required(path.child('matchPolicy')));
  else if (!MATCH_POLICIES.includes(str(m.matchPolicy))) errs.push(notSupported(path.child('matchPolicy'), m.matchPolicy, MATCH_POLICIES));
  if (!isObj(m.namespaceSelector)) errs.push(required(path.child('namespaceSelector')));
  else errs.push(...validateLabelSelector(m.namespaceSelector, path.child('namespaceSelector')));
  if (!isObj(m.objectSelector)) errs.push(required(path.child('objectSelector')));
  else errs.push(...validateLabelSelector(m.objectSelector, path.child('objectSelector')));
  arr(m.resourceRules).forEach((r, i) => errs.push(...validateNamedRule(obj(r), path.child('resourceRules').index(i))));
  arr(m.excludeResourceRules).forEach((r, i) => errs.push(...validateNamedRule(obj(r), path.child('excludeResourceRules').index(i))));
  return errs;
}

const hasNewlines = (s: string) => /[\n\r]/.test(s);

function validateValidation(v: Obj, hasParams: boolean, check: ExpressionCheck, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const expression = str(v.expression);
  const message = str(v.message);
  const messageExpression = str(v.messageExpression);
  if (expression.trim() === '') errs.push(required(path.child('expression'), 'expression is not specified'));
  else errs.push(...check(expression, BOOL, { hasParams, hasAuthorizer: true }, path.child('expression')));
  if (messageExpression !== '' && messageExpression.trim() === '') errs.push(invalid(path.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim() !== '') errs.push(...check(messageExpression, STRING, { hasParams, hasAuthorizer: false }, path.child('messageExpression')));
  if (message !== '' && message.trim() === '') errs.push(invalid(path.child('message'), message, 'message must be non-empty if specified'));
  else if (hasNewlines(message.trim())) errs.push(invalid(path.child('message'), message, 'message must not contain line breaks'));
  if (typeof v.reason === 'string' && !REASONS.includes(v.reason)) errs.push(notSupported(path.child('reason'), v.reason, REASONS));
  return errs;
}

function validateAuditAnnotation(policyName: string, a: Obj, hasParams: boolean, check: ExpressionCheck, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(a.key);
  if (policyName !== '') for (const m of qualifiedNameErrors(`${policyName}/${key}`)) errs.push(invalid(path.child('key'), `${policyName}/${key}`, m));
  else errs.push(invalid(path.child('key'), key, 'requires metadata.name be non-empty'));
  const value = str(a.valueExpression).trim();
  if (value === '') errs.push(required(path.child('valueExpression'), 'valueExpression is not specified'));
  else if (Buffer.byteLength(value, 'utf8') > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH) {
    errs.push(required(path.child('valueExpression'), `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`));
  } else {
    errs.push(...check(value, STRING_OR_NULL, { hasParams, hasAuthorizer: true }, path.child('valueExpression')).map((e) => (e.type === 'Invalid' ? { ...e, value: str(a.valueExpression) } : e)));
  }
  return errs;
}

function validatePolicy(p: Obj, check: ExpressionCheck, ignoreMatchConditions: boolean): FieldError[] {
  const spec = obj(p.spec);
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  if (spec.failurePolicy === undefined || spec.failurePolicy === null) errs.push(required(path.child('failurePolicy')));
  else if (!FAILURE_POLICIES.includes(str(spec.failurePolicy))) errs.push(notSupported(path.child('failurePolicy'), spec.failurePolicy, FAILURE_POLICIES));
  const hasParams = isObj(spec.paramKind);
  if (hasParams) errs.push(...validateParamKind(obj(spec.paramKind), path.child('paramKind')));
  if (!isObj(spec.matchConstraints)) errs.push(required(path.child('matchConstraints')));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, path.child('matchConstraints')));
    if (arr(spec.matchConstraints.resourceRules).length === 0) errs.push(required(path.child('matchConstraints').child('resourceRules')));
  }
  if (!ignoreMatchConditions) errs.push(...validateMatchConditions(arr(spec.matchConditions), hasParams, check, path.child('matchConditions')));
  const validations = arr(spec.validations);
  const annotations = arr(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(required(path.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(path.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(obj(v), hasParams, check, path.child('validations').index(i))));
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) errs.push(invalid(path.child('auditAnnotations'), annotations, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  const keys = new Set<string>();
  const name = str(obj(p.metadata).name);
  annotations.forEach((raw, i) => {
    const a = obj(raw);
    errs.push(...validateAuditAnnotation(name, a, hasParams, check, path.child('auditAnnotations').index(i)));
    const key = str(a.key);
    if (keys.has(key)) errs.push(duplicate(path.child('auditAnnotations').index(i).child('key'), key));
    keys.add(key);
  });
  return errs;
}

function validateValidationActions(list: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.push(notSupported(path.index(i), a, ACTIONS));
    if (seen.has(a)) errs.push(duplicate(path.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid(path, goStringSlice('admissionregistration.ValidationAction', list), 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required(path, 'at least one validation action is required'));
  return errs;
}

function validateBinding(b: Obj): FieldError[] {
  const spec = obj(b.spec);
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  const policyName = str(spec.policyName);
  if (policyName === '') errs.push(required(path.child('policyName')));
  else for (const m of dns1123SubdomainErrors(policyName)) errs.push(invalid(path.child('policyName'), policyName, m));
  if (isObj(spec.paramRef)) {
    const name = str(spec.paramRef.name);
    for (const m of pathSegmentNameErrors(name, false)) errs.push(invalid(path.child('paramRef').child('name'), name, m));
  }
  // kube's path is spelled so in v1.27
  if (isObj(spec.matchResources)) errs.push(...validateMatchResources(spec.matchResources, path.child('matchResouces')));
  errs.push(...validateValidationActions(arr(spec.validationActions).map(str), path.child('validationActions')));
  return errs;
}

/** Whether an update may skip matchConditions: they and the paramKind are as before. */
const unchangedMatchConditions = (p: Obj, old: Obj) =>
  semanticEqual(obj(p.spec).paramKind, obj(old.spec).paramKind) && semanticEqual(obj(p.spec).matchConditions, obj(old.spec).matchConditions);

export function admissionregistrationV1alpha1Validators(engine?: AdmissionCelEngine): Record<string, KindValidator> {
  const check = expressionCheck(engine);
  return {
    ValidatingAdmissionPolicy: {
      validate: (p) => validatePolicy(p, check, false),
      validateUpdate: (p, old, subresource) => (subresource === 'status' ? [] : validatePolicy(p, check, unchangedMatchConditions(p, old))),
    },
    ValidatingAdmissionPolicyBinding: { validate: validateBinding, validateUpdate: (b) => validateBinding(b) },
  };
}
