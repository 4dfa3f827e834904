// Admission webhooks over HTTPS (issue 21), on SQLite and etcd: a real
// callback server (src/testing/webhookserver.ts, HTTP/2 offered) answering by
// path; webhook configurations registered through the API, each webhook
// picking its objects by a `case` label so the cases stay apart. Mutation by
// JSONPatch (stored), the validating webhook seeing the mutated object,
// denials (with status, without), warnings, failurePolicy on a time-out, a
// malformed answer and a uid mismatch (Fail: 500, Ignore: the write goes on),
// dry run (sent with dryRun, nothing stored), namespaceSelector, DELETE with
// oldObject and DeleteOptions, v1beta1 reviews, and a changed configuration
// applying to the next request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathOf, reviewOf, startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../../src/testing/webhookserver.js';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';

const NS = 'hooks';
const OTHER_NS = 'elsewhere';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const MUTATING = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const VALIDATING = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';


/** The callback server's answers, by path. */
function answer(r: CallbackRequest): CallbackAnswer | Promise<CallbackAnswer> {
  const review = reviewOf(r);
  const uid = review.request.uid as string;
  const respond = (response: Record<string, unknown>) => ({ body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid, ...response } }) });
  switch (pathOf(r)) {
    case '/mutate': {
      const patch = [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }];
      return respond({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    }
    case '/deny':
      return respond({ allowed: false, status: { code: 403, message: 'configmaps named deny-* are not allowed here' } });
    case '/deny-bare':
      return respond({ allowed: false });
    case '/warn':
      return respond({ allowed: true, warnings: ['this configmap will be deprecated'] });
    case '/hang':
      return new Promise<CallbackAnswer>(() => {});
    case '/garbage':
      return { body: 'this is not json' };
    case '/wrong-uid':
      return { body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: 'not-the-request', allowed: true } }) };
    default:
      return respond({ allowed: true });
  }
}

interface Hook {
  name: string;
  path: string;
  caseLabel: string;
  operations?: string[];
  failurePolicy?: 'Fail' | 'Ignore';
  timeoutSeconds?: number;
  versions?: string[];
  namespaceSelector?: unknown;
}

function webhook(cb: CallbackServer, h: Hook) {
  return {
    name: h.name,
    clientConfig: { url: `https://localhost:${cb.port}${h.path}`, caBundle: cb.caBundle },
    rules: [{ operations: h.operations ?? ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { case: h.caseLabel } },
    ...(h.namespaceSelector ? { namespaceSelector: h.namespaceSelector } : {}),
    sideEffects: 'None',
    admissionReviewVersions: h.versions ?? ['v1'],
    failurePolicy: h.failurePolicy ?? 'Fail',
    timeoutSeconds: h.timeoutSeconds ?? 5,
  };
}

const configMap = (name: string, caseLabel: string, namespace = NS) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { case: caseLabel } }, data: { k: 'v' } });

