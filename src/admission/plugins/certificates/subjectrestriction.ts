// CertificateSubjectRestriction (kube v1.27
// plugin/pkg/admission/certificates/subjectrestriction): a new request for
// the kube-apiserver-client signer (either spelling) may not ask for the
// system:masters organization.
import * as x509 from '@peculiar/x509';
import { MASTERS } from '../../../authn/user.js';
import type { AdmissionPlugin } from '../../../registry/admission.js';
import { isObject } from '../../../registry/object.js';
import { isCSR, signerNameOf } from './signers.js';
import { admissionForbidden } from '../common.js';

export const KUBE_APISERVER_CLIENT_SIGNERS = ['kubernetes.io/kube-apiserver-client', 'svc.io/kube-apiserver-client'];

/** The subject organizations of a PEM certificate request (spec.request: base64 of the PEM); throws kube's texts. */
export function requestOrganizations(request: unknown): string[] {
  const pem = Buffer.from(typeof request === 'string' ? request : '', 'base64').toString('latin1');
  const block = /-----BEGIN ([^-]+)-----([\s\S]*?)-----END \1-----/.exec(pem);
  if (!block || block[1] !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  let csr: x509.Pkcs10CertificateRequest;
  try {
    csr = new x509.Pkcs10CertificateRequest(Buffer.from(block[2]!.replace(/\s+/g, ''), 'base64'));
  } catch (err) {
    throw new Error(`asn1: ${err instanceof Error ? err.message : String(err)}`);
  }
  return csr.subjectName.getField('O');
}

export function certificateSubjectRestrictionPlugin(): AdmissionPlugin {
  return {
    name: 'CertificateSubjectRestriction',
    phase: 'validating',
    admit(a) {
      if (a.operation !== 'CREATE' || (a.subresource ?? '') !== '' || !isCSR(a)) return;
      const signerName = signerNameOf(a.object);
      if (!KUBE_APISERVER_CLIENT_SIGNERS.includes(signerName)) return;
      const spec = isObject(a.object!.spec) ? a.object!.spec : {};
      let orgs: string[];
      try {
        orgs = requestOrganizations(spec.request);
      } catch (err) {
        throw admissionForbidden(a, `failed to parse CSR: ${(err as Error).message}`);
      }
      if (orgs.includes(MASTERS)) throw admissionForbidden(a, `use of ${signerName} signer with system:masters group is not allowed`);
    },
  };
}
