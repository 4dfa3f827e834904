// The bootstrap signer (issue 24): cluster-info in svc-public is published
// and signed with every bootstrap token usable for signing; the signature of
// a token that goes is removed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { BootstrapSigner, CLUSTER_INFO_READER, detachedSignature, ensureClusterInfo } from '../../src/controllers/bootstrapsigner.js';

const INFO = '/api/v1/namespaces/svc-public/configmaps/cluster-info';
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('bootstrap signer', () => {
  let t: TestServer;
  let signer: BootstrapSigner;
  before(async () => {
    // with bootstrap tokens on, the server publishes cluster-info itself (kubeadm's step)
    t = await startTestServer({ enableBootstrapTokenAuth: true });
    signer = new BootstrapSigner(t.server.controllerContext);
    await signer.start();
  });
  after(async () => {
    signer?.stop();
    await t?.stop();
  });

  it('publishes cluster-info and signs it with each signing token; removes the signature of a token that goes', async () => {
    await eventually(async () => (await t.req('GET', INFO)).status === 200);
    const kubeconfig = (await t.req('GET', INFO)).body.data.kubeconfig as string;
    assert.ok(kubeconfig.includes(`server: ${t.url}`), kubeconfig);
    assert.ok(kubeconfig.includes(`certificate-authority-data: ${b64(t.server.controllerContext.config.rootCA)}`));
    // a node about to join reads it anonymously (kubeadm's Role and RoleBinding, our spelling)
    assert.equal((await t.req('GET', INFO, undefined, { anonymous: true })).status, 200);
    assert.equal((await t.req('GET', '/api/v1/namespaces/svc-public/configmaps', undefined, { anonymous: true })).status, 403);
    assert.equal((await t.req('GET', `/apis/rbac.authorization.k8s.io/v1/namespaces/svc-public/rolebindings/${CLUSTER_INFO_READER}`)).body.subjects[0].name, 'system:anonymous');
    const token = (id: string, secret: string, signing: boolean) => ({
      metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.kubernetes.io/token',
      data: { 'token-id': b64(id), 'token-secret': b64(secret), ...(signing ? { 'usage-bootstrap-signing': b64('true') } : {}) },
    });
    assert.equal((await t.req('POST', '/api/v1/namespaces/svc-system/secrets', token('abcdef', '0123456789abcdef', true))).status, 201);
    assert.equal((await t.req('POST', '/api/v1/namespaces/svc-system/secrets', token('ghijkl', '0123456789abcdef', false))).status, 201);
    await eventually(async () => Boolean((await t.req('GET', INFO)).body.data['jws-kubeconfig-abcdef']));
    const data = (await t.req('GET', INFO)).body.data;
    assert.equal(data['jws-kubeconfig-abcdef'], detachedSignature(kubeconfig, 'abcdef', '0123456789abcdef'));
    assert.equal(data['jws-kubeconfig-ghijkl'], undefined);
    assert.equal((await t.req('DELETE', '/api/v1/namespaces/svc-system/secrets/bootstrap-token-abcdef')).status, 200);
    await eventually(async () => (await t.req('GET', INFO)).body.data['jws-kubeconfig-abcdef'] === undefined);
  });

  it('leaves an existing cluster-info as it is (an admin\'s edit stands)', async () => {
    const before = (await t.req('GET', INFO)).body;
    await ensureClusterInfo(t.server.controllerContext.registry, 'https://elsewhere.example:6443', b64('other CA'), { rbac: true });
    assert.equal((await t.req('GET', INFO)).body.metadata.resourceVersion, before.metadata.resourceVersion);
  });
});
