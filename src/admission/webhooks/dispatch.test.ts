import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { outcome } from '../plugins/testutil.js';
import { Admission, type AdmissionAttributes } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import type { ServedResource } from '../../registry/registry.js';
import { FeatureGates, DEFAULT_GATES } from '../../features/gates.js';
import { newNotFound } from '../../api/meta/index.js';
import type { ResourceRequestInfo } from '../../endpoints/requestinfo.js';
import type { CallbackCall, CallbackCaller } from './caller.js';
import { EquivalentResources } from './equivalence.js';
import { WebhookSource } from './source.js';
import { mutatingWebhookPlugin } from './mutating.js';
import type { LatencyTrackers } from '../../metrics/latencytrackers.js';
import { validatingWebhookPlugin } from './validating.js';
import type { DispatchDeps } from './dispatch.js';
import { WebhookConditions } from './conditions.js';
import { TestEngine } from '../matchconditions/testengine.js';
import { alwaysAllow } from '../../authz/authorizer.js';

type Obj = Record<string, unknown>;
type Handler = (request: Obj, review: Obj, call: CallbackCall) => unknown;

const served = (group: string, version: string, resource: string, kind: string, storageVersion: string, namespaced = true): ServedResource =>
  ({ group, version, resource, kind, namespaced, verbs: [], subresources: [], storageVersion });
const EQUIVALENTS = new EquivalentResources([
  served('', 'v1', 'configmaps', 'ConfigMap', 'v1'),
  served('', 'v1', 'namespaces', 'Namespace', 'v1', false),
  served('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'v2'),
  served('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'v2'),
  served('', 'v1', 'events', 'Event', 'v1'),
  { ...served('events.svc.io', 'v1', 'events', 'Event', 'v1'), sharesStorageWith: { group: '', resource: 'events', kind: 'Event' } },
]);

/** A fake transport: each webhook URL answers through a handler; every call recorded. */
function fakeCaller(handlers: Record<string, Handler>) {
  const calls: { url: string; review: Obj; call: CallbackCall }[] = [];
  const caller: CallbackCaller = {
    async call(c) {
      const review = JSON.parse(c.body) as Obj;
      calls.push({ url: c.config.url!, review, call: c });
      const answer = await handlers[c.config.url!]!(review.request as Obj, review, c);
      if (answer instanceof Error) throw answer;
      if (typeof answer === 'object' && answer !== null && 'status' in answer && 'raw' in answer) {
        const a = answer as { status: number; raw: string };
        return { status: a.status, body: Buffer.from(a.raw) };
      }
      return { status: 200, body: Buffer.from(JSON.stringify(answer)) };
    },
  };
  return { caller, calls };
}

const allow = (extra: Obj = {}): Handler => (request, review) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: request.uid, allowed: true, ...extra } });
const deny = (status?: Obj): Handler => (request, review) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: request.uid, allowed: false, ...(status ? { status } : {}) } });
const patching = (ops: unknown[]): Handler => allow({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

const hook = (name: string, extra: Obj = {}): Obj => ({
  name, clientConfig: { url: `https://hook/${name}` }, rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }],
  sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 5, ...extra,
});
const config = (kind: string, name: string, webhooks: Obj[]): ApiObject => ({ apiVersion: 'admissionregistration.svc.io/v1', kind, metadata: { name }, webhooks } as unknown as ApiObject);

const NAMESPACES: Record<string, Record<string, string>> = { ns: { team: 'a' }, other: {} };

function deps(kind: 'mutating' | 'validating', configs: ApiObject[], caller: CallbackCaller, gates = DEFAULT_GATES): DispatchDeps {
  return {
    source: new WebhookSource(async () => configs, kind), caller, gates, equivalents: EQUIVALENTS,
    namespaceLabels: async (n) => {
      const l = NAMESPACES[n];
      if (!l) throw newNotFound({ group: '', resource: 'namespaces' }, n);
      return l;
    },
  };
}

