// certificates/v1 CertificateSigningRequest: a request for a certificate by
// a named signer, its approval conditions and the issued certificate.
import { bytes, int32, kind, list, mapOf, obj, ref, S, str, Time } from '../../../schema/index.js';

const PKG = 'io.k8s.api.certificates.v1';

/** Bytes (a Go []byte) that the official documents mark as an atomic list; the DSL's atomic() would mark a map. */
const atomicBytes = (): S => new S({ ...bytes().schema, 'x-kubernetes-list-type': 'atomic' });

export const CertificateSigningRequestSpec = obj({
  request: atomicBytes().proto(1).required().desc('The PEM-encoded PKCS#10 certificate request; immutable.'),
  signerName: str().proto(7, { keepZero: true }).required().desc('The signer asked to issue the certificate, such as "kubernetes.io/kube-apiserver-client"; immutable.'),
  expirationSeconds: int32().proto(8, { keepZero: true }).desc('The validity asked for, at least 600 seconds; the signer may choose otherwise.'),
  usages: list(str()).proto(5).atomic().desc('The key usages asked for, such as "digital signature" or "client auth".'),
  username: str().proto(2).desc('The user who created the request, set by the server.'),
  uid: str().proto(3).desc('The uid of the user who created the request, set by the server.'),
  groups: list(str()).proto(4).atomic().desc('The groups of the user who created the request, set by the server.'),
  extra: mapOf(list(str())).proto(6).desc('Extra attributes of the user who created the request, set by the server.'),
})
  .id(`${PKG}.CertificateSigningRequestSpec`)
  .desc('The certificate asked for and who asked for it.');

export const CertificateSigningRequestCondition = obj({
  type: str().proto(1, { always: true }).required().desc('Approved, Denied, Failed, or another type.'),
  status: str().proto(6, { always: true }).required().desc('True, False or Unknown.'),
  reason: str().proto(2).desc('A brief machine-readable reason for the condition.'),
  message: str().proto(3).desc('A human-readable explanation of the condition.'),
  lastUpdateTime: ref(Time).proto(4, { always: true }).desc('When the condition was last updated.'),
  lastTransitionTime: ref(Time).proto(5, { always: true }).desc('When the status last changed.'),
})
  .id(`${PKG}.CertificateSigningRequestCondition`)
  .desc('One approval or failure condition of a request.');

export const CertificateSigningRequestStatus = obj({
  conditions: list(CertificateSigningRequestCondition).proto(1).map('type').desc('Approval, denial and failure conditions.'),
  certificate: atomicBytes().proto(2).desc('The issued PEM certificate chain, written by the signer once approved.'),
})
  .id(`${PKG}.CertificateSigningRequestStatus`)
  .desc('The approval state of a request and the issued certificate.');

export const CertificateSigningRequest = kind(
  {
    spec: ref(CertificateSigningRequestSpec).proto(2).desc('The request; immutable.'),
    status: ref(CertificateSigningRequestStatus).proto(3).desc('Approval conditions and the issued certificate.'),
  },
  { required: ['spec'] },
)
  .id(`${PKG}.CertificateSigningRequest`)
  .desc('A request that a signer issue an X.509 certificate.');
