// ClusterTrustBundleAttest over HTTPS: with the ClusterTrustBundle gate and
// certificates/v1alpha1 on, a user creating or updating a bundle for a signer
// needs `attest` on `signers` (the signerName or its domain wildcard); the
// admin (system:masters) always may; a bundle without a signer needs nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FeatureGates } from '../../src/features/gates.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { TEST_CA_PEM } from '../../src/api/certificates/testing.js';
import { startTestServer, writeTokenFile, type TestServer } from './harness.js';

const CTB = '/apis/certificates.k8s.io/v1alpha1/clustertrustbundles';
const bundle = (name: string, signerName?: string) => ({ apiVersion: 'certificates.k8s.io/v1alpha1', kind: 'ClusterTrustBundle', metadata: { name }, spec: { ...(signerName ? { signerName } : {}), trustBundle: TEST_CA_PEM } });

describe('ClusterTrustBundleAttest (HTTPS, RBAC)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({
      tokenAuthFile: writeTokenFile(tempDir('svc-ctb-'), 'exact-token,exact,1\nwild-token,wild,2\nother-token,other,3\n'),
      runtimeConfig: { 'certificates.k8s.io/v1alpha1': true },
      featureGates: FeatureGates.parse('ClusterTrustBundle=true'),
    });
    const grant = async (user: string, signer: string) => {
      const role = `attest-${user}`;
      assert.equal((await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: role }, rules: [
        { apiGroups: ['certificates.k8s.io'], resources: ['clustertrustbundles'], verbs: ['create', 'update', 'get'] },
        { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: [signer], verbs: ['attest'] },
      ] })).status, 201);
      assert.equal((await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { metadata: { name: role }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }] })).status, 201);
    };
    await grant('exact', 'foo.com/bar');
    await grant('wild', 'foo.com/*');
    await grant('other', 'abc.com/def');
    // the bindings reach the RBAC cache through a watch
    for (let i = 0; i < 100 && (await t.req('GET', `${CTB}/none`, undefined, { token: 'other-token' })).status !== 404; i++) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => t?.stop());

  const rows: [string, string, ReturnType<typeof bundle>, number, string?][] = [
    ['attest on the exact signer', 'exact-token', bundle('foo.com:bar:a', 'foo.com/bar'), 201],
    ['attest on the domain wildcard', 'wild-token', bundle('foo.com:bar:b', 'foo.com/bar'), 201],
    ['no bundle signer: nothing to attest', 'other-token', bundle('plain'), 201],
    ['attest on another signer only', 'other-token', bundle('foo.com:bar:c', 'foo.com/bar'), 403,
      'clustertrustbundles.certificates.k8s.io "foo.com:bar:c" is forbidden: user not permitted to attest for signerName "foo.com/bar"'],
  ];
  for (const [what, token, body, status, message] of rows) {
    it(what, async () => {
      const res = await t.req('POST', CTB, body, { token });
      assert.equal(res.status, status, res.text);
      if (message) assert.equal(res.body.message, message);
    });
  }

  it('an update is checked too; a dry run answers the same and stores nothing', async () => {
    const cur = (await t.req('GET', `${CTB}/foo.com:bar:a`)).body;
    const res = await t.req('PUT', `${CTB}/foo.com:bar:a`, { ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } } }, { token: 'other-token' });
    assert.equal(res.status, 403, res.text);
    const dry = await t.req('POST', `${CTB}?dryRun=All`, bundle('foo.com:bar:d', 'foo.com/bar'), { token: 'other-token' });
    assert.equal(dry.status, 403);
    const dryOk = await t.req('POST', `${CTB}?dryRun=All`, bundle('foo.com:bar:e', 'foo.com/bar'), { token: 'exact-token' });
    assert.equal(dryOk.status, 201, dryOk.text);
    assert.equal((await t.req('GET', `${CTB}/foo.com:bar:e`)).status, 404);
  });
});
