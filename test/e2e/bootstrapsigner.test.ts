// The bootstrap signer (issue 24): cluster-info in svc-public is published
// and signed with every bootstrap token usable for signing; the signature of
// a token that goes is removed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { BootstrapSigner, detachedSignature, ensureClusterInfo } from '../../src/controllers/bootstrapsigner.js';

const INFO = '/api/v1/namespaces/svc-public/configmaps/cluster-info';
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('bootstrap signer', () => {
  let t: TestServer;
  let signer: BootstrapSigner;
  before(async () => {
    t = await startTestServer();
    await ensureClusterInfo(t.server.controllerContext.registry, 'https://127.0.0.1:6443', b64('CA'));
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
    assert.match(kubeconfig, /server: https:\/\/127\.0\.0\.1:6443/);
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
});
