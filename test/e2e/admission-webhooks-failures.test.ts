// Admission webhooks over HTTPS (issue 21), on SQLite and etcd — how calls
// fail and whom they reach, against a callback server speaking HTTP/1.1 only
// (kube-apiserver's own transport): failurePolicy on an unreachable callback,
// an answer that is not JSON, a uid mismatch and a 500 (Fail: 500 with
// kube's exact text; Ignore: the request proceeds); objectSelector on the new
// and on the old object; sideEffects: Some and Unknown refused by v1
// validation (422), NoneOnDryRun called with dryRun true.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathOf, reviewOf, startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../../src/testing/webhookserver.js';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';

const NS = 'failing';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const VALIDATING = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const FIND_KIND = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';


function answer(r: CallbackRequest): CallbackAnswer {
  const review = reviewOf(r);
  const ok = (uid: string) => ({ body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid, allowed: true } }) });
  switch (pathOf(r)) {
    case '/text':
      return { body: 'this is not json', contentType: 'text/plain' };
    case '/wrong-uid':
      return ok('not-the-request');
    case '/boom':
      return { status: 500, body: 'boom', contentType: 'text/plain' };
    default:
      return ok(review.request.uid as string);
  }
}

const configMap = (name: string, labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels }, data: { k: 'v' } });

