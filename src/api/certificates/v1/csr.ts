// certificates/v1 CertificateSigningRequest: a request for a certificate by
// a named signer, its approval conditions and the issued certificate.
import { bytes, int32, kind, list, mapOf, obj, ref, S, str, Time } from '../../../schema/index.js';

const PKG = 'io.k8s.api.certificates.v1';

/** Bytes (a Go []byte) that the official documents mark as an atomic list; the DSL's atomic() would mark a map. */
const atomicBytes = (): S => new S({ ...bytes().schema, 'x-kubernetes-list-type': 'atomic' });

export const CertificateSigningRequestSpec = obj({
  request: atomicBytes().required().desc('The PEM-encoded PKCS#10 certificate request; immutable.'),
  signerName: str().required().desc('The signer asked to issue the certificate, such as "kubernetes.io/kube-apiserver-client"; immutable.'),
  expirationSeconds: int32().desc('The validity asked for, at least 600 seconds; the signer may choose otherwise.'),
  usages: list(str()).atomic().desc('The key usages asked for, such as "digital signature" or "client auth".'),
  username: str().desc('The user who created the request, set by the server.'),
  uid: str().desc('The uid of the user who created the request, set by the server.'),
  groups: list(str()).atomic().desc('The groups of the user who created the request, set by the server.'),
  extra: mapOf(list(str())).desc('Extra attributes of the user who created the request, set by the server.'),
})
  .id(`${PKG}.CertificateSigningRequestSpec`)
  .desc('The certificate asked for and who asked for it.');

export const CertificateSigningRequestCondition = obj({
  type: str().required().desc('Approved, Denied, Failed, or another type.'),
  status: str().required().desc('True, False or Unknown.'),
  reason: str().desc('A brief machine-readable reason for the condition.'),
  message: str().desc('A human-readable explanation of the condition.'),
  lastUpdateTime: ref(Time).desc('When the condition was last updated.'),
  lastTransitionTime: ref(Time).desc('When the status last changed.'),
})
  .id(`${PKG}.CertificateSigningRequestCondition`)
  .desc('One approval or failure condition of a request.');

export const CertificateSigningRequestStatus = obj({
  conditions: list(CertificateSigningRequestCondition).map('type').desc('Approval, denial and failure conditions.'),
  certificate: atomicBytes().desc('The issued PEM certificate chain, written by the signer once approved.'),
})
  .id(`${PKG}.CertificateSigningRequestStatus`)
  .desc('The approval state of a request and the issued certificate.');

export const CertificateSigningRequest = kind(
  {
    spec: ref(CertificateSigningRequestSpec).desc('The request; immutable.'),
    status: ref(CertificateSigningRequestStatus).desc('Approval conditions and the issued certificate.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.CertificateSigningRequest`)
  .desc('A request that a signer issue an X.509 certificate.');
