// CertificateSubjectRestriction: no system:masters organization from the kube-apiserver-client signer.
import * as x509 from '@peculiar/x509';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { isStatusError } from '../../../api/meta/index.js';
import type { AdmissionAttributes } from '../../../registry/admission.js';
import { certificateSubjectRestrictionPlugin, requestOrganizations } from './subjectrestriction.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

async function csrFor(subject: string): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys: keys as never, signingAlgorithm: alg });
  return Buffer.from(req.toString('pem')).toString('base64');
}

const attrs = (signerName: string, request: string, subresource?: string): AdmissionAttributes => ({
  operation: 'CREATE', object: { metadata: { name: 'c' }, spec: { signerName, request } }, oldObject: undefined,
  resource: { group: 'certificates.svc.io', version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest' },
  namespace: '', name: 'c', namespaced: false, dryRun: false, user: { name: 'u', groups: [] }, ...(subresource ? { subresource } : {}),
});

describe('CertificateSubjectRestriction', () => {
  const requests: Record<string, string> = {};
  before(async () => {
    requests.masters = await csrFor('CN=eve, O=dev, O=system:masters');
    requests.plain = await csrFor('CN=bob, O=dev');
  });
  const plugin = certificateSubjectRestrictionPlugin();
  const rows: [string, () => AdmissionAttributes, string | null][] = [
    ['system:masters for kube-apiserver-client', () => attrs('kubernetes.io/kube-apiserver-client', requests.masters!),
      'certificatesigningrequests.certificates.svc.io "c" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed'],
    ['the svc.io spelling of the signer', () => attrs('svc.io/kube-apiserver-client', requests.masters!),
      'certificatesigningrequests.certificates.svc.io "c" is forbidden: use of svc.io/kube-apiserver-client signer with system:masters group is not allowed'],
    ['other organizations', () => attrs('kubernetes.io/kube-apiserver-client', requests.plain!), null],
    ['system:masters for another signer', () => attrs('kubernetes.io/kubelet-serving', requests.masters!), null],
    ['not a PEM request', () => attrs('kubernetes.io/kube-apiserver-client', Buffer.from('junk').toString('base64')),
      'certificatesigningrequests.certificates.svc.io "c" is forbidden: failed to parse CSR: PEM block type must be CERTIFICATE REQUEST'],
    ['a subresource', () => attrs('kubernetes.io/kube-apiserver-client', requests.masters!, 'status'), null],
  ];
  for (const [what, a, want] of rows) {
    it(what, async () => {
      try {
        await plugin.admit(a());
        assert.equal(want, null, 'admitted, expected a refusal');
      } catch (err) {
        if (!isStatusError(err) || want === null) throw err;
        assert.equal(err.status.code, 403);
        assert.equal(err.status.message, want);
      }
    });
  }
  it('reads every organization in order', () => assert.deepEqual(requestOrganizations(requests.masters), ['dev', 'system:masters']));
});
