// Service-account token keys: the PEM files of --service-account-key-file
// (RSA or ECDSA, private or public keys or certificates, several blocks per
// file — kube's keyutil.PublicKeysFromFile), the signing key of
// --service-account-signing-key-file, and the key `svc server` generates on
// first start (<data-dir>/pki/sa.key and sa.pub, RSA 2048 as kubeadm makes it).
//
// Each public key gets kube's key id: base64url(sha256(DER SubjectPublicKeyInfo)),
// and its JWS algorithm: RS256 for RSA, ES256/ES384/ES512 by the curve.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic } from '../../server/pki.js';

export type SigningAlg = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface PublicKeyInfo {
  readonly key: KeyObject;
  readonly kid: string;
  readonly alg: SigningAlg;
}

export interface SigningKey extends PublicKeyInfo {
  readonly privateKey: KeyObject;
}

export const SA_KEY_FILES = { key: 'sa.key', pub: 'sa.pub' } as const;

const CURVE_ALG: Record<string, SigningAlg> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** RS256 for RSA keys, ES256/384/512 for the NIST curves; undefined for anything else. */
export function algorithmFor(key: KeyObject): SigningAlg | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return CURVE_ALG[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

/** kube's keyIDFromPublicKey: the unpadded base64url SHA-256 of the key's DER SubjectPublicKeyInfo. */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

function publicInfo(key: KeyObject): PublicKeyInfo | undefined {
  const alg = algorithmFor(key);
  return alg ? { key, kid: keyId(key), alg } : undefined;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/**
 * Every RSA or ECDSA public key in PEM text: private keys (PKCS#1, SEC1,
 * PKCS#8) give their public half, public keys and certificates theirs; other
 * blocks are tolerated, as kube does. None at all is an error.
 */
export function publicKeysFromPem(pem: string, source: string): PublicKeyInfo[] {
  const keys: PublicKeyInfo[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const block = m[0];
    const type = m[1]!;
    let key: KeyObject | undefined;
    try {
      if (type === 'CERTIFICATE') key = new X509Certificate(block).publicKey;
      else if (type.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(block));
      else if (type.endsWith('PUBLIC KEY')) key = createPublicKey(block);
    } catch {
      key = undefined; // not a key we can read: tolerated
    }
    const info = key && publicInfo(key);
    if (info) keys.push(info);
  }
  if (keys.length === 0) throw new Error(`${source}: data does not contain any valid RSA or ECDSA public keys`);
  return keys;
}

export function publicKeysFromFile(file: string): PublicKeyInfo[] {
  return publicKeysFromPem(readFileSync(file, 'utf8'), file);
}

/** The first RSA or ECDSA private key of PEM text, for signing. */
export function signingKeyFromPem(pem: string, source: string): SigningKey {
  for (const m of pem.matchAll(PEM_BLOCK)) {
    if (!m[1]!.endsWith('PRIVATE KEY')) continue;
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(m[0]);
    } catch {
      continue;
    }
    const info = publicInfo(createPublicKey(privateKey));
    if (info) return { ...info, privateKey };
  }
  throw new Error(`${source}: failed to parse service account signing key: no RSA or ECDSA private key found`);
}

export function signingKeyFromFile(file: string): SigningKey {
  return signingKeyFromPem(readFileSync(file, 'utf8'), file);
}

/**
 * The generated signing key in <dataDir>/pki: loaded when present, else an
 * RSA 2048 key written as sa.key (PKCS#8, 0600) with its public half in sa.pub.
 */
export async function ensureServiceAccountKey(dataDir: string): Promise<{ key: SigningKey; keyFile: string; written: boolean }> {
  const dir = join(dataDir, 'pki');
  const keyFile = join(dir, SA_KEY_FILES.key);
  let pem: string | undefined;
  try {
    pem = await readFile(keyFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (pem !== undefined) return { key: signingKeyFromPem(pem, keyFile), keyFile, written: false };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  await writeAtomic(join(dir, SA_KEY_FILES.pub), publicKey.export({ type: 'spki', format: 'pem' }) as string, 0o644);
  await writeAtomic(keyFile, keyPem, 0o600);
  return { key: signingKeyFromPem(keyPem, keyFile), keyFile, written: true };
}
