// The ValidatingAdmissionPolicy plugin over policies and bindings as stored,
// with a table-driven expression engine (../../matchconditions/testengine.ts):
// which requests a policy and binding apply to, kube's decisions, messages,
// codes, warnings and audit annotations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdmissionAttributes } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { alwaysAllow } from '../../../authz/authorizer.js';
import { FeatureGates } from '../../../features/gates.js';
import { servedResources } from '../../../server/served.js';
import { newNotFound, type Status } from '../../../api/meta/index.js';
import { EquivalentResources } from '../../webhooks/equivalence.js';
import { TestEngine } from '../../matchconditions/testengine.js';
import { outcome } from '../testutil.js';
import { PolicySource } from './source.js';
import { validatingAdmissionPolicyPlugin } from './index.js';
import { VALIDATION_FAILURE_KEY } from './annotations.js';

type Obj = Record<string, unknown>;
const data = (v: { object: unknown }) => ((v.object as Obj | null)?.data ?? {}) as Obj;
const engine = new TestEngine({
  'size(object.data) <= 2': { type: 'bool', fn: (v) => Object.keys(data(v)).length <= 2 },
  "object.metadata.name != 'bad'": { type: 'bool', fn: (v) => ((v.object as Obj).metadata as Obj).name !== 'bad' },
  'object.data.missing == 1': { type: 'bool', fn: () => { throw 'no such key: missing'; } },
  "'x' in object.data": { type: 'bool', fn: (v) => 'x' in data(v) },
  'size(object.data) <= params.data.max': { type: 'bool', fn: (v) => Object.keys(data(v)).length <= Number(((v.params as Obj).data as Obj).max) },
  "'too many: ' + string(size(object.data))": { type: 'string', fn: (v) => `too many: ${Object.keys(data(v)).length}` },
  "'  '": { type: 'string', fn: () => '  ' },
  "'a\\nb'": { type: 'string', fn: () => 'a\nb' },
  "'x'.repeat(6000)": { type: 'string', fn: () => 'x'.repeat(6000) },
  "object.data.missing + ''": { type: 'string', fn: () => { throw 'no such key: missing'; } },
  'request.userInfo.username': { type: 'string', fn: (v) => (v.request as { userInfo: { username: string } }).userInfo.username },
  'null': { type: 'null_type', fn: () => null },
  'object.kind': { type: 'string', fn: (v) => (v.object as Obj).kind },
  "request.operation == 'CREATE'": { type: 'bool', fn: (v) => (v.request as Obj).operation === 'CREATE' },
  "has(object.metadata.labels) && 'skip' in object.metadata.labels": { type: 'bool', fn: (v) => 'skip' in (((v.object as Obj).metadata as Obj).labels as Obj ?? {}) },
});

const rules = (resources: string[], operations = ['CREATE', 'UPDATE']) => [{ apiGroups: [''], apiVersions: ['v1'], operations, resources, scope: '*' }];
const policy = (name: string, spec: Obj, rv = '1'): ApiObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicy', metadata: { name, uid: `uid-${name}`, resourceVersion: rv },
  spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: rules(['configmaps']), namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' }, ...spec },
} as ApiObject);
const binding = (name: string, policyName: string, spec: Obj = {}): ApiObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name, uid: `uid-b-${name}`, resourceVersion: '1' },
  spec: { policyName, validationActions: ['Deny'], ...spec },
} as ApiObject);
const configMap = (name: string, d: Obj, labels?: Obj): ApiObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', ...(labels ? { labels } : {}) }, data: d } as ApiObject);

