// The node's certificate request as the kubelet makes it: an ECDSA P-256 key
// (SEC1 PEM, "EC PRIVATE KEY", as Go's keyutil writes it), a PKCS#10 request
// for O=system:nodes, CN=system:node:<name>, the usages (digital signature +
// client auth; key encipherment too for an RSA key) and the bootstrap CSR's
// name digested from the public key, subject and usages (kube's
// digestedName: `node-csr-` + base64url(SHA-512/256 of each part
// base64url-encoded and ended by `|`)).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, webcrypto, type KeyObject } from 'node:crypto';
import { x509Library } from './x509lib.js';

export const NODES_ORG = 'system:nodes';
export const nodeCommonName = (nodeName: string) => `system:node:${nodeName}`;

/** A new ECDSA P-256 key as SEC1 PEM. */
export function generateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return privateKey.export({ type: 'sec1', format: 'pem' }) as string;
}

/** The private key of a PEM text, or undefined when it holds none (kube's verifyKeyData). */
export function parseKey(pem: string): KeyObject | undefined {
  try {
    return createPrivateKey(pem);
  } catch {
    return undefined;
  }
}

/** The usages the kubelet asks for with this key. */
export function clientUsages(key: KeyObject): string[] {
  return key.asymmetricKeyType === 'rsa' ? ['digital signature', 'key encipherment', 'client auth'] : ['digital signature', 'client auth'];
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** kube's digestedName of the bootstrap request. */
export function digestedName(key: KeyObject, commonName: string, organizations: readonly string[], usages: readonly string[]): string {
  const hash = createHash('sha512-256');
  const write = (data: Buffer | string) => {
    hash.update(b64url(data));
    hash.update('|');
  };
  write(createPublicKey(key).export({ type: 'spki', format: 'der' }));
  write(commonName);
  for (const o of organizations) write(o);
  for (const u of usages) write(u);
  return `node-csr-${hash.digest('base64url')}`;
}

/** The PEM of a PKCS#10 request for the node, signed with `key` (ECDSA P-256 or RSA). */
export async function nodeRequestPem(key: KeyObject, nodeName: string): Promise<string> {
  const x509 = await x509Library();
  const rsa = key.asymmetricKeyType === 'rsa';
  const alg = rsa ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', namedCurve: 'P-256' };
  const privateKey = await webcrypto.subtle.importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), alg, false, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('spki', createPublicKey(key).export({ type: 'spki', format: 'der' }), alg, true, ['verify']);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({
    // Go's pkix.Name order: O before CN
    name: [{ O: [NODES_ORG] }, { CN: [nodeCommonName(nodeName)] }],
    keys: { privateKey, publicKey },
    signingAlgorithm: rsa ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', hash: 'SHA-256' },
  });
  return `${req.toString('pem')}\n`;
}
