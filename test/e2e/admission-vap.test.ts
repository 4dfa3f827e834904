// ValidatingAdmissionPolicy end to end (issue 22), on SQLite and etcd: the
// gate on and admissionregistration.k8s.io/v1alpha1 enabled, policies and
// bindings written through the API and applied to the next request;
// denials with kube's texts and codes, messageExpression, Warn and Audit
// actions, params from a ConfigMap, matchConditions, failurePolicy, the
// authorizer variable, registration-time compile errors, status.typeChecking;
// webhook matchConditions against a real callback server; kubectl.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { FeatureGates } from '../../src/features/gates.js';
import { pathOf, reviewOf, startCallbackServer, type CallbackServer } from '../../src/testing/webhookserver.js';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';

const NS = 'vap';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const POLICIES = '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicies';
const BINDINGS = '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicybindings';
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';

type Obj = Record<string, unknown>;
const rules = (resources: string[], operations = ['CREATE', 'UPDATE']) => [{ apiGroups: [''], apiVersions: ['v1'], operations, resources }];
const policy = (name: string, spec: Obj) => ({ apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: { resourceRules: rules(['configmaps']) }, ...spec } });
const binding = (name: string, spec: Obj) => ({ apiVersion: 'admissionregistration.k8s.io/v1alpha1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name, validationActions: ['Deny'], ...spec } });
/** Binds to objects labelled case=<name> in NS (its name label in the svc.io spelling), so the cases stay apart. */
const only = (name: string) => ({ matchResources: { namespaceSelector: { matchLabels: { 'svc.io/metadata.name': NS } }, objectSelector: { matchLabels: { case: name } } } });
const cm = (name: string, data: Obj, labels: Obj = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });
const forbidden = (name: string, policyName: string, message: string) => `configmaps "${name}" is forbidden: ValidatingAdmissionPolicy '${policyName}' with binding '${policyName}' denied request: ${message}`;

for (const backend of BACKENDS) {
  describe(`ValidatingAdmissionPolicy (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    let hooks: CallbackServer;
    const put = async (path: string, body: Obj) => {
      const r = await t.req('POST', path, body);
      assert.equal(r.status, 201, r.text);
      return r.body as Obj;
    };
    /** Creates the policy and binding, then waits until a request sees them. */
    const install = async (name: string, spec: Obj, bindingSpec: Obj, probe: () => Promise<boolean>) => {
      await put(POLICIES, policy(name, spec));
      await put(BINDINGS, binding(name, { ...only(name), ...bindingSpec }));
      await eventually(probe);
    };

    before(async () => {
      hooks = await startCallbackServer({
        handle: (r) => {
          const review = reviewOf(r);
          const allowed = pathOf(r) !== '/deny';
          return { body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed, ...(allowed ? {} : { status: { message: 'denied by the hook' } }) } }) };
        },
      });
      t = await backend.start({
        featureGates: FeatureGates.parse('ValidatingAdmissionPolicy=true,AdmissionWebhookMatchConditions=true'),
        runtimeConfig: { 'admissionregistration.svc.io/v1alpha1': true },
      });
      await put('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    });
    after(async () => {
      await t?.stop();
      await hooks?.close();
    });

    it('denies with the validation\'s message, reason and code; allows what passes', async () => {
      await install('keys', { validations: [{ expression: 'size(object.data) <= 2', message: 'at most 2 keys' }, { expression: "object.metadata.name != 'bad'", reason: 'Forbidden' }] }, {},
        async () => (await t.req('POST', CM, cm('k1', { a: '1', b: '2', c: '3' }, { case: 'keys' }))).status === 422);
      const r = await t.req('POST', CM, cm('k2', { a: '1', b: '2', c: '3' }, { case: 'keys' }));
      assert.equal(r.status, 422);
      assert.deepEqual(r.body, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: forbidden('k2', 'keys', 'at most 2 keys'), reason: 'Invalid',
        details: { name: 'k2', kind: 'configmaps', causes: [{ message: `ValidatingAdmissionPolicy 'keys' with binding 'keys' denied request: at most 2 keys` }] }, code: 422,
      });
      const bad = await t.req('POST', CM, cm('bad', { k: 'v' }, { case: 'keys' }));
      assert.equal(bad.status, 403, bad.text);
      assert.equal((bad.body as Obj).message, forbidden('bad', 'keys', "failed expression: object.metadata.name != 'bad'"));
      assert.equal((await t.req('POST', CM, cm('fine', { a: '1' }, { case: 'keys' }))).status, 201);
      assert.equal((await t.req('POST', `${CM}?dryRun=All`, cm('k3', { a: '1', b: '2', c: '3' }, { case: 'keys' }))).status, 422);
      // another case label: the binding does not apply
      assert.equal((await t.req('POST', CM, cm('k4', { a: '1', b: '2', c: '3' }, { case: 'other' }))).status, 201);
    });

    it('messageExpression, params from a ConfigMap, matchConditions', async () => {
      await put(CM, cm('limits', { max: '1' }));
      await install('params', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConditions: [{ name: 'not-exempt', expression: "!('exempt' in object.metadata.labels)" }],
        validations: [{ expression: 'size(object.data) <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' keys, got ' + string(size(object.data))" }],
      }, { paramRef: { name: 'limits', namespace: NS } }, async () => (await t.req('POST', CM, cm('p1', { a: '1', b: '2' }, { case: 'params' }))).status === 422);
      const r = await t.req('POST', CM, cm('p2', { a: '1', b: '2' }, { case: 'params' }));
      assert.equal((r.body as Obj).message, forbidden('p2', 'params', 'at most 1 keys, got 2'));
      assert.equal((await t.req('POST', CM, cm('p3', { a: '1', b: '2' }, { case: 'params', exempt: 'yes' }))).status, 201);
    });

    it('a missing param and a runtime error answer per failurePolicy', async () => {
      await install('missing', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] }, { paramRef: { name: 'nothing', namespace: NS } },
        async () => (await t.req('POST', CM, cm('m1', {}, { case: 'missing' }))).status === 422);
      const r = await t.req('POST', CM, cm('m2', {}, { case: 'missing' }));
      assert.equal((r.body as Obj).message, `configmaps "m2" is forbidden: ValidatingAdmissionPolicy 'missing' with binding 'missing' denied request: failed to configure binding: configmaps "nothing" not found`);
      await install('ignored', { failurePolicy: 'Ignore', validations: [{ expression: "object.data.missing == 'x'" }] }, {}, async () => true);
      assert.equal((await t.req('POST', CM, cm('i1', {}, { case: 'ignored' }))).status, 201);
      await install('failing', { validations: [{ expression: "object.data.missing == 'x'" }] }, {}, async () => (await t.req('POST', CM, cm('f1', { k: 'v' }, { case: 'failing' }))).status === 422);
      const f = await t.req('POST', CM, cm('f2', { k: 'v' }, { case: 'failing' }));
      assert.equal((f.body as Obj).message, forbidden('f2', 'failing', "expression 'object.data.missing == 'x'' resulted in error: no such key: missing"));
    });

    it('Warn adds a warning header, Audit lets the request through', async () => {
      await install('warn', { validations: [{ expression: 'size(object.data) == 0', message: 'should be empty' }] }, { validationActions: ['Warn', 'Audit'] },
        async () => String((await t.req('POST', CM, cm('w1', { a: '1' }, { case: 'warn' }))).headers.warning ?? '').includes('should be empty'));
      const r = await t.req('POST', CM, cm('w2', { a: '1' }, { case: 'warn' }));
      assert.equal(r.status, 201);
      assert.equal(r.headers.warning, `299 - "Validation failed for ValidatingAdmissionPolicy 'warn' with binding 'warn': should be empty"`);
    });

    it('the authorizer variable asks the server\'s authorizer', async () => {
      await install('authz', { validations: [{ expression: "authorizer.group('').resource('secrets').namespace('vap').check('list').allowed()", message: 'needs to list secrets' }] }, {},
        async () => (await t.req('POST', CM, cm('a1', {}, { case: 'authz' }))).status === 201);
      // the admin (system:masters) may; an anonymous user is refused by RBAC before admission, so a user with only configmap rights is used
      const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'vap-cm' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }] };
      await put('/apis/rbac.authorization.k8s.io/v1/clusterroles', role);
      await put(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'vap-cm' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'vap-cm' }, subjects: [{ kind: 'User', name: 'carol', apiGroup: 'rbac.authorization.k8s.io' }] });
      let r: { body: unknown } | undefined;
      await eventually(async () => {
        const x = await t.req('POST', CM, cm('a2', {}, { case: 'authz' }), { headers: { 'Impersonate-User': 'carol' } });
        if (x.status === 422) r = x;
        return r !== undefined;
      });
      assert.equal((r!.body as Obj).message, forbidden('a2', 'authz', 'needs to list secrets'));
    });

    it('expressions must compile: kube\'s field errors', async () => {
      const r = await t.req('POST', POLICIES, policy('bad', { validations: [{ expression: 'object.metadata.name ==' }] }));
      assert.equal(r.status, 422);
      assert.equal((r.body as Obj).message, `ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad" is invalid: spec.validations[0].expression: Invalid value: "object.metadata.name ==": compilation failed: ERROR: <input>:1:24: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.metadata.name ==\n | .......................^`);
      const dyn = await t.req('POST', POLICIES, policy('dyn', { validations: [{ expression: 'object.metadata.name' }] }));
      assert.equal((dyn.body as Obj).message, 'ValidatingAdmissionPolicy.admissionregistration.k8s.io "dyn" is invalid: spec.validations[0].expression: Invalid value: "object.metadata.name": must evaluate to bool');
      const b = await t.req('POST', BINDINGS, { ...binding('nb', {}), spec: { policyName: 'nb' } });
      assert.equal((b.body as Obj).message, 'ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "nb" is invalid: spec.validationActions: Required value: at least one validation action is required');
    });

    it('status.typeChecking against the ConfigMap schema', async () => {
      await put(POLICIES, policy('typed', { validations: [{ expression: 'object.nope == 1' }, { expression: 'true' }] }));
      let status: Obj | undefined;
      await eventually(async () => {
        const g = await t.req('GET', `${POLICIES}/typed`);
        status = (g.body as Obj).status as Obj | undefined;
        return status?.observedGeneration === 1;
      });
      assert.deepEqual(status!.typeChecking, {
        expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: "/v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'nope'\n | object.nope == 1\n | ......^" }],
      });
    });

    it('webhook matchConditions decide whether the webhook is called', async () => {
      const hook = (name: string, matchConditions: Obj[], failurePolicy = 'Fail') => ({
        name: `${name}.example.com`, clientConfig: { url: `https://127.0.0.1:${hooks.port}/deny`, caBundle: hooks.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy,
        rules: rules(['configmaps'], ['CREATE']), objectSelector: { matchLabels: { case: name } }, matchConditions,
      });
      await put('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
        apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'mc' },
        webhooks: [hook('mc-named', [{ name: 'named', expression: "object.metadata.name.startsWith('x-')" }]), hook('mc-error', [{ name: 'err', expression: "object.data.missing == 'x'" }])],
      });
      await eventually(async () => (await t.req('POST', CM, cm('x-1', {}, { case: 'mc-named' }))).status === 400);
      assert.equal((await t.req('POST', CM, cm('y-1', {}, { case: 'mc-named' }))).status, 201);
      const e = await t.req('POST', CM, cm('e-1', { k: 'v' }, { case: 'mc-error' }));
      assert.equal(e.status, 403);
      assert.equal((e.body as Obj).message, `configmaps "e-1" is forbidden: expression 'object.data.missing == 'x'' resulted in error: no such key: missing`);
    });

    it('kubectl: create, get, and a denial', { skip: existsSync(KUBECTL) ? false : `${KUBECTL} is missing` }, async () => {
      const kubectl = (args: string[], input?: string) => new Promise<{ code: number; out: string; err: string }>((resolve) => {
        const c = execFile(KUBECTL, ['--kubeconfig', t.kubeconfig, ...args], (err, out, e) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out, err: e }));
        if (input !== undefined) c.stdin!.end(input);
      });
      const created = await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [policy('kc', { validations: [{ expression: "object.metadata.name != 'nope'", message: 'no nope' }] }), binding('kc', only('kc'))] }));
      assert.equal(created.code, 0, created.err);
      assert.match((await kubectl(['get', 'validatingadmissionpolicies'])).out, /^kc\s+1\s+<unset>\s+\d+s$/m);
      let denied: { code: number; out: string; err: string } | undefined;
      await eventually(async () => {
        denied = await kubectl(['-n', NS, 'apply', '--dry-run=server', '-f', '-'], JSON.stringify(cm('nope', { a: 'b' }, { case: 'kc' })));
        return denied.code !== 0;
      });
      // kubectl's rendering of a 422 whose one cause has no field (as against kube-apiserver)
      assert.equal(denied!.err.trim(), `The configmaps "nope" is invalid: : ValidatingAdmissionPolicy 'kc' with binding 'kc' denied request: no nope`);
    });
  });
}
