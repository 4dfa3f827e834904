// certificates/v1alpha1: ClusterTrustBundle (new alpha in v1.27, off by default),
// a set of trust anchors published cluster-wide.
import { kind, obj, ref, str, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.certificates.v1alpha1';

export const ClusterTrustBundleSpec = obj({
  signerName: str().proto(1).desc('The signer whose trust anchors these are; empty for a bundle not tied to a signer.'),
  trustBundle: str().proto(2, { keepZero: true }).required().desc('PEM CA certificates, concatenated.'),
})
  .id(`${PKG}.ClusterTrustBundleSpec`)
  .desc('The certificates of a ClusterTrustBundle.');

export const ClusterTrustBundle = kind({ spec: ref(ClusterTrustBundleSpec).proto(2).desc('The trust anchors.') }, { required: ['spec'] })
  .id(`${PKG}.ClusterTrustBundle`)
  .desc('Cluster-wide X.509 trust anchors, optionally tied to a signer.');

export const kinds: Readonly<Record<string, S>> = { ClusterTrustBundle };