interface Recorded { attrs: AdmissionAttributes; warnings: string[]; annotations: Record<string, string> }
function attributes(init: Partial<AdmissionAttributes> & { object?: ApiObject }): Recorded {
  const warnings: string[] = [];
  const annotations: Record<string, string> = {};
  const attrs: AdmissionAttributes = {
    operation: 'CREATE', oldObject: undefined, resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
    namespace: 'ns', name: 'cm', namespaced: true, dryRun: false, user: { name: 'admin', groups: ['system:masters'] },
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    warn: (t) => warnings.push(t), annotate: (k, v) => { annotations[k] = v; },
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', labels: { app: 'x' } }, data: { k: 'v' } } as ApiObject,
    ...init,
  } as AdmissionAttributes;
  return { attrs, warnings, annotations };
}


describe('webhooks note their time in the request\'s latency trackers (the request SLI leaves it out)', () => {
  it('mutating ones add to mutatingWebhookMs, validating ones set validatingWebhookMs', async () => {
    const { caller } = fakeCaller({ 'https://m/': allow(), 'https://v/': allow() });
    const m = hook('m', { clientConfig: { url: 'https://m/' } });
    const v = hook('v', { clientConfig: { url: 'https://v/' } });
    const latency: LatencyTrackers = {};
    await mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [m])], caller)).admit(attributes({ latency }).attrs);
    assert.equal(typeof latency.mutatingWebhookMs, 'number');
    assert.equal(latency.validatingWebhookMs, undefined);
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [v])], caller)).admit(attributes({ latency }).attrs);
    assert.equal(typeof latency.validatingWebhookMs, 'number');
  });
});

