// Admission webhooks over HTTPS (issue 21), on SQLite and etcd — how calls
// are routed and what they carry: a service-referenced webhook (Service +
// Endpoints → the callback server, verified as <svc>.<ns>.svc), credentials
// chosen by host from the WebhookAdmissionConfiguration's kubeConfigFile (a
// client certificate for localhost:<port>, a token for everything else),
// reinvocation of an IfNeeded webhook after a later one changed the object,
// matchPolicy Equivalent (an autoscaling/v1 rule called for a v2 request, the
// object converted) against Exact, and CONNECT (pods/exec) with the exec
// options as the object.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { tempDir } from '../../src/testing/tempdir.js';
import { pathOf, reviewOf, startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../../src/testing/webhookserver.js';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { admissionConfig } from './admission-table.js';

const NS = 'routing';
const SVC = 'hooksvc';
const SVC_HOST = `${SVC}.${NS}.svc`;
const TOKEN = 'callback-token';


function answer(r: CallbackRequest): CallbackAnswer {
  const review = reviewOf(r);
  const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
  const label = (key: string) => ({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: `/metadata/labels/${key}`, value: 'yes' }])).toString('base64') });
  switch (pathOf(r)) {
    case '/label-a':
      Object.assign(response, label('a'));
      break;
    case '/label-b':
      Object.assign(response, label('b'));
      break;
    case '/no-exec':
      Object.assign(response, { allowed: false, status: { code: 403, message: 'exec is not allowed here' } });
      break;
  }
  return { body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }) };
}

