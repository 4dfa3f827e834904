// PodSecurity over HTTPS (issue 20): on by default, privileged unless a
// namespace's labels say otherwise; enforce refuses with kube's text, warn adds
// Warning headers (kubectl prints them), the svc.io label spelling works too,
// a namespace made stricter warns about the pods already in it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

const pod = (name: string, securityContext: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'c', image: 'registry.example/app:1.0', securityContext }] },
});
const RESTRICTED_OK = {
  allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' },
};

describe('PodSecurity admission', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    for (const [name, labels] of [
      ['psa-restricted', { 'pod-security.kubernetes.io/enforce': 'restricted' }],
      ['psa-warn', { 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.27' }],
      ['psa-svc', { 'pod-security.svc.io/enforce': 'baseline' }],
      ['psa-none', {}],
    ] as const) {
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name, labels } })).status, 201);
    }
  });
  after(async () => t?.stop());

  it('enforce refuses with kube\'s message; a compliant pod is created', async () => {
    const r = await t.req('POST', '/api/v1/namespaces/psa-restricted/pods', pod('p', { privileged: true }));
    assert.equal(r.status, 403);
    assert.equal(r.body.message, 'pods "p" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
    assert.equal((await t.req('POST', '/api/v1/namespaces/psa-restricted/pods', pod('ok', RESTRICTED_OK))).status, 201);
    // nothing was stored for the refused pod
    assert.equal((await t.req('GET', '/api/v1/namespaces/psa-restricted/pods/p')).status, 404);
  });

  it('warn admits with a Warning header; the svc.io label spelling enforces; no labels: privileged', async () => {
    const w = await t.req('POST', '/api/v1/namespaces/psa-warn/pods', pod('w', { privileged: true }));
    assert.equal(w.status, 201);
    assert.match(String(w.headers.warning), /^299 - "would violate PodSecurity \\"baseline:v1\.27\\": privileged \(container \\"c\\" must not set securityContext\.privileged=true\)"$/);
    assert.equal((await t.req('POST', '/api/v1/namespaces/psa-svc/pods', pod('s', { privileged: true }))).status, 403);
    const none = await t.req('POST', '/api/v1/namespaces/psa-none/pods', pod('n', { privileged: true }));
    assert.equal(none.status, 201);
    assert.equal(none.headers.warning, undefined);
  });

  it('making a namespace stricter warns about its existing pods', async () => {
    const r = await t.req('PATCH', '/api/v1/namespaces/psa-none', { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(r.status, 200);
    const warnings = ([] as string[]).concat(r.headers.warning ?? []).join('\n');
    assert.match(warnings, /existing pods in namespace \\"psa-none\\" violate the new PodSecurity enforce level \\"baseline:latest\\"/);
    assert.match(warnings, /n: privileged/);
  });

  it('kubectl apply prints the warning', { skip: kubectlMissing }, async () => {
    const k = kubectlFor(() => t);
    try {
      const file = k.file('pod.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: kw, namespace: psa-warn}\nspec:\n  containers: [{name: c, image: "registry.example/app:1.0", securityContext: {privileged: true}}]\n');
      const r = await k('apply', '-f', file);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /Warning: would violate PodSecurity "baseline:v1\.27": privileged \(container "c" must not set securityContext\.privileged=true\)/);
    } finally {
      k.cleanup();
    }
  });
});