describe('ValidatingAdmissionWebhook', () => {
  const denials: [string, Handler, number, string, string | undefined][] = [
    ['status code and message', deny({ code: 403, message: 'label deny=true is not allowed here' }), 403, 'admission webhook "v" denied the request: label deny=true is not allowed here', undefined],
    ['no status', deny(), 400, 'admission webhook "v" denied the request without explanation', undefined],
    ['a code below 400 raised to 400', deny({ code: 200, message: 'low' }), 400, 'admission webhook "v" denied the request: low', undefined],
    ['only a reason', deny({ code: 409, reason: 'Conflict' }), 409, 'admission webhook "v" denied the request: Conflict', 'Conflict'],
  ];
  for (const [name, handler, code, message, reason] of denials) {
    it(`denial: ${name}`, async () => {
      const { caller } = fakeCaller({ 'https://hook/v': handler });
      const s = await outcome(() => validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v')])], caller)).admit(attributes({}).attrs));
      assert.equal(s?.code, code);
      assert.equal(s?.message, message);
      assert.equal(s?.reason, reason);
    });
  }

  it('sends the review kube sends for a create (golden webhook-01 fields)', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v')])], caller)).admit(attributes({}).attrs);
    const r = calls[0]!.review;
    assert.equal(r.apiVersion, 'admission.k8s.io/v1');
    const req = r.request as Obj;
    assert.deepEqual(Object.keys(req), ['uid', 'kind', 'resource', 'requestKind', 'requestResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options']);
    assert.deepEqual(req.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(req.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' });
    assert.equal(req.oldObject, null);
    assert.equal(calls[0]!.call.timeoutMs, 5000);
    assert.equal(calls[0]!.call.key, 'c/v');
  });

  it('update, delete and connect reviews carry oldObject / null object / null options', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
    const everything = { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] };
    const p = validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', everything)])], caller));
    const old = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } } as ApiObject;
    await p.admit(attributes({ operation: 'UPDATE', oldObject: old }).attrs);
    await p.admit(attributes({ operation: 'DELETE', object: undefined, oldObject: old, options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' } }).attrs);
    await p.admit(attributes({
      operation: 'CONNECT', resource: { group: '', version: 'v1', resource: 'pods', kind: 'Pod' }, subresource: 'exec',
      object: { kind: 'PodExecOptions', apiVersion: 'v1', command: ['ls'] } as unknown as ApiObject,
    }).attrs);
    const [u, d, c] = calls.map((x) => x.review.request as Obj);
    assert.equal((u!.oldObject as Obj).kind, 'ConfigMap');
    assert.equal(d!.object, null);
    assert.deepEqual(d!.options, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
    assert.equal(c!.options, null);
    assert.equal(c!.subResource, 'exec');
    assert.deepEqual(c!.object, { kind: 'PodExecOptions', apiVersion: 'v1', command: ['ls'] });
  });

  const patchOptions = { kind: 'PatchOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], force: true, fieldManager: 'me', fieldValidation: 'Strict' };
  const patchCases: [string, 'CREATE' | 'UPDATE', string][] = [
    ['a patch is admitted as an update: UpdateOptions (golden webhook-01)', 'UPDATE', 'UpdateOptions'],
    ['an apply that creates is admitted as a create: CreateOptions', 'CREATE', 'CreateOptions'],
  ];
  for (const [name, operation, kind] of patchCases) {
    it(`${name}, without force`, async () => {
      const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
      const everything = { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] };
      const p = validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', everything)])], caller));
      const old = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } } as ApiObject;
      await p.admit(attributes({ operation, oldObject: operation === 'UPDATE' ? old : undefined, options: patchOptions }).attrs);
      assert.deepEqual((calls[0]!.review.request as Obj).options, { kind, apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'me', fieldValidation: 'Strict' });
    });
  }

  it('calls the webhooks in parallel', async () => {
    let release!: () => void;
    const both = new Promise<void>((r) => { release = r; });
    let arrived = 0;
    const waiting: Handler = async (req, review) => {
      if (++arrived === 2) release();
      await both; // resolves only once both calls are in flight
      return allow()(req, review, undefined as never);
    };
    const { caller } = fakeCaller({ 'https://hook/a': waiting, 'https://hook/b': waiting });
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('a'), hook('b')])], caller)).admit(attributes({}).attrs);
    assert.equal(arrived, 2);
  });

  it('the first denial by webhook order wins', async () => {
    const { caller } = fakeCaller({ 'https://hook/a': deny({ code: 403, message: 'first' }), 'https://hook/b': deny({ code: 403, message: 'second' }) });
    const s = await outcome(() => validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('a'), hook('b')])], caller)).admit(attributes({}).attrs));
    assert.equal(s?.message, 'admission webhook "a" denied the request: first');
  });

  it('warnings go to the response, auditAnnotations are recorded under the webhook name', async () => {
    const { caller } = fakeCaller({ 'https://hook/v': allow({ warnings: ['looked at it'], auditAnnotations: { seen: 'yes' } }) });
    const r = attributes({});
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v')])], caller)).admit(r.attrs);
    assert.deepEqual(r.warnings, ['looked at it']);
    assert.equal(r.annotations['v/seen'], 'yes');
  });

  const failures: [string, Handler, string][] = [
    ['a time-out', () => new Error('Post "https://hook/v?timeout=5s": context deadline exceeded'), 'failed to call webhook: Post "https://hook/v?timeout=5s": context deadline exceeded'],
    ['a refused connection', () => new Error('Post "https://hook/v?timeout=5s": dial tcp 127.0.0.1:1: connect: connection refused'), 'failed to call webhook: Post "https://hook/v?timeout=5s": dial tcp 127.0.0.1:1: connect: connection refused'],
    ['a 500 with a text body', () => ({ status: 500, raw: 'boom' }), 'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding'],
    ['a 404', () => ({ status: 404, raw: '' }), 'failed to call webhook: the server could not find the requested resource'],
    ['a body that is not JSON', () => ({ status: 200, raw: 'not json' }), 'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
    ['broken JSON', () => ({ status: 200, raw: '{"response": ' }), 'failed to call webhook: couldn\'t get version/kind; json parse error: unexpected end of JSON input'],
    ['a uid mismatch', (_r, review) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: 'x', allowed: true } }), 'received invalid webhook response: expected response.uid='],
    ['no type meta in v1', (r) => ({ response: { uid: r.uid, allowed: true } }), 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='],
  ];
  for (const [name, handler, reason] of failures) {
    it(`failurePolicy Fail on ${name}: 500 failed calling webhook`, async () => {
      const { caller } = fakeCaller({ 'https://hook/v': handler });
      const s = await outcome(() => validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v')])], caller)).admit(attributes({}).attrs));
      assert.equal(s?.code, 500);
      assert.equal(s?.reason, 'InternalError');
      assert.ok(s?.message?.startsWith(`Internal error occurred: failed calling webhook "v": ${reason}`), s?.message);
    });
    it(`failurePolicy Ignore on ${name}: admitted, failed-open annotation`, async () => {
      const { caller } = fakeCaller({ 'https://hook/v': handler });
      const r = attributes({});
      await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', { failurePolicy: 'Ignore' })])], caller)).admit(r.attrs);
      assert.equal(r.annotations['failed-open.validating.webhook.admission.k8s.io/round_0_index_0'], 'v');
    });
  }

  it('no usable review version fails per failurePolicy', async () => {
    const { caller, calls } = fakeCaller({});
    const s = await outcome(() => validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', { admissionReviewVersions: ['v2'] })])], caller)).admit(attributes({}).attrs));
    assert.equal(s?.code, 500);
    assert.match(s?.message ?? '', /webhook does not accept known AdmissionReview versions \(v1, v1beta1\)/);
    assert.equal(calls.length, 0);
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', { admissionReviewVersions: ['v2'], failurePolicy: 'Ignore' })])], caller)).admit(attributes({}).attrs);
  });

  it('v1beta1 when that is the first accepted version', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': (r) => ({ response: { uid: r.uid, allowed: true } }) });
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', { admissionReviewVersions: ['v1beta1', 'v1'] })])], caller)).admit(attributes({}).attrs);
    assert.equal(calls[0]!.review.apiVersion, 'admission.k8s.io/v1beta1');
  });

  const dryRuns: [string | undefined, boolean, 'called' | number][] = [
    ['None', true, 'called'], ['NoneOnDryRun', true, 'called'], ['Some', true, 400], ['Unknown', true, 400], [undefined, true, 500],
    ['Some', false, 'called'], ['Unknown', false, 'called'],
  ];
  for (const [sideEffects, dryRun, want] of dryRuns) {
    it(`sideEffects ${sideEffects ?? '(none)'} × dryRun ${dryRun}: ${want}`, async () => {
      const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
      const h = hook('v');
      if (sideEffects === undefined) delete h.sideEffects;
      else h.sideEffects = sideEffects;
      const s = await outcome(() => validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [h])], caller)).admit(attributes({ dryRun }).attrs));
      if (want === 'called') {
        assert.equal(s, undefined);
        assert.equal((calls[0]!.review.request as Obj).dryRun, dryRun);
      } else {
        assert.equal(s?.code, want);
        if (want === 400) assert.equal(s?.message, 'admission webhook "v" does not support dry run');
        assert.equal(calls.length, 0);
      }
    });
  }

  it('matchConditions with the gate on and no expression engine fail per failurePolicy; ignored with it off', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
    const h = hook('v', { matchConditions: [{ name: 'x', expression: 'true' }] });
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [h])], caller)).admit(attributes({}).attrs);
    assert.equal(calls.length, 1);
    const on = FeatureGates.parse('AdmissionWebhookMatchConditions=true');
    const s = await outcome(() => validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [h])], caller, on)).admit(attributes({}).attrs));
    assert.equal(s?.code, 500);
    assert.match(s?.message ?? '', /matchConditions cannot be evaluated/);
  });
});

