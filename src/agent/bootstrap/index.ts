// The node agent's client certificate: TLS bootstrap with a bootstrap
// svcconfig (bootstrap.ts), the files in --cert-dir (store.ts), the request
// and its key (request.ts, csr.ts), the svcconfig written afterwards
// (svcconfig.ts) and renewal before expiry (rotation.ts).
export { loadClientCertificate, BootstrapError, type BootstrapOptions, type BootstrapResult } from './bootstrap.js';
export { ClientCertificateRotation, rotationDeadline, type RotationOptions } from './rotation.js';
export { CertStore, CURRENT_FILE, TMP_KEY_FILE, parsePair, type CertPair } from './store.js';
export { KUBELET_CLIENT_SIGNER, CertificateRequestError, requestCertificate, waitForCertificate } from './csr.js';
export { bootstrappedSvcconfig, svcconfigProblem } from './svcconfig.js';
