// ClusterTrustBundleAttest (kube v1.27 plugin/pkg/admission/certificates/ctbattest):
// creating or updating a ClusterTrustBundle that names a signer needs the
// `attest` verb on that signer (by name or its domain wildcard). Inert unless
// the ClusterTrustBundle feature gate is on (the resource is alpha in v1.27).
// An update that only touches ownerReferences or finalizers is let through,
// so the garbage collector and storage migration need no attest permission.
import type { Authorizer } from '../../../authz/authorizer.js';
import type { FeatureGates } from '../../../features/gates.js';
import type { AdmissionPlugin } from '../../../registry/admission.js';
import { onlyGCFieldsChange } from '../../../authz/rbac/policybased.js';
import { admissionForbidden } from '../common.js';
import { CERTIFICATES_GROUP, isAuthorizedForSignerName, signerNameOf } from './signers.js';

export function clusterTrustBundleAttestPlugin(authorizer: Authorizer, gates: FeatureGates): AdmissionPlugin {
  const enabled = gates.enabled('ClusterTrustBundle');
  return {
    name: 'ClusterTrustBundleAttest',
    phase: 'validating',
    // decided at once unless an authorizer must be asked (no promise for the chain to await)
    admit(a) {
      if (!enabled || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
      if (a.resource.group !== CERTIFICATES_GROUP || a.resource.resource !== 'clustertrustbundles' || !a.object) return;
      // Validation refuses a changed signerName; the new object's signer is the one to attest for.
      const signerName = signerNameOf(a.object);
      if (signerName === '') return;
      if (a.operation === 'UPDATE' && a.oldObject && onlyGCFieldsChange(a.object, a.oldObject)) return;
      return isAuthorizedForSignerName(authorizer, a.user, 'attest', signerName).then((allowed) => {
        if (!allowed) throw admissionForbidden(a, `user not permitted to attest for signerName ${JSON.stringify(signerName)}`);
      });
    },
  };
}
