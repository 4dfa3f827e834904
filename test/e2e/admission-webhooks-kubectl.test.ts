// Admission webhooks (issue 21) as a kubectl 1.27 user meets them, on SQLite
// and etcd: the configuration registered with `kubectl apply`, `kubectl create
// configmap` refused by a denying webhook with kube's error text, a warning
// printed by kubectl, a mutation visible in `kubectl get`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { reviewOf, startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../../src/testing/webhookserver.js';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing, type Kubectl } from './kubectlcli.js';

const NS = 'kubectl-hooks';

function answer(r: CallbackRequest): CallbackAnswer {
  const review = reviewOf(r);
  const name = review.request.name as string;
  const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
  if (r.url.startsWith('/validate')) {
    if (name.startsWith('forbidden-')) Object.assign(response, { allowed: false, status: { code: 403, message: `configmap names may not start with "forbidden-"` } });
    if (name.startsWith('old-')) response.warnings = ['configmaps named old-* are going away'];
  } else {
    const patch = [{ op: 'add', path: '/data/stamped', value: 'by-webhook' }];
    Object.assign(response, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
  }
  return { body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }) };
}

for (const backend of BACKENDS) {
  describe(`admission webhooks through kubectl (${backend.name})`, { skip: backend.skip || kubectlMissing }, () => {
    let cb: CallbackServer;
    let t: TestServer;
    const kubectl: Kubectl = kubectlFor(() => t);

    before(async () => {
      cb = await startCallbackServer({ http2: true, handle: answer });
      t = await backend.start();
      const hook = (name: string, path: string) => ({
        name, clientConfig: { url: `https://localhost:${cb.port}${path}`, caBundle: cb.caBundle },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        namespaceSelector: { matchLabels: { hooks: 'kubectl' } },
        sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 5,
      });
      const manifest = [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { hooks: 'kubectl' } } },
        { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'kubectl-stamp' }, webhooks: [hook('stamp.kubectl.svc.io', '/mutate')] },
        { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'kubectl-names' }, webhooks: [hook('names.kubectl.svc.io', '/validate')] },
      ].map((d) => stringify(d)).join('---\n');
      const applied = await kubectl('apply', '-f', kubectl.file('hooks.yaml', manifest));
      assert.equal(applied.code, 0, applied.err);
      assert.match(applied.out, /validatingwebhookconfiguration\.admissionregistration\.k8s\.io\/kubectl-names created/);
      let n = 0;
      await eventually(async () => (await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: `forbidden-probe-${n++}` }, data: { a: 'b' } })).status === 403);
    });
    after(async () => {
      kubectl.cleanup();
      await t?.stop();
      await cb?.close();
    });

    it('kubectl create configmap through a denying webhook prints kube\'s error', async () => {
      const r = await kubectl('create', 'configmap', 'forbidden-one', '-n', NS, '--from-literal=a=b');
      assert.equal(r.code, 1);
      assert.equal(r.err.trim(), 'error: failed to create configmap: admission webhook "names.kubectl.svc.io" denied the request: configmap names may not start with "forbidden-"');
      const get = await kubectl('get', 'configmap', 'forbidden-one', '-n', NS);
      assert.match(get.err, /configmaps "forbidden-one" not found/);
    });

    it('a webhook warning is printed by kubectl; the mutation shows in kubectl get', async () => {
      const r = await kubectl('create', 'configmap', 'old-one', '-n', NS, '--from-literal=a=b');
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /^Warning: configmaps named old-\* are going away$/m);
      const got = await kubectl('get', 'configmap', 'old-one', '-n', NS, '-o', 'jsonpath={.data.stamped}');
      assert.equal(got.out, 'by-webhook');
    });
  });
}
