// ClusterTrustBundleAttest: the attest verb on the bundle's signer, only with the ClusterTrustBundle gate on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes, Authorizer } from '../../../authz/authorizer.js';
import { FeatureGates } from '../../../features/gates.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { outcome } from '../testutil.js';
import { clusterTrustBundleAttestPlugin } from './ctbattest.js';

const allowing = (allowed: string[]): Authorizer => ({
  name: 'test',
  authorize: (a: Attributes) => ({ decision: a.isResourceRequest && a.resource === 'signers' && allowed.includes(`${a.verb} ${a.name}`) ? 'allow' : 'noOpinion', reason: '' }),
});

const bundle = (signerName: string, meta: Record<string, unknown> = {}): ApiObject => ({ metadata: { name: 'foo.com:bar:abc', ...meta }, spec: { signerName, trustBundle: 'pem' } });
const attrs = (operation: AdmissionOperation, object: ApiObject, oldObject?: ApiObject, resource = 'clustertrustbundles'): AdmissionAttributes => ({
  operation, object, oldObject, resource: { group: 'certificates.svc.io', version: 'v1alpha1', resource, kind: 'ClusterTrustBundle' },
  namespace: '', name: object.metadata.name!, namespaced: false, dryRun: false, user: { name: 'test-user', groups: [] },
});

const on = FeatureGates.parse('ClusterTrustBundle=true');
const DENIED = 'clustertrustbundles.certificates.svc.io "foo.com:bar:abc" is forbidden: user not permitted to attest for signerName "foo.com/bar"';

describe('ClusterTrustBundleAttest', () => {
  const rows: [string, AdmissionAttributes, string[], string | undefined, FeatureGates?][] = [
    ['no signer: nothing to attest', attrs('CREATE', bundle('')), [], undefined],
    ['attest on the exact signer', attrs('CREATE', bundle('foo.com/bar')), ['attest foo.com/bar'], undefined],
    ['attest on the domain wildcard', attrs('CREATE', bundle('foo.com/bar')), ['attest foo.com/*'], undefined],
    ['another signer does not help', attrs('CREATE', bundle('foo.com/bar')), ['attest abc.com/def'], DENIED],
    ['sign is not attest', attrs('CREATE', bundle('foo.com/bar')), ['sign foo.com/bar'], DENIED],
    ['an update needs attest', attrs('UPDATE', { ...bundle('foo.com/bar'), spec: { signerName: 'foo.com/bar', trustBundle: 'new' } }, bundle('foo.com/bar')), [], DENIED],
    ['an update of finalizers only does not', attrs('UPDATE', bundle('foo.com/bar', { finalizers: ['x'] }), bundle('foo.com/bar')), [], undefined],
    ['a delete is not its concern', attrs('DELETE', bundle('foo.com/bar')), [], undefined],
    ['another resource', attrs('CREATE', bundle('foo.com/bar'), undefined, 'certificatesigningrequests'), [], undefined],
    ['inert with the gate off', attrs('CREATE', bundle('foo.com/bar')), [], undefined, new FeatureGates()],
  ];
  for (const [what, a, allowed, want, gates] of rows) {
    it(what, async () => {
      const status = await outcome(() => clusterTrustBundleAttestPlugin(allowing(allowed), gates ?? on).admit(a));
      assert.equal(status?.message, want);
      if (want) assert.equal(status?.code, 403);
    });
  }
  it('answers without a promise when there is nothing to attest (every pod, configmap… write)', () => {
    const plugin = clusterTrustBundleAttestPlugin(allowing([]), on);
    for (const a of [attrs('CREATE', bundle('')), attrs('CREATE', bundle('foo.com/bar'), undefined, 'pods'), attrs('DELETE', bundle('foo.com/bar'))]) {
      assert.equal(plugin.admit(a), undefined);
    }
    assert.equal(clusterTrustBundleAttestPlugin(allowing([]), new FeatureGates()).admit(attrs('CREATE', bundle('foo.com/bar'))), undefined);
  });
});
