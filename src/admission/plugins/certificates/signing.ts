// CertificateSigning (kube v1.27 plugin/pkg/admission/certificates/signing):
// an update of certificatesigningrequests/status that changes
// status.certificate or status.conditions needs the `sign` verb on the
// request's signer.
import type { Authorizer } from '../../../authz/authorizer.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import { deepEqual, isObject, type ApiObject } from '../../../registry/object.js';
import { isAuthorizedForSignerName, isCSR, signerNameOf } from './signers.js';
import { admissionForbidden } from '../common.js';

const statusOf = (csr: ApiObject | undefined) => (isObject(csr?.status) ? csr!.status : {});
/** Absent and empty condition lists are the same (kube's semantic equality). */
const conditions = (v: unknown) => (Array.isArray(v) ? v : []);

export function certificateSigningPlugin(authorizer: Authorizer): AdmissionPlugin {
  async function check(a: AdmissionAttributes): Promise<void> {
    const before = statusOf(a.oldObject);
    const after = statusOf(a.object);
    if (deepEqual(before.certificate, after.certificate) && deepEqual(conditions(before.conditions), conditions(after.conditions))) return;
    const signerName = signerNameOf(a.oldObject);
    if (!(await isAuthorizedForSignerName(authorizer, a.user, 'sign', signerName))) {
      throw admissionForbidden(a, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
    }
  }
  return {
    name: 'CertificateSigning',
    phase: 'validating',
    // other writes answer at once (no promise): the chain awaits only what reads
    admit(a) {
      if (a.operation !== 'UPDATE' || a.subresource !== 'status' || !isCSR(a)) return;
      return check(a);
    },
  };
}
