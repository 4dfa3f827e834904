// CertificateApproval (kube v1.27 plugin/pkg/admission/certificates/approval):
// an update of certificatesigningrequests/approval needs the `approve` verb
// on the request's signer (checked on the old object: the approval
// subresource cannot change the signer anyway).
import type { Authorizer } from '../../../authz/authorizer.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import { isAuthorizedForSignerName, isCSR, signerNameOf } from './signers.js';
import { admissionForbidden } from '../common.js';

export function certificateApprovalPlugin(authorizer: Authorizer): AdmissionPlugin {
  async function check(a: AdmissionAttributes): Promise<void> {
    const signerName = signerNameOf(a.oldObject);
    if (!(await isAuthorizedForSignerName(authorizer, a.user, 'approve', signerName))) {
      throw admissionForbidden(a, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
    }
  }
  return {
    name: 'CertificateApproval',
    phase: 'validating',
    // other writes answer at once (no promise): the chain awaits only what reads
    admit(a) {
      if (a.operation !== 'UPDATE' || a.subresource !== 'approval' || !isCSR(a)) return;
      return check(a);
    },
  };
}