for (const backend of BACKENDS) {
  describe(`admission webhooks: failure policy, objectSelector, sideEffects (${backend.name})`, { skip: backend.skip }, () => {
    let cb: CallbackServer;
    let t: TestServer;
    const calls = (path: string) => cb.seen.filter((r) => pathOf(r) === path);
    /** A validating webhook on configmaps for objects labelled case=<caseLabel>. */
    const hook = (name: string, url: string, caseLabel: string, more: Record<string, unknown> = {}) => ({
      name, clientConfig: { url, caBundle: cb.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      objectSelector: { matchLabels: { case: caseLabel } },
      sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 5, ...more,
    });
    const at = (path: string) => `https://127.0.0.1:${cb.port}${path}`;

    before(async () => {
      cb = await startCallbackServer({ http2: false, handle: answer });
      t = await backend.start();
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
      const r = await t.req('POST', VALIDATING, {
        metadata: { name: 'failures' },
        webhooks: [
          hook('down-fail.failures.svc.io', 'https://127.0.0.1:1/validate', 'down-fail'),
          hook('down-ignore.failures.svc.io', 'https://127.0.0.1:1/validate', 'down-ignore', { failurePolicy: 'Ignore' }),
          hook('text-fail.failures.svc.io', at('/text'), 'text-fail'),
          hook('text-ignore.failures.svc.io', at('/text'), 'text-ignore', { failurePolicy: 'Ignore' }),
          hook('uid.failures.svc.io', at('/wrong-uid'), 'uid'),
          hook('boom.failures.svc.io', at('/boom'), 'boom'),
          hook('watched.failures.svc.io', at('/watched'), 'unused', {
            rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
            objectSelector: { matchLabels: { watched: 'yes' } },
          }),
          hook('dry.failures.svc.io', at('/dry'), 'dry', { sideEffects: 'NoneOnDryRun' }),
        ],
      });
      assert.equal(r.status, 201, r.text);
      let n = 0;
      await eventually(async () => (await t.req('POST', CM, configMap(`probe-${n++}`, { case: 'uid' }))).status === 500);
    });
    after(async () => {
      await t?.stop();
      await cb?.close();
    });

    it('an unreachable callback: Fail answers 500 with the dial error; Ignore lets the create through', async () => {
      const failed = await t.req('POST', CM, configMap('down', { case: 'down-fail' }));
      assert.equal(failed.status, 500, failed.text);
      assert.equal(failed.body.reason, 'InternalError');
      assert.equal(failed.body.message, 'Internal error occurred: failed calling webhook "down-fail.failures.svc.io": failed to call webhook: Post "https://127.0.0.1:1/validate?timeout=5s": dial tcp 127.0.0.1:1: connect: connection refused');
      assert.equal((await t.req('GET', `${CM}/down`)).status, 404);
      const ignored = await t.req('POST', CM, configMap('down-ignored', { case: 'down-ignore' }));
      assert.equal(ignored.status, 201, ignored.text);
    });

    it('an answer that is not JSON: Fail answers 500 with the decoder\'s text; Ignore lets the create through', async () => {
      const failed = await t.req('POST', CM, configMap('text', { case: 'text-fail' }));
      assert.equal(failed.status, 500, failed.text);
      assert.equal(failed.body.message, `Internal error occurred: failed calling webhook "text-fail.failures.svc.io": failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${FIND_KIND}`);
      assert.equal((await t.req('POST', CM, configMap('text-ignored', { case: 'text-ignore' }))).status, 201);
    });

    it('a uid mismatch names both uids; a 500 from the callback quotes its body', async () => {
      const uid = await t.req('POST', CM, configMap('uid', { case: 'uid' }));
      assert.equal(uid.status, 500, uid.text);
      const sent = reviewOf(calls('/wrong-uid').at(-1)!).request.uid as string;
      assert.equal(uid.body.message, `Internal error occurred: failed calling webhook "uid.failures.svc.io": received invalid webhook response: expected response.uid="${sent}", got "not-the-request"`);
      const boom = await t.req('POST', CM, configMap('boom', { case: 'boom' }));
      assert.equal(boom.status, 500, boom.text);
      assert.equal(boom.body.message, 'Internal error occurred: failed calling webhook "boom.failures.svc.io": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding');
      assert.equal(calls('/boom').at(-1)!.httpVersion, '1.1');
    });

    it('objectSelector: matched by the new object on create, by the old one on update; neither → not called', async () => {
      const before = calls('/watched').length;
      assert.equal((await t.req('POST', CM, configMap('plain', {}))).status, 201);
      assert.equal(calls('/watched').length, before, 'unlabelled create');
      const created = await t.req('POST', CM, configMap('watched', { watched: 'yes' }));
      assert.equal(created.status, 201, created.text);
      assert.equal(calls('/watched').length, before + 1, 'labelled create');
      const unlabelled = { ...created.body, metadata: { ...created.body.metadata, labels: {} } };
      assert.equal((await t.req('PUT', `${CM}/watched`, unlabelled)).status, 200);
      assert.equal(calls('/watched').length, before + 2, 'update whose old object is labelled');
      const sent = reviewOf(calls('/watched').at(-1)!).request;
      assert.equal(sent.operation, 'UPDATE');
      assert.equal(sent.oldObject.metadata.labels.watched, 'yes');
      assert.equal(sent.object.metadata.labels?.watched, undefined);
      const again = await t.req('GET', `${CM}/watched`);
      assert.equal((await t.req('PUT', `${CM}/watched`, { ...again.body, data: { k: 'w' } })).status, 200);
      assert.equal(calls('/watched').length, before + 2, 'update with neither labelled');
    });

    it('sideEffects NoneOnDryRun: a dry run is sent with dryRun true and nothing is stored', async () => {
      const r = await t.req('POST', `${CM}?dryRun=All`, configMap('dry', { case: 'dry' }));
      assert.equal(r.status, 201, r.text);
      assert.equal(reviewOf(calls('/dry').at(-1)!).request.dryRun, true);
      assert.equal((await t.req('GET', `${CM}/dry`)).status, 404);
    });

    for (const sideEffects of ['Some', 'Unknown']) {
      it(`sideEffects ${sideEffects} is refused by v1 validation (422)`, async () => {
        const r = await t.req('POST', VALIDATING, { metadata: { name: `side-${sideEffects.toLowerCase()}` }, webhooks: [hook('side.failures.svc.io', at('/dry'), 'dry', { sideEffects })] });
        assert.equal(r.status, 422, r.text);
        assert.equal(r.body.message, `ValidatingWebhookConfiguration.admissionregistration.k8s.io "side-${sideEffects.toLowerCase()}" is invalid: webhooks[0].sideEffects: Unsupported value: "${sideEffects}": supported values: "None", "NoneOnDryRun"`);
      });
    }
  });
}
