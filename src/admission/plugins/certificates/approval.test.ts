// CertificateApproval and CertificateSigning: the approve and sign verbs on the signer, by name or domain wildcard.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../../api/meta/index.js';
import type { Attributes, Authorizer } from '../../../authz/authorizer.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { certificateApprovalPlugin } from './approval.js';
import { certificateSigningPlugin } from './signing.js';

/** Allows `verb name` pairs on certificates.svc.io/signers; records every question. */
function authorizer(allowed: string[], asked: string[] = []): Authorizer {
  return {
    name: 'test',
    authorize(a: Attributes) {
      assert.ok(a.isResourceRequest);
      assert.equal(a.apiGroup, 'certificates.svc.io');
      assert.equal(a.resource, 'signers');
      assert.equal(a.apiVersion, '*');
      asked.push(`${a.verb} ${a.name}`);
      return { decision: allowed.includes(`${a.verb} ${a.name}`) ? 'allow' : 'noOpinion', reason: '' };
    },
  };
}

const csr = (signerName: string, status: Record<string, unknown> = {}): ApiObject => ({ metadata: { name: 'c' }, spec: { signerName }, status });
function attrs(operation: AdmissionOperation, subresource: string, object: ApiObject, oldObject: ApiObject, group = 'certificates.svc.io'): AdmissionAttributes {
  return {
    operation, object, oldObject, subresource, resource: { group, version: 'v1', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest' },
    namespace: '', name: 'c', namespaced: false, dryRun: false, user: { name: 'u', groups: [] },
  };
}

async function outcome(p: { admit(a: AdmissionAttributes): unknown }, a: AdmissionAttributes): Promise<string | null> {
  try {
    await p.admit(a);
    return null;
  } catch (err) {
    if (!isStatusError(err)) throw err;
    assert.equal(err.status.code, 403);
    return err.status.message ?? '';
  }
}

const SIGNER = 'example.com/my-signer';
const approved = { conditions: [{ type: 'Approved', status: 'True' }] };

describe('CertificateApproval', () => {
  const rows: [string, AdmissionAttributes, string[], string | null][] = [
    ['approve on the signer', attrs('UPDATE', 'approval', csr(SIGNER, approved), csr(SIGNER)), [`approve ${SIGNER}`], null],
    ['approve on the domain', attrs('UPDATE', 'approval', csr(SIGNER, approved), csr(SIGNER)), ['approve example.com/*'], null],
    ['no approve permission', attrs('UPDATE', 'approval', csr(SIGNER, approved), csr(SIGNER)), [`sign ${SIGNER}`],
      `certificatesigningrequests.certificates.svc.io "c" is forbidden: user not permitted to approve requests with signerName "${SIGNER}"`],
    ['the old signer counts', attrs('UPDATE', 'approval', csr('other.io/x', approved), csr(SIGNER)), ['approve other.io/x'],
      `certificatesigningrequests.certificates.svc.io "c" is forbidden: user not permitted to approve requests with signerName "${SIGNER}"`],
    ['the status subresource is not its concern', attrs('UPDATE', 'status', csr(SIGNER, approved), csr(SIGNER)), [], null],
    ['another group', attrs('UPDATE', 'approval', csr(SIGNER, approved), csr(SIGNER), 'example.com'), [], null],
  ];
  for (const [what, a, allowed, want] of rows) {
    it(what, async () => assert.equal(await outcome(certificateApprovalPlugin(authorizer(allowed)), a), want));
  }
  it('asks for the exact name first, then the domain wildcard', async () => {
    const asked: string[] = [];
    await outcome(certificateApprovalPlugin(authorizer([], asked)), attrs('UPDATE', 'approval', csr('svc.io/kubelet-serving'), csr('svc.io/kubelet-serving')));
    assert.deepEqual(asked, ['approve svc.io/kubelet-serving', 'approve svc.io/*']);
  });
});

describe('CertificateSigning', () => {
  const issued = { certificate: 'Q0VSVA==' };
  const rows: [string, AdmissionAttributes, string[], string | null][] = [
    ['sign on the signer', attrs('UPDATE', 'status', csr(SIGNER, issued), csr(SIGNER)), [`sign ${SIGNER}`], null],
    ['sign on the domain', attrs('UPDATE', 'status', csr(SIGNER, issued), csr(SIGNER)), ['sign example.com/*'], null],
    ['no sign permission', attrs('UPDATE', 'status', csr(SIGNER, issued), csr(SIGNER)), [`approve ${SIGNER}`],
      `certificatesigningrequests.certificates.svc.io "c" is forbidden: user not permitted to sign requests with signerName "${SIGNER}"`],
    ['a condition added needs sign', attrs('UPDATE', 'status', csr(SIGNER, { conditions: [{ type: 'Failed' }] }), csr(SIGNER)), [],
      `certificatesigningrequests.certificates.svc.io "c" is forbidden: user not permitted to sign requests with signerName "${SIGNER}"`],
    ['nothing of certificate or conditions changed', attrs('UPDATE', 'status', csr(SIGNER, { conditions: [] }), csr(SIGNER)), [], null],
    ['the approval subresource is not its concern', attrs('UPDATE', 'approval', csr(SIGNER, issued), csr(SIGNER)), [], null],
  ];
  for (const [what, a, allowed, want] of rows) {
    it(what, async () => assert.equal(await outcome(certificateSigningPlugin(authorizer(allowed)), a), want));
  }
});
