// certificates.svc.io: CertificateSigningRequest (v1, with the `approval`
// subresource the approvers write) and ClusterTrustBundle (v1alpha1, new
// alpha in 1.27, off by default).
import { GET_PATCH_UPDATE, defineGroup, status } from './define.js';

export const certificates = defineGroup({
  name: 'certificates.svc.io',
  groupPriorityMinimum: 17300,
  versions: [
    {
      version: 'v1',
      enabledByDefault: true,
      versionPriority: 15,
      resources: [{
        resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'],
        subresources: [{ name: 'approval', kind: 'CertificateSigningRequest', verbs: GET_PATCH_UPDATE }, status('CertificateSigningRequest')],
      }],
    },
    {
      version: 'v1alpha1',
      enabledByDefault: false,
      versionPriority: 1,
      resources: [{ resource: 'clustertrustbundles', kind: 'ClusterTrustBundle', namespaced: false, lifecycle: { introduced: '1.26' } }],
    },
  ],
});
