// Test material for certificates.svc.io: a fixed certificate request and CA
// certificate (ECDSA P-256, made once with @peculiar/x509; neither expires in
// any test's lifetime) for tests that only need valid objects, and
// generators for tests that need fresh keys or other algorithms.
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** A PKCS#10 request for CN=svc-test, self-signed with ECDSA P-256 / SHA-256. */
export const TEST_CSR_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHOMHUCAQAwEzERMA8GA1UEAxMIc3ZjLXRlc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQIxg2BzBjo46VznzIAiAdvwNL/l2cViUSperpfHLH+QrhpMBUrI2w9
Koojgt57UnHsQuuCuwu46seN0sCnCDVcoAAwCgYIKoZIzj0EAwIDSQAwRgIhAOVT
Vm5BrZqRIAMNsDn3Y1b3vNVHksEPProgVnMaHnedAiEAwhZjXsbqEBj9MpYIgf2u
vKQDvuqm6dc9fZjxUlnAcDQ=
-----END CERTIFICATE REQUEST-----
`;

/** A self-signed CA certificate (CN=svc-test-ca, basicConstraints CA, valid 2026–2126). */
export const TEST_CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBQDCB5qADAgECAgEBMAoGCCqGSM49BAMCMBYxFDASBgNVBAMTC3N2Yy10ZXN0
LWNhMCAXDTI2MDEwMTAwMDAwMFoYDzIxMjYwMTAxMDAwMDAwWjAWMRQwEgYDVQQD
EwtzdmMtdGVzdC1jYTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKqRareNZz5q
y41q0dcr6k+96gFB1nDcMwcTc08BaNG3OuLhzPu4nntJ2yUSAYaJ9zcCX6L0EWmG
9/t4HwqQ+P6jIzAhMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoG
CCqGSM49BAMCA0kAMEYCIQDwJ7Eo5+5N1sUV/2dxtWeQ0ONKfcrSwZ87AbppC2La
1AIhAOp+mIQgdX2+zqtCgVjlgmtONOs/FInwFO2lAWAVdWM6
-----END CERTIFICATE-----
`;

/** spec.request as JSON carries it: base64 of the PEM. */
export const TEST_CSR_REQUEST = Buffer.from(TEST_CSR_PEM).toString('base64');

/** The smallest valid CertificateSigningRequest spec. */
export const TEST_CSR_SPEC = { request: TEST_CSR_REQUEST, signerName: 'example.com/test-signer', usages: ['digital signature', 'client auth'] };

export type KeyAlgorithm = 'ecdsa' | 'rsa' | 'ed25519';

const ALGORITHMS: Record<KeyAlgorithm, { gen: Record<string, unknown>; sign: Record<string, unknown> }> = {
  ecdsa: { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
  rsa: { gen: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } },
  ed25519: { gen: { name: 'Ed25519' }, sign: { name: 'Ed25519' } },
};

async function keysFor(alg: KeyAlgorithm): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHMS[alg].gen as never, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

/** A fresh PEM certificate request (ending in a newline, so PEMs concatenate) for `subject` (e.g. 'CN=bob, O=dev'). */
export async function newCertificateRequestPem(subject: string, alg: KeyAlgorithm = 'ecdsa'): Promise<string> {
  const keys = await keysFor(alg);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({ name: subject, keys: keys as never, signingAlgorithm: ALGORITHMS[alg].sign as never });
  return `${req.toString('pem')}\n`;
}

/** A fresh self-signed certificate: a CA (basicConstraints CA:true), a leaf without basicConstraints, or one with CA:false. */
export async function newCertificatePem(subject: string, kind: 'ca' | 'leaf' | 'not-ca' = 'ca'): Promise<string> {
  const keys = await keysFor('ecdsa');
  const extensions = kind === 'ca' ? [new x509.BasicConstraintsExtension(true, undefined, true)] : kind === 'not-ca' ? [new x509.BasicConstraintsExtension(false, undefined, true)] : [];
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01', name: subject, notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2126-01-01T00:00:00Z'),
    keys: keys as never, signingAlgorithm: ALGORITHMS.ecdsa.sign as never, extensions,
  });
  return `${cert.toString('pem')}\n`;
}