const rule = (operations: string[], apiGroups: string[], apiVersions: string[], resources: string[]) => ({ operations, apiGroups, apiVersions, resources });
const base = { sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', timeoutSeconds: 5 };

for (const backend of BACKENDS) {
  describe(`admission webhooks: routing, credentials, reinvocation, equivalence, CONNECT (${backend.name})`, { skip: backend.skip }, () => {
    let cb: CallbackServer;
    let t: TestServer;
    const calls = (path: string) => cb.seen.filter((r) => pathOf(r) === path);
    const url = (path: string) => ({ url: `https://localhost:${cb.port}${path}`, caBundle: cb.caBundle });

    before(async () => {
      cb = await startCallbackServer({ http2: true, hosts: [SVC_HOST], handle: answer });
      // credentials by host: the client certificate of the callback's own PKI for localhost:<port>, a token for any other host
      const dir = tempDir('svc-wh-creds-');
      const credentials = join(dir, 'credentials.yaml');
      writeFileSync(credentials, stringify({
        apiVersion: 'v1', kind: 'Config',
        users: [
          { name: `localhost:${cb.port}`, user: { 'client-certificate-data': Buffer.from(cb.pki.admin.cert).toString('base64'), 'client-key-data': Buffer.from(cb.pki.admin.key).toString('base64') } },
          { name: '*', user: { token: TOKEN } },
        ],
      }));
      const webhookAdmission = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: credentials };
      const configFile = admissionConfig(dir, { MutatingAdmissionWebhook: webhookAdmission, ValidatingAdmissionWebhook: webhookAdmission });
      t = await backend.start({ admission: { configFile } });
      const must = async (method: string, path: string, body: unknown) => {
        const r = await t.req(method, path, body);
        assert.ok(r.status === 200 || r.status === 201, `${method} ${path}: ${r.status} ${r.text}`);
      };
      await must('POST', '/api/v1/namespaces', { metadata: { name: NS } });
      await must('POST', `/api/v1/namespaces/${NS}/services`, { metadata: { name: SVC }, spec: { ports: [{ name: 'https', port: 443, targetPort: cb.port }] } });
      await must('POST', `/api/v1/namespaces/${NS}/endpoints`, { metadata: { name: SVC }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: cb.port }] }] });
      await must('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
        metadata: { name: 'routing-1' },
        webhooks: [{ ...base, name: 'a.routing.svc.io', clientConfig: url('/label-a'), reinvocationPolicy: 'IfNeeded', rules: [rule(['CREATE'], [''], ['v1'], ['configmaps'])], objectSelector: { matchLabels: { case: 'reinvoke' } } }],
      });
      await must('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
        metadata: { name: 'routing-2' },
        webhooks: [{ ...base, name: 'b.routing.svc.io', clientConfig: url('/label-b'), rules: [rule(['CREATE'], [''], ['v1'], ['configmaps'])], objectSelector: { matchLabels: { case: 'reinvoke' } } }],
      });
      await must('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
        metadata: { name: 'routing-validating' },
        webhooks: [
          { ...base, name: 'service.routing.svc.io', clientConfig: { service: { namespace: NS, name: SVC, path: '/service', port: 443 }, caBundle: cb.caBundle }, rules: [rule(['CREATE'], [''], ['v1'], ['configmaps'])], objectSelector: { matchLabels: { case: 'service' } } },
          { ...base, name: 'equivalent.routing.svc.io', clientConfig: url('/equivalent'), matchPolicy: 'Equivalent', rules: [rule(['CREATE'], ['autoscaling'], ['v1'], ['horizontalpodautoscalers'])] },
          { ...base, name: 'exact.routing.svc.io', clientConfig: url('/exact'), matchPolicy: 'Exact', rules: [rule(['CREATE'], ['autoscaling'], ['v1'], ['horizontalpodautoscalers'])] },
          { ...base, name: 'exec.routing.svc.io', clientConfig: url('/no-exec'), rules: [rule(['CONNECT'], [''], ['v1'], ['pods/exec'])] },
        ],
      });
      let n = 0;
      await eventually(async () => (await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: `probe-${n++}`, labels: { case: 'service' } } })).status === 201 && calls('/service').length > 0);
    });
    after(async () => {
      await t?.stop();
      await cb?.close();
    });

    it('a service-referenced webhook is called at its Endpoints, verified as <svc>.<ns>.svc, with the token the credentials give any host', async () => {
      const call = calls('/service').at(-1)!;
      assert.equal(call.servername, SVC_HOST);
      assert.equal(call.headers.host ?? call.headers[':authority'], `${SVC_HOST}:443`);
      assert.equal(call.headers.authorization, `Bearer ${TOKEN}`);
    });

    it('a URL webhook on localhost:<port> presents the client certificate its host is given', async () => {
      assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'reinvoked', labels: { case: 'reinvoke' } } })).status, 201);
      const call = calls('/label-a').at(-1)!;
      assert.equal(call.clientCN, 'admin');
      assert.equal(call.headers.authorization, undefined);
    });

    it('reinvocation: an IfNeeded webhook is called again after a later webhook changed the object', async () => {
      const before = { a: calls('/label-a').length, b: calls('/label-b').length };
      const r = await t.req('POST', `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'reinvoked-2', labels: { case: 'reinvoke' } } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual({ a: r.body.metadata.labels.a, b: r.body.metadata.labels.b }, { a: 'yes', b: 'yes' });
      assert.deepEqual({ a: calls('/label-a').length - before.a, b: calls('/label-b').length - before.b }, { a: 2, b: 1 });
      assert.equal(reviewOf(calls('/label-a').at(-1)!).request.object.metadata.labels.b, 'yes', 'the second call sees the later change');
    });

    it('matchPolicy Equivalent converts a v2 request for a v1 rule; Exact is not called', async () => {
      const exact = calls('/exact').length;
      const r = await t.req('POST', `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`, {
        apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'hpa' },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] },
      });
      assert.equal(r.status, 201, r.text);
      const sent = reviewOf(calls('/equivalent').at(-1)!).request;
      assert.deepEqual(sent.kind, { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' });
      assert.deepEqual(sent.requestKind, { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
      assert.deepEqual(sent.resource, { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' });
      assert.equal(sent.object.apiVersion, 'autoscaling/v1');
      assert.equal(sent.object.spec.targetCPUUtilizationPercentage, 70);
      assert.equal(calls('/exact').length, exact);
    });

    it('CONNECT: pods/exec goes to a webhook with its exec options as the object, and a denial refuses it', async () => {
      const r = await t.req('POST', `/api/v1/namespaces/${NS}/pods/p/exec?command=ls&stdout=true`);
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.message, 'admission webhook "exec.routing.svc.io" denied the request: exec is not allowed here');
      const sent = reviewOf(calls('/no-exec').at(-1)!).request;
      assert.equal(sent.operation, 'CONNECT');
      assert.equal(sent.subResource, 'exec');
      assert.equal(sent.object.kind, 'PodExecOptions');
      assert.deepEqual(sent.object.command, ['ls']);
      assert.equal(sent.options, null);
    });
  });
}
