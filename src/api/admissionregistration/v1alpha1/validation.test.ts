// ValidatingAdmissionPolicy and its binding (v1alpha1): kube v1.27's field errors,
// expressions compiled through a table-driven test engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../meta/govalue.js';
import { TestEngine } from '../../../admission/matchconditions/testengine.js';
import { admissionregistrationV1alpha1Validators } from './validation.js';
import { admissionregistrationValidators } from '../v1/validation.js';

type O = { [k: string]: unknown };
const engine = new TestEngine({
  'true': { type: 'bool', fn: () => true },
  "'a message'": { type: 'string', fn: () => 'a message' },
  'object.metadata.name': { type: 'dyn', fn: () => 'x' },
  'params.max > 1': { type: 'bool', fn: () => true },
  'null': { type: 'null_type', fn: () => null },
});
const v = admissionregistrationV1alpha1Validators(engine);
const RULES = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }];
const MATCH = { resourceRules: RULES, namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' };
const policy = (spec: O = {}, name = 'p'): O => ({ metadata: { name }, spec: { failurePolicy: 'Fail', matchConstraints: MATCH, validations: [{ expression: 'true' }], ...spec } });
const binding = (spec: O = {}): O => ({ metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'], ...spec } });
const COMPILE = "compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope'\n | nope\n | ^";

describe('ValidatingAdmissionPolicy validation', () => {
  const rows: [string, O, string[]][] = [
    ['valid', policy(), []],
    ['failurePolicy values', policy({ failurePolicy: 'Sometimes' }), ['spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"']],
    ['matchConstraints required', policy({ matchConstraints: undefined }), ['spec.matchConstraints: Required value']],
    ['resourceRules required', policy({ matchConstraints: { ...MATCH, resourceRules: [] } }), ['spec.matchConstraints.resourceRules: Required value']],
    ['matchPolicy values', policy({ matchConstraints: { ...MATCH, matchPolicy: 'Loose' } }), ['spec.matchConstraints.matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"']],
    ['resourceNames: path segments, unique', policy({ matchConstraints: { ...MATCH, excludeResourceRules: [{ ...RULES[0], resourceNames: ['a/b', 'c', 'c'] }] } }), [
      "spec.matchConstraints.excludeResourceRules[0].resourceNames[0]: Invalid value: \"a/b\": may not contain '/'",
      'spec.matchConstraints.excludeResourceRules[0].resourceNames[2]: Duplicate value: "c"',
    ]],
    ['validations or auditAnnotations', policy({ validations: [] }), [
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ]],
    ['an expression that does not compile', policy({ validations: [{ expression: 'nope' }] }), [`spec.validations[0].expression: Invalid value: "nope": ${COMPILE}`]],
    ['an expression that is not boolean', policy({ validations: [{ expression: 'object.metadata.name' }] }), ['spec.validations[0].expression: Invalid value: "object.metadata.name": must evaluate to bool']],
    ['a blank expression', policy({ validations: [{ expression: '  ' }] }), ['spec.validations[0].expression: Required value: expression is not specified']],
    ['messageExpression must be a string', policy({ validations: [{ expression: 'true', messageExpression: 'true' }] }), ['spec.validations[0].messageExpression: Invalid value: "true": must evaluate to string']],
    ['a blank messageExpression', policy({ validations: [{ expression: 'true', messageExpression: ' ' }] }), ['spec.validations[0].messageExpression: Invalid value: " ": must be non-empty if specified']],
    ['message without line breaks', policy({ validations: [{ expression: 'true', message: 'a\nb' }] }), ['spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks']],
    ['reason values', policy({ validations: [{ expression: 'true', reason: 'Conflict' }] }), ['spec.validations[0].reason: Unsupported value: "Conflict": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"']],
    ['params only with a paramKind', policy({ validations: [{ expression: 'params.max > 1' }], paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), []],
    ['paramKind apiVersion and kind', policy({ paramKind: { apiVersion: 'a/b/c', kind: '' } }), ['spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c', 'spec.paramKind.kind: Required value']],
    ['matchConditions: names and expressions', policy({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: 'nope' }, { name: '', expression: '' }] }), [
      `spec.matchConditions[1].expression: Invalid value: "nope": ${COMPILE}`, 'spec.matchConditions[1].name: Duplicate value: "a"',
      'spec.matchConditions[2].expression: Required value', 'spec.matchConditions[2].name: Required value',
    ]],
    ['auditAnnotations: keys, value types', policy({ validations: [], auditAnnotations: [{ key: 'k', valueExpression: "'a message'" }, { key: 'k', valueExpression: 'null' }, { key: 'bad key', valueExpression: 'true' }] }), [
      'spec.auditAnnotations[1].key: Duplicate value: "k"',
      "spec.auditAnnotations[2].key: Invalid value: \"p/bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.auditAnnotations[2].valueExpression: Invalid value: "true": must evaluate to one of [string null_type]',
    ]],
  ];
  for (const [name, o, want] of rows) it(name, () => assert.deepEqual(v.ValidatingAdmissionPolicy!.validate(o).map(renderCause), want));

  it('messageExpression compiles without the authorizer; validations and matchConditions with it; params declared with a paramKind', () => {
    const e = new TestEngine({ 'true': { type: 'bool', fn: () => true }, "'a message'": { type: 'string', fn: () => '' } });
    admissionregistrationV1alpha1Validators(e).ValidatingAdmissionPolicy!.validate(policy({
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConditions: [{ name: 'c', expression: 'true' }], validations: [{ expression: 'true', messageExpression: "'a message'" }],
    }));
    assert.deepEqual(e.compiled, [
      { expression: 'true', hasParams: true, hasAuthorizer: true },
      { expression: 'true', hasParams: true, hasAuthorizer: true },
      { expression: "'a message'", hasParams: true, hasAuthorizer: false },
    ]);
  });
  it('an update leaves unchanged matchConditions unchecked', () => {
    const old = policy({ matchConditions: [{ name: 'c', expression: 'nope' }] });
    assert.deepEqual(v.ValidatingAdmissionPolicy!.validateUpdate(old, old).map(renderCause), []);
    assert.equal(v.ValidatingAdmissionPolicy!.validateUpdate(policy({ matchConditions: [{ name: 'd', expression: 'nope' }] }), old).length, 1);
  });
});

describe('ValidatingAdmissionPolicyBinding validation', () => {
  const rows: [string, O, string[]][] = [
    ['valid', binding(), []],
    ['policyName required', binding({ policyName: '' }), ['spec.policyName: Required value']],
    ['validationActions required', binding({ validationActions: [] }), ['spec.validationActions: Required value: at least one validation action is required']],
    ['validationActions values, duplicates, Deny with Warn', binding({ validationActions: ['Deny', 'Warn', 'Warn', 'Log'] }), [
      'spec.validationActions[2]: Duplicate value: "Warn"',
      'spec.validationActions[3]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn", "Warn", "Log"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]],
    ['matchResources (kube spells the path matchResouces)', binding({ matchResources: { namespaceSelector: {}, objectSelector: {} } }), ['spec.matchResouces.matchPolicy: Required value']],
    ['paramRef name', binding({ paramRef: { name: 'a/b' } }), ["spec.paramRef.name: Invalid value: \"a/b\": may not contain '/'"]],
  ];
  for (const [name, o, want] of rows) it(name, () => assert.deepEqual(v.ValidatingAdmissionPolicyBinding!.validate(o).map(renderCause), want));
});

describe('webhook matchConditions validation (v1)', () => {
  const w = admissionregistrationValidators(engine);
  const hook = (matchConditions: O[]): O => ({
    metadata: { name: 'c' },
    webhooks: [{
      name: 'check.example.com', clientConfig: { url: 'https://example.com/x' }, rules: RULES, failurePolicy: 'Fail', matchPolicy: 'Equivalent',
      sideEffects: 'None', timeoutSeconds: 10, admissionReviewVersions: ['v1'], matchConditions,
    }],
  });
  it('compiled without params, with the authorizer; unchanged ones not checked on update', () => {
    const e = new TestEngine({ 'true': { type: 'bool', fn: () => true } });
    assert.deepEqual(admissionregistrationValidators(e).ValidatingWebhookConfiguration!.validate(hook([{ name: 'b', expression: 'true' }])).map(renderCause), []);
    assert.deepEqual(e.compiled, [{ expression: 'true', hasParams: false, hasAuthorizer: true }]);
    const bad = hook([{ name: 'a', expression: 'nope' }]);
    assert.deepEqual(w.MutatingWebhookConfiguration!.validate(bad).map(renderCause), [`webhooks[0].matchConditions[0].expression: Invalid value: "nope": ${COMPILE}`]);
    assert.deepEqual(w.MutatingWebhookConfiguration!.validateUpdate(bad, bad).map(renderCause), []);
  });
});