for (const backend of BACKENDS) {
  describe(`admission webhooks over HTTPS (${backend.name})`, { skip: backend.skip }, () => {
    let cb: CallbackServer;
    let t: TestServer;
    const callsTo = (path: string) => cb.seen.filter((r) => pathOf(r) === path);

    before(async () => {
      cb = await startCallbackServer({ http2: true, handle: answer });
      t = await backend.start();
      for (const [ns, labels] of [[NS, { team: 'a' }], [OTHER_NS, { team: 'b' }]] as const) {
        assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: ns, labels } })).status, 201);
      }
      const mutating = {
        apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'e2e-mutating' },
        webhooks: [webhook(cb, { name: 'mutate.e2e.svc.io', path: '/mutate', caseLabel: 'mutate' })],
      };
      const validating = {
        apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'e2e-validating' },
        webhooks: [
          webhook(cb, { name: 'see-mutated.e2e.svc.io', path: '/allow', caseLabel: 'mutate' }),
          webhook(cb, { name: 'deny.e2e.svc.io', path: '/deny', caseLabel: 'deny' }),
          webhook(cb, { name: 'deny-bare.e2e.svc.io', path: '/deny-bare', caseLabel: 'deny-bare' }),
          webhook(cb, { name: 'warn.e2e.svc.io', path: '/warn', caseLabel: 'warn' }),
          webhook(cb, { name: 'hang-fail.e2e.svc.io', path: '/hang', caseLabel: 'hang-fail', timeoutSeconds: 1 }),
          webhook(cb, { name: 'hang-ignore.e2e.svc.io', path: '/hang', caseLabel: 'hang-ignore', timeoutSeconds: 1, failurePolicy: 'Ignore' }),
          webhook(cb, { name: 'garbage.e2e.svc.io', path: '/garbage', caseLabel: 'garbage' }),
          webhook(cb, { name: 'wrong-uid.e2e.svc.io', path: '/wrong-uid', caseLabel: 'wrong-uid' }),
          webhook(cb, { name: 'team-a.e2e.svc.io', path: '/team-a', caseLabel: 'selector', namespaceSelector: { matchLabels: { team: 'a' } } }),
          webhook(cb, { name: 'delete.e2e.svc.io', path: '/delete', caseLabel: 'delete', operations: ['DELETE'] }),
          webhook(cb, { name: 'v1beta1.e2e.svc.io', path: '/v1beta1', caseLabel: 'v1beta1', versions: ['v1beta1', 'v1'] }),
          webhook(cb, { name: 'dry.e2e.svc.io', path: '/dry', caseLabel: 'dry' }),
        ],
      };
      assert.equal((await t.req('POST', MUTATING, mutating)).status, 201);
      assert.equal((await t.req('POST', VALIDATING, validating)).status, 201);
      // the configurations reach admission through the watch cache
      let n = 0;
      await eventually(async () => (await t.req('POST', CM, configMap(`probe-${n++}`, 'deny'))).status === 403);
    });
    after(async () => {
      await t?.stop();
      await cb?.close();
    });

    it('a mutating webhook\'s JSONPatch is stored; the validating webhook sees the mutated object; HTTP/1.1 is used, as kube', async () => {
      const r = await t.req('POST', CM, configMap('mutated', 'mutate'));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.metadata.labels.mutated, 'yes');
      const stored = await t.req('GET', `${CM}/mutated`);
      assert.equal(stored.body.metadata.labels.mutated, 'yes');
      const mutateCall = callsTo('/mutate').at(-1)!;
      const sent = reviewOf(mutateCall);
      assert.equal(sent.apiVersion, 'admission.k8s.io/v1');
      assert.equal(sent.request.operation, 'CREATE');
      assert.deepEqual(sent.request.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
      assert.deepEqual(sent.request.resource, { group: '', version: 'v1', resource: 'configmaps' });
      assert.equal(sent.request.namespace, NS);
      assert.equal(sent.request.name, 'mutated');
      assert.equal(sent.request.options.kind, 'CreateOptions');
      assert.equal(sent.request.dryRun, false);
      assert.equal(sent.request.oldObject, null);
      assert.ok(typeof sent.request.userInfo.username === 'string' && sent.request.userInfo.username !== '');
      assert.equal(mutateCall.httpVersion, '1.1'); // h2 is offered, but webhook clients are pinned to HTTP/1.1
      assert.match(mutateCall.url, /\?timeout=5s$/);
      const validated = reviewOf(callsTo('/allow').at(-1)!);
      assert.equal(validated.request.object.metadata.labels.mutated, 'yes');
    });

    it('a denial with a status: its code and message', async () => {
      const r = await t.req('POST', CM, configMap('deny-me', 'deny'));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.message, 'admission webhook "deny.e2e.svc.io" denied the request: configmaps named deny-* are not allowed here');
      assert.equal((await t.req('GET', `${CM}/deny-me`)).status, 404);
    });

    it('a denial without a status: 400 without explanation', async () => {
      const r = await t.req('POST', CM, configMap('bare', 'deny-bare'));
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.message, 'admission webhook "deny-bare.e2e.svc.io" denied the request without explanation');
    });

    it('warnings become Warning headers', async () => {
      const r = await t.req('POST', CM, configMap('warned', 'warn'));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.warning, '299 - "this configmap will be deprecated"');
    });

    it('failurePolicy Fail: a webhook that does not answer in time fails the write (500); Ignore: the write goes on', async () => {
      const failed = await t.req('POST', CM, configMap('slow', 'hang-fail'));
      assert.equal(failed.status, 500, failed.text);
      assert.match(failed.body.message, /^Internal error occurred: failed calling webhook "hang-fail\.e2e\.svc\.io": failed to call webhook: Post "https:\/\/localhost:\d+\/hang\?timeout=1s": context deadline exceeded$/);
      const ignored = await t.req('POST', CM, configMap('slow-ignored', 'hang-ignore'));
      assert.equal(ignored.status, 201, ignored.text);
    });

    it('a malformed answer and a uid mismatch fail the call (failurePolicy Fail)', async () => {
      const garbage = await t.req('POST', CM, configMap('garbage', 'garbage'));
      assert.equal(garbage.status, 500, garbage.text);
      assert.match(garbage.body.message, /^Internal error occurred: failed calling webhook "garbage\.e2e\.svc\.io": /);
      const uid = await t.req('POST', CM, configMap('uid', 'wrong-uid'));
      assert.equal(uid.status, 500, uid.text);
      assert.match(uid.body.message, /failed calling webhook "wrong-uid\.e2e\.svc\.io": .*uid/);
    });

    it('namespaceSelector: called for the namespace it selects, not for another', async () => {
      const before = callsTo('/team-a').length;
      assert.equal((await t.req('POST', `/api/v1/namespaces/${OTHER_NS}/configmaps`, configMap('sel', 'selector', OTHER_NS))).status, 201);
      assert.equal(callsTo('/team-a').length, before);
      assert.equal((await t.req('POST', CM, configMap('sel', 'selector'))).status, 201);
      assert.equal(callsTo('/team-a').length, before + 1);
    });

    it('DELETE: the review carries the old object and DeleteOptions', async () => {
      assert.equal((await t.req('POST', CM, configMap('to-delete', 'delete'))).status, 201);
      assert.equal(callsTo('/delete').length, 0, 'the rule names DELETE only');
      assert.equal((await t.req('DELETE', `${CM}/to-delete`)).status, 200);
      const sent = reviewOf(callsTo('/delete').at(-1)!);
      assert.equal(sent.request.operation, 'DELETE');
      assert.equal(sent.request.object, null);
      assert.equal(sent.request.oldObject.metadata.name, 'to-delete');
      assert.equal(sent.request.options.kind, 'DeleteOptions');
    });

    it('the first review version the webhook lists: v1beta1', async () => {
      assert.equal((await t.req('POST', CM, configMap('beta', 'v1beta1'))).status, 201);
      assert.equal(reviewOf(callsTo('/v1beta1').at(-1)!).apiVersion, 'admission.k8s.io/v1beta1');
    });

    it('a dry run is sent with dryRun true to a webhook without side effects, and nothing is stored', async () => {
      const r = await t.req('POST', `${CM}?dryRun=All`, configMap('dry', 'dry'));
      assert.equal(r.status, 201, r.text);
      assert.equal(reviewOf(callsTo('/dry').at(-1)!).request.dryRun, true);
      assert.equal((await t.req('GET', `${CM}/dry`)).status, 404);
    });

    it('a changed configuration applies to the next request', async () => {
      const current = await t.req('GET', `${VALIDATING}/e2e-validating`);
      const changed = structuredClone(current.body);
      // the deny webhook now answers through the allowing path
      changed.webhooks.find((w: { name: string }) => w.name === 'deny.e2e.svc.io').clientConfig.url = `https://localhost:${cb.port}/allow`;
      assert.equal((await t.req('PUT', `${VALIDATING}/e2e-validating`, changed)).status, 200);
      let n = 0;
      await eventually(async () => (await t.req('POST', CM, configMap(`now-allowed-${n++}`, 'deny'))).status === 201);
    });
  });
}
