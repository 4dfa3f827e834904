// What the certificate plugins share: the CertificateSigningRequest resource,
// and kube's IsAuthorizedForSignerName — the verb on the synthetic `signers`
// resource of certificates.svc.io, named by the signerName, or else by its
// domain wildcard (`kubernetes.io/*`).
import type { Authorizer } from '../../../authz/authorizer.js';
import type { UserInfo } from '../../../authn/user.js';
import type { AdmissionAttributes } from '../../../registry/admission.js';
import { isObject, type ApiObject } from '../../../registry/object.js';

export const CERTIFICATES_GROUP = 'certificates.svc.io';

export const isCSR = (a: AdmissionAttributes) => a.resource.group === CERTIFICATES_GROUP && a.resource.resource === 'certificatesigningrequests';

export const signerNameOf = (csr: ApiObject | undefined): string => {
  const spec = isObject(csr?.spec) ? csr!.spec : {};
  return typeof spec.signerName === 'string' ? spec.signerName : '';
};


async function allowed(authz: Authorizer, user: UserInfo, verb: string, name: string): Promise<boolean> {
  const d = await authz.authorize({
    user, verb, isResourceRequest: true, path: '', apiGroup: CERTIFICATES_GROUP, apiVersion: '*', namespace: '', resource: 'signers', subresource: '', name,
  });
  return d.decision === 'allow';
}

/** May the user `verb` (approve, sign) for this signer: by its exact name, or by `<domain>/*`? */
export async function isAuthorizedForSignerName(authz: Authorizer, user: UserInfo | undefined, verb: string, signerName: string): Promise<boolean> {
  const who = user ?? { name: '', groups: [] };
  if (await allowed(authz, who, verb, signerName)) return true;
  return allowed(authz, who, verb, `${signerName.split('/')[0]}/*`);
}