describe('webhook matchConditions (AdmissionWebhookMatchConditions on)', () => {
  const engine = new TestEngine({
    "object.metadata.name == 'cm'": { type: 'bool', fn: (v) => ((v.object as Obj).metadata as Obj).name === 'cm' },
    "object.metadata.name == 'other'": { type: 'bool', fn: (v) => ((v.object as Obj).metadata as Obj).name === 'other' },
    "request.userInfo.username == 'admin'": { type: 'bool', fn: (v) => ((v.request as Obj).userInfo as Obj).username === 'admin' },
    "object.kind == 'ConfigMap' && object.apiVersion == 'v1'": { type: 'bool', fn: (v) => (v.object as Obj).kind === 'ConfigMap' && (v.object as Obj).apiVersion === 'v1' },
    'object.data.missing': { type: 'bool', fn: () => { throw 'no such key: missing'; } },
  });
  const on = FeatureGates.parse('AdmissionWebhookMatchConditions=true');
  const rows: [name: string, conditions: string[], failurePolicy: string, gates: FeatureGates, want: boolean | string][] = [
    ['all true: called', ["object.metadata.name == 'cm'", "request.userInfo.username == 'admin'"], 'Fail', on, true],
    ['the object in the webhook\'s version, with its kind', ["object.kind == 'ConfigMap' && object.apiVersion == 'v1'"], 'Fail', on, true],
    ['one false: skipped', ["request.userInfo.username == 'admin'", "object.metadata.name == 'other'"], 'Fail', on, false],
    ['an error under Fail: 403', ['object.data.missing'], 'Fail', on, `configmaps "cm" is forbidden: expression 'object.data.missing' resulted in error: no such key: missing`],
    ['an error under Ignore: skipped', ['object.data.missing'], 'Ignore', on, false],
    ['a compile error under Fail: 403', ['nope'], 'Fail', on, `configmaps "cm" is forbidden: compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope'\n | nope\n | ^`],
    ['the gate off: conditions ignored', ['object.data.missing'], 'Fail', DEFAULT_GATES, true],
  ];
  for (const kind of ['validating', 'mutating'] as const) {
    for (const [name, conditions, failurePolicy, gates, want] of rows) {
      it(`${kind}: ${name}`, async () => {
        const { caller, calls } = fakeCaller({ 'https://hook/h': allow() });
        const h = hook('h', { failurePolicy, matchConditions: conditions.map((expression, i) => ({ name: `c${i}`, expression })) });
        const d = { ...deps(kind, [config(kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration', 'c', [h])], caller, gates), conditions: new WebhookConditions(engine, alwaysAllow) };
        const plugin = kind === 'mutating' ? mutatingWebhookPlugin(d) : validatingWebhookPlugin(d);
        const s = await outcome(() => plugin.admit(attributes({ object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' } } as ApiObject }).attrs));
        if (typeof want === 'string') {
          assert.equal(s?.code, 403);
          assert.equal(s?.message, want);
          assert.equal(calls.length, 0);
        } else {
          assert.equal(s, undefined);
          assert.equal(calls.length, want ? 1 : 0);
        }
      });
    }
  }
});

describe('webhook selection', () => {
  const cases: [string, Obj, Partial<AdmissionAttributes>, boolean | number][] = [
    ['namespaceSelector matches the namespace labels', { namespaceSelector: { matchLabels: { team: 'a' } } }, {}, true],
    ['namespaceSelector does not match another namespace', { namespaceSelector: { matchLabels: { team: 'a' } } }, { namespace: 'other' }, false],
    ['namespaceSelector on a missing namespace: 404', { namespaceSelector: { matchLabels: { team: 'a' } } }, { namespace: 'gone' }, 404],
    ['namespaceSelector on a Namespace create reads the object', { namespaceSelector: { matchLabels: { team: 'b' } } },
      { resource: { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace' }, namespace: '', name: 'new', namespaced: false, object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'new', labels: { team: 'b' } } } as ApiObject }, true],
    ['namespaceSelector never excludes other cluster-scoped objects', { namespaceSelector: { matchLabels: { team: 'z' } } },
      { resource: { group: '', version: 'v1', resource: 'nodes', kind: 'Node' }, namespace: '', namespaced: false }, true],
    ['objectSelector matches the new object', { objectSelector: { matchLabels: { app: 'x' } } }, {}, true],
    ['objectSelector does not match', { objectSelector: { matchLabels: { app: 'y' } } }, {}, false],
    ['objectSelector matches the old object on delete', { objectSelector: { matchLabels: { app: 'old' } } },
      { operation: 'DELETE', object: undefined, oldObject: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { app: 'old' } } } as ApiObject }, true],
    ['rules: CREATE only, an update is not sent', { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] }, { operation: 'UPDATE' }, false],
    ['rules: configmaps only, secrets not sent', { rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
      { resource: { group: '', version: 'v1', resource: 'secrets', kind: 'Secret' } }, false],
  ];
  for (const [name, extra, init, want] of cases) {
    it(name, async () => {
      const { caller, calls } = fakeCaller({ 'https://hook/v': deny({ code: 403, message: 'no' }) });
      const s = await outcome(() => validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', extra)])], caller)).admit(attributes(init).attrs));
      if (typeof want === 'number') assert.equal(s?.code, want);
      else assert.equal(calls.length === 1, want);
    });
  }

  const hpaV2 = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'eq', namespace: 'ns' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, maxReplicas: 3, metrics: [] } } as unknown as ApiObject;
  const info: ResourceRequestInfo = { isResourceRequest: true, path: '', verb: 'create', apiPrefix: 'apis', apiGroup: 'autoscaling', apiVersion: 'v2', namespace: 'ns', resource: 'horizontalpodautoscalers', subresource: '', name: '', parts: [] };
  const v1Rule = { rules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }] };
  it('matchPolicy Equivalent: an autoscaling/v2 request reaches a v1 rule, converted to v1 (golden webhook-04)', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', v1Rule)])], caller))
      .admit(attributes({ resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' }, object: hpaV2, requestInfo: info, name: 'eq' }).attrs);
    const req = calls[0]!.review.request as Obj;
    assert.deepEqual(req.kind, { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
    assert.deepEqual(req.resource, { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' });
    assert.deepEqual(req.requestKind, { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
    const obj = req.object as Obj;
    assert.equal(obj.apiVersion, 'autoscaling/v1');
    assert.equal((obj.spec as Obj).maxReplicas, 3);
    assert.equal('metrics' in (obj.spec as Obj), false);
  });
  it('matchPolicy Equivalent: a core v1 Event reaches an events.k8s.io/v1 rule, converted (note, regarding)', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'p' }, message: 'hello', reason: 'R' } as unknown as ApiObject;
    const coreInfo: ResourceRequestInfo = { ...info, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', resource: 'events' };
    const rule = { rules: [{ operations: ['CREATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] }] };
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', rule)])], caller))
      .admit(attributes({ resource: { group: '', version: 'v1', resource: 'events', kind: 'Event' }, object: event, requestInfo: coreInfo, name: 'e' }).attrs);
    const req = calls[0]!.review.request as Obj;
    assert.deepEqual(req.resource, { group: 'events.k8s.io', version: 'v1', resource: 'events' });
    assert.deepEqual(req.requestResource, { group: '', version: 'v1', resource: 'events' });
    const obj = req.object as Obj;
    assert.equal(obj.apiVersion, 'events.k8s.io/v1');
    assert.equal(obj.note, 'hello');
    assert.deepEqual(obj.regarding, { kind: 'Pod', name: 'p' });
  });
  it('matchPolicy Equivalent does not reach a resource of another storage', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
    const rule = { rules: [{ operations: ['*'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] }] };
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', rule)])], caller)).admit(attributes({}).attrs);
    assert.equal(calls.length, 0);
  });
  it('matchPolicy Exact: the v2 request does not reach a v1 rule', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/v': allow() });
    await validatingWebhookPlugin(deps('validating', [config('ValidatingWebhookConfiguration', 'c', [hook('v', { ...v1Rule, matchPolicy: 'Exact' })])], caller))
      .admit(attributes({ resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' }, object: hpaV2, requestInfo: info, name: 'eq' }).attrs);
    assert.equal(calls.length, 0);
  });
});

describe('MutatingAdmissionWebhook', () => {
  it('applies a JSON patch in place and records the mutation and patch annotations', async () => {
    const { caller } = fakeCaller({ 'https://hook/m': patching([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]) });
    const r = attributes({});
    const before = r.attrs.object;
    const meta = before!.metadata;
    await mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('m')])], caller)).admit(r.attrs);
    assert.equal(r.attrs.object, before);
    assert.equal(r.attrs.object!.metadata, meta);
    assert.deepEqual(r.attrs.object!.metadata.labels, { app: 'x', mutated: 'yes' });
    assert.equal(r.attrs.object!.apiVersion, 'v1');
    assert.equal(r.annotations['mutation.webhook.admission.k8s.io/round_0_index_0'], '{"configuration":"c","webhook":"m","mutated":true}');
    assert.equal(r.annotations['mutation.webhook.admission.svc.io/round_0_index_0'], '{"configuration":"c","webhook":"m","mutated":true}');
    assert.equal(r.annotations['patch.webhook.admission.k8s.io/round_0_index_0'], '{"configuration":"c","webhook":"m","patch":[{"op":"add","path":"/metadata/labels/mutated","value":"yes"}],"patchType":"JSONPatch"}');
  });

  it('a create is sent as kube sends it before BeforeCreate (no uid, creationTimestamp null); the patch keeps the stored ones', async () => {
    const { caller, calls } = fakeCaller({ 'https://hook/m': patching([{ op: 'add', path: '/metadata/labels', value: { m: '1' } }]) });
    const r = attributes({ object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns', uid: 'u-1', creationTimestamp: '2026-01-01T00:00:00Z' } } as ApiObject });
    await mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('m')])], caller)).admit(r.attrs);
    const sent = (calls[0]!.review.request as Obj).object as Obj;
    assert.deepEqual(sent.metadata, { name: 'cm', namespace: 'ns', creationTimestamp: null });
    assert.equal(r.attrs.object!.metadata.uid, 'u-1');
    assert.equal(r.attrs.object!.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
    assert.deepEqual(r.attrs.object!.metadata.labels, { m: '1' });
  });

  it('a patch that does not apply is a 500 with the patch error (golden webhook-07)', async () => {
    const { caller } = fakeCaller({ 'https://hook/m': patching([{ op: 'remove', path: '/metadata/labels/does-not-exist' }]) });
    const s = await outcome(() => mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('m', { failurePolicy: 'Ignore' })])], caller)).admit(attributes({}).attrs));
    assert.equal(s?.code, 500);
    assert.equal(s?.message, "Internal error occurred: error in remove for path: '/metadata/labels/does-not-exist': Unable to remove nonexistent key: does-not-exist: missing value");
  });

  it('a patch on DELETE is refused', async () => {
    const { caller } = fakeCaller({ 'https://hook/m': patching([{ op: 'add', path: '/x', value: 1 }]) });
    const old = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } } as ApiObject;
    const s = await outcome(() => mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('m')])], caller)).admit(attributes({ operation: 'DELETE', object: undefined, oldObject: old }).attrs));
    assert.equal(s?.message, 'Internal error occurred: admission webhook "m" attempted to modify the object, which is not supported for this operation');
  });

  it('runs one after another in configuration name order, each seeing the previous change', async () => {
    const seen: string[] = [];
    const { caller } = fakeCaller({
      'https://hook/first': (req, review) => { seen.push(`first:${JSON.stringify(((req.object as Obj).metadata as Obj).labels)}`); return patching([{ op: 'add', path: '/metadata/labels/first', value: '1' }])(req, review, undefined as never); },
      'https://hook/second': (req, review) => { seen.push(`second:${JSON.stringify(((req.object as Obj).metadata as Obj).labels)}`); return allow()(req, review, undefined as never); },
    });
    await mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'z', [hook('second')]), config('MutatingWebhookConfiguration', 'a', [hook('first')])], caller)).admit(attributes({}).attrs);
    assert.deepEqual(seen, ['first:{"app":"x"}', 'second:{"app":"x","first":"1"}']);
  });

  const reinvocations: [string, string, string[]][] = [
    ['IfNeeded: a is called again after b changed the object (golden webhook-07)', 'IfNeeded', ['a', 'b', 'a']],
    ['Never: a is not called again', 'Never', ['a', 'b']],
  ];
  for (const [name, policy, want] of reinvocations) {
    it(name, async () => {
      const { caller, calls } = fakeCaller({
        'https://hook/a': allow(),
        'https://hook/b': (req, review) => (((req.object as Obj).metadata as Obj).labels as Obj).b ? allow()(req, review, undefined as never) : patching([{ op: 'add', path: '/metadata/labels/b', value: 'done' }])(req, review, undefined as never),
      });
      const plugin = mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c-a', [hook('a', { reinvocationPolicy: policy })]), config('MutatingWebhookConfiguration', 'c-b', [hook('b')])], caller));
      const r = attributes({});
      await new Admission([plugin]).mutate(r.attrs);
      assert.deepEqual(calls.map((c) => c.url.slice('https://hook/'.length)), want);
      if (policy === 'IfNeeded') assert.equal(r.annotations['mutation.webhook.admission.k8s.io/round_1_index_0'], '{"configuration":"c-a","webhook":"a","mutated":false}');
    });
  }

  it('a later in-tree plugin changing the object reinvokes an IfNeeded webhook', async () => {
    const { caller, calls } = fakeCaller({
      'https://hook/a': (req, review) => ((((req.object as Obj).metadata as Obj).labels as Obj).a ? allow() : patching([{ op: 'add', path: '/metadata/labels/a', value: '1' }]))(req, review, undefined as never),
    });
    let n = 0;
    const later = { name: 'Later', phase: 'mutating' as const, admit: (a: AdmissionAttributes) => { a.object!.metadata.labels!.later = String(++n); } };
    await new Admission([mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('a', { reinvocationPolicy: 'IfNeeded' })])], caller)), later]).mutate(attributes({}).attrs);
    assert.equal(calls.length, 2);
  });

  it('Equivalent: the patch made in v1 lands in the v2 storage object', async () => {
    const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'ns' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, maxReplicas: 3 } } as unknown as ApiObject;
    const { caller } = fakeCaller({ 'https://hook/m': patching([{ op: 'replace', path: '/spec/maxReplicas', value: 7 }]) });
    const info: ResourceRequestInfo = { isResourceRequest: true, path: '', verb: 'create', apiPrefix: 'apis', apiGroup: 'autoscaling', apiVersion: 'v2', namespace: 'ns', resource: 'horizontalpodautoscalers', subresource: '', name: '', parts: [] };
    const r = attributes({ resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' }, object: hpa, requestInfo: info, name: 'h' });
    await mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('m', { rules: [{ operations: ['*'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }] })])], caller)).admit(r.attrs);
    assert.equal(r.attrs.object, hpa);
    assert.equal(hpa.apiVersion, 'autoscaling/v2');
    assert.equal((hpa as unknown as { spec: Obj }).spec.maxReplicas, 7);
  });

  it('a denial is the webhook status whatever the failurePolicy', async () => {
    const { caller } = fakeCaller({ 'https://hook/m': deny({ code: 403, message: 'no' }) });
    const s = await outcome(() => mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('m', { failurePolicy: 'Ignore' })])], caller)).admit(attributes({}).attrs));
    assert.equal(s?.code, 403);
  });

  it('a call error under Ignore continues with the failed-open annotation', async () => {
    const { caller } = fakeCaller({ 'https://hook/m': () => new Error('Post "x": context deadline exceeded') });
    const r = attributes({});
    await mutatingWebhookPlugin(deps('mutating', [config('MutatingWebhookConfiguration', 'c', [hook('m', { failurePolicy: 'Ignore' })])], caller)).admit(r.attrs);
    assert.equal(r.annotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_0'], 'true');
  });
});