interface Recorded { warnings: string[]; annotations: Record<string, string> }
function request(object: ApiObject, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes & { rec: Recorded } {
  const rec: Recorded = { warnings: [], annotations: {} };
  return {
    operation: 'CREATE', object, oldObject: undefined, namespace: 'ns', name: object.metadata.name ?? '', namespaced: true, dryRun: false,
    resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, user: { name: 'alice', groups: ['devs'] },
    warn: (t) => rec.warnings.push(t), annotate: (k, v) => { rec.annotations[k] = v; }, rec, ...extra,
  };
}

const served = servedResources({ 'admissionregistration.svc.io/v1alpha1': true });
function plugin(policies: ApiObject[], bindings: ApiObject[], opts: { gate?: boolean; params?: Record<string, ApiObject>; nsLabels?: Record<string, Record<string, string>> } = {}) {
  return validatingAdmissionPolicyPlugin({
    source: new PolicySource(async () => policies, async () => bindings, engine),
    gates: FeatureGates.parse(opts.gate === false ? '' : 'ValidatingAdmissionPolicy=true'),
    authorizer: alwaysAllow,
    namespaceLabels: async (ns) => {
      const l = (opts.nsLabels ?? { ns: { team: 'a' } })[ns];
      if (!l) throw newNotFound({ group: '', resource: 'namespaces' }, ns);
      return l;
    },
    equivalents: new EquivalentResources(served),
    resources: () => served,
    readParam: async (r, ref) => {
      const p = opts.params?.[`${r.resource}/${ref.namespace}/${ref.name}`];
      if (!p) throw newNotFound({ group: r.group, resource: r.resource }, ref.name);
      return p as unknown as Obj;
    },
  });
}

const denial = (code: number, reason: string, name: string, message: string): Partial<Status> => ({
  code, reason, message: `configmaps "${name}" is forbidden: ${message}`, details: { name, kind: 'configmaps', causes: [{ message }] },
});
const pick = (s: Status | undefined) => s && { code: s.code, reason: s.reason, message: s.message, details: s.details };

const KEYS = { validations: [{ expression: 'size(object.data) <= 2', message: 'at most 2 keys' }] };
const three = { a: '1', b: '2', c: '3' };

const rows: [name: string, policies: ApiObject[], bindings: ApiObject[], req: ReturnType<typeof request>, want: Partial<Status> | undefined, opts?: Parameters<typeof plugin>[2]][] = [
  ['no binding: no effect', [policy('p', KEYS)], [], request(configMap('c', three)), undefined],
  ['a denial: 422 Invalid with the message and one cause', [policy('p', KEYS)], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 2 keys")],
  ['allowed', [policy('p', KEYS)], [binding('b', 'p')], request(configMap('c', { a: '1' })), undefined],
  ['the gate off: no effect', [policy('p', KEYS)], [binding('b', 'p')], request(configMap('c', three)), undefined, { gate: false }],
  ['reason Forbidden: 403', [policy('p', { validations: [{ expression: "object.metadata.name != 'bad'", reason: 'Forbidden' }] })], [binding('b', 'p')], request(configMap('bad', {})),
    denial(403, 'Forbidden', 'bad', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: object.metadata.name != 'bad'")],
  ['reason RequestEntityTooLarge: 413', [policy('p', { validations: [{ expression: "object.metadata.name != 'bad'", reason: 'RequestEntityTooLarge', message: 'm' }] })], [binding('b', 'p')], request(configMap('bad', {})),
    denial(413, 'RequestEntityTooLarge', 'bad', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: m")],
  ['reason Unauthorized: 401', [policy('p', { validations: [{ expression: "object.metadata.name != 'bad'", reason: 'Unauthorized', message: 'm' }] })], [binding('b', 'p')], request(configMap('bad', {})),
    denial(401, 'Unauthorized', 'bad', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: m")],
  ['the first failing validation answers', [policy('p', { validations: [{ expression: "object.metadata.name != 'bad'", reason: 'Forbidden', message: 'name' }, ...KEYS.validations] })], [binding('b', 'p')], request(configMap('bad', three)),
    denial(403, 'Forbidden', 'bad', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: name")],
  ['messageExpression wins over message', [policy('p', { validations: [{ ...KEYS.validations[0], messageExpression: "'too many: ' + string(size(object.data))" }] })], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: too many: 3")],
  ['a blank messageExpression result falls back to message', [policy('p', { validations: [{ ...KEYS.validations[0], messageExpression: "'  '" }] })], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 2 keys")],
  ['a multi-line messageExpression result falls back to message', [policy('p', { validations: [{ ...KEYS.validations[0], messageExpression: "'a\\nb'" }] })], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 2 keys")],
  ['a messageExpression result over 5 KiB falls back to the expression', [policy('p', { validations: [{ expression: 'size(object.data) <= 2', messageExpression: "'x'.repeat(6000)" }] })], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: size(object.data) <= 2")],
  ['a failing messageExpression falls back to message', [policy('p', { validations: [{ ...KEYS.validations[0], messageExpression: "object.data.missing + ''" }] })], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 2 keys")],
  ['a runtime error under Fail', [policy('p', { validations: [{ expression: 'object.data.missing == 1', message: 'never' }] })], [binding('b', 'p')], request(configMap('c', {})),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.data.missing == 1' resulted in error: no such key: missing")],
  ['a runtime error under Ignore', [policy('p', { failurePolicy: 'Ignore', validations: [{ expression: 'object.data.missing == 1' }] })], [binding('b', 'p')], request(configMap('c', {})), undefined],
  ['a compile error under Fail', [policy('p', { validations: [{ expression: 'nope' }] })], [binding('b', 'p')], request(configMap('c', {})),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope'\n | nope\n | ^")],
  ['an operation the rules leave out', [policy('p', { ...KEYS, matchConstraints: { resourceRules: rules(['configmaps'], ['UPDATE']), namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' } })], [binding('b', 'p')], request(configMap('c', three)), undefined],
  ['another resource', [policy('p', KEYS)], [binding('b', 'p')], request(configMap('c', three), { resource: { group: '', version: 'v1', resource: 'secrets', kind: 'Secret' } }), undefined],
  ['an excluded name', [policy('p', { ...KEYS, matchConstraints: { resourceRules: rules(['configmaps']), excludeResourceRules: [{ ...rules(['configmaps'])[0], resourceNames: ['c'] }], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' } })], [binding('b', 'p')], request(configMap('c', three)), undefined],
  ['resourceNames limit the rule', [policy('p', { ...KEYS, matchConstraints: { resourceRules: [{ ...rules(['configmaps'])[0], resourceNames: ['other'] }], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' } })], [binding('b', 'p')], request(configMap('c', three)), undefined],
  ['the binding\'s namespaceSelector leaves the namespace out', [policy('p', KEYS)], [binding('b', 'p', { matchResources: { namespaceSelector: { matchLabels: { team: 'b' } }, objectSelector: {}, matchPolicy: 'Equivalent' } })], request(configMap('c', three)), undefined],
  ['the binding\'s namespaceSelector takes it in', [policy('p', KEYS)], [binding('b', 'p', { matchResources: { namespaceSelector: { matchLabels: { team: 'a' } }, objectSelector: {}, matchPolicy: 'Equivalent' } })], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 2 keys")],
  ['the policy\'s objectSelector', [policy('p', { ...KEYS, matchConstraints: { resourceRules: rules(['configmaps']), namespaceSelector: {}, objectSelector: { matchLabels: { checked: 'yes' } }, matchPolicy: 'Equivalent' } })], [binding('b', 'p')], request(configMap('c', three)), undefined],
  ['a missing namespace is the policy\'s configuration error', [policy('p', { ...KEYS, matchConstraints: { resourceRules: rules(['configmaps']), namespaceSelector: { matchLabels: { team: 'a' } }, objectSelector: {}, matchPolicy: 'Equivalent' } })], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: namespaces \"ns\" not found"), { nsLabels: {} }],
  ['matchConditions false: skipped', [policy('p', { ...KEYS, matchConditions: [{ name: 'no-skip', expression: "has(object.metadata.labels) && 'skip' in object.metadata.labels" }] })], [binding('b', 'p')], request(configMap('c', three)), undefined],
  ['matchConditions true: evaluated', [policy('p', { ...KEYS, matchConditions: [{ name: 'create', expression: "request.operation == 'CREATE'" }] })], [binding('b', 'p')], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 2 keys")],
  ['params: the binding\'s param decides', [policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'size(object.data) <= params.data.max' }] })],
    [binding('b', 'p', { paramRef: { name: 'limits', namespace: 'ns' } })], request(configMap('c', three)),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: size(object.data) <= params.data.max"),
    { params: { 'configmaps/ns/limits': configMap('limits', { max: '2' }) } }],
  ['params: a missing param under Fail', [policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'size(object.data) <= params.data.max' }] })],
    [binding('b', 'p', { paramRef: { name: 'limits', namespace: 'ns' } })], request(configMap('c', {})),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: configmaps \"limits\" not found")],
  ['params: a missing param under Ignore', [policy('p', { failurePolicy: 'Ignore', paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'size(object.data) <= params.data.max' }] })],
    [binding('b', 'p', { paramRef: { name: 'limits', namespace: 'ns' } })], request(configMap('c', {})), undefined],
  ['a paramKind nothing serves', [policy('p', { paramKind: { apiVersion: 'example.com/v1', kind: 'Limits' }, ...KEYS })], [binding('b', 'p')], request(configMap('c', {})),
    denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limits'")],
  ['writes of policies themselves are exempt', [policy('p', { ...KEYS, matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'], scope: '*' }], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' } })],
    [binding('b', 'p')], request(configMap('c', three), { resource: { group: 'admissionregistration.svc.io', version: 'v1alpha1', resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy' }, namespace: '' }), undefined],
  ['two policies: the first by name answers', [policy('z', KEYS), policy('a', { validations: [{ expression: "object.metadata.name != 'bad'", message: 'from a' }] })], [binding('bz', 'z'), binding('ba', 'a')], request(configMap('bad', three)),
    denial(422, 'Invalid', 'bad', "ValidatingAdmissionPolicy 'a' with binding 'ba' denied request: from a")],
];

describe('ValidatingAdmissionPolicy plugin', () => {
  for (const [name, policies, bindings, req, want, opts] of rows) {
    it(name, async () => {
      const p = plugin(policies, bindings, opts);
      assert.deepEqual(pick(await outcome(() => p.admit(req))), want);
    });
  }

  it('Warn: a warning, and the request proceeds', async () => {
    const req = request(configMap('c', three));
    await plugin([policy('p', KEYS)], [binding('b', 'p', { validationActions: ['Warn'] })]).admit(req);
    assert.deepEqual(req.rec.warnings, ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': at most 2 keys"]);
  });

  it('Audit: the validation_failure annotation, and the request proceeds', async () => {
    const req = request(configMap('c', three));
    await plugin([policy('p', { validations: [{ expression: "object.metadata.name != 'bad'" }, ...KEYS.validations] })], [binding('b', 'p', { validationActions: ['Audit', 'Warn'] })]).admit(req);
    assert.deepEqual(req.rec.annotations, {
      [VALIDATION_FAILURE_KEY]: '[{"message":"at most 2 keys","policy":"p","binding":"b","expressionIndex":1,"validationActions":["Audit","Warn"]}]',
    });
    assert.equal(req.rec.warnings.length, 1);
  });

  it('auditAnnotations: <policy>/<key>, values of several bindings joined, null and blank left out', async () => {
    const req = request(configMap('c', {}));
    const p = policy('p', { auditAnnotations: [{ key: 'user', valueExpression: 'request.userInfo.username' }, { key: 'kind', valueExpression: 'object.kind' }, { key: 'none', valueExpression: 'null' }, { key: 'blank', valueExpression: "'  '" }] });
    await plugin([p], [binding('b1', 'p'), binding('b2', 'p')]).admit(req);
    assert.deepEqual(req.rec.annotations, { 'p/user': 'alice', 'p/kind': 'ConfigMap' });
  });

  it('an authorizer check that waits: evaluated again once decided, the request variable and decisions kept', async () => {
    const e = new TestEngine({ 'authorizer.allowed': { type: 'bool', fn: () => false, waitsOnce: true } });
    const p = validatingAdmissionPolicyPlugin({
      source: new PolicySource(async () => [policy('p', { validations: [{ expression: 'authorizer.allowed', message: 'not allowed' }] })], async () => [binding('b', 'p')], e),
      gates: FeatureGates.parse('ValidatingAdmissionPolicy=true'), authorizer: alwaysAllow, namespaceLabels: async () => ({}),
      equivalents: new EquivalentResources(served), resources: () => served, readParam: async () => ({}),
    });
    assert.deepEqual(pick(await outcome(() => p.admit(request(configMap('c', {}))))), denial(422, 'Invalid', 'c', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: not allowed"));
    assert.equal(e.pendings, 1);
  });

  it('a policy is compiled once per stored version', async () => {
    const e = new TestEngine({ 'size(object.data) <= 2': { type: 'bool', fn: () => true } });
    let list = [policy('p', KEYS, '1')];
    const source = new PolicySource(async () => list, async () => [], e);
    await source.load();
    list = [...list];
    await source.load();
    assert.equal(e.compiled.length, 1);
    list = [policy('p', KEYS, '2')];
    await source.load();
    assert.equal(e.compiled.length, 2);
  });
});
