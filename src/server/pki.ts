// PKI for the all-in-one server. On first start with no certificates given it
// writes into <dataDir>/pki/:
//
//   ca.crt, ca.key                 self-signed CA (ECDSA P-256, 10 years)
//   apiserver.crt, apiserver.key   serving certificate: SANs localhost, 127.0.0.1, ::1,
//                                  the bind address and any extra hosts (1 year)
//   admin.crt, admin.key           client certificate CN=admin, O=system:masters (1 year)
//
// Later starts load the same files (keys stay 0600). A leaf that is missing,
// not signed by the CA, near expiry, or (for serving) missing a requested host
// is issued again; an expired CA is replaced together with its leaves; a CA
// with one of its two files missing or unreadable is an error, never silently
// replaced. @peculiar/x509 builds the certificates; node:crypto verifies them
// (verifyClientCertificate: the x509 authenticator's check, CN → user, O → groups).
import * as x509 from '@peculiar/x509';
import { createPrivateKey, webcrypto, X509Certificate } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

// @peculiar/x509 signs through a process-wide WebCrypto provider; node's is the one.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export interface PemKeyPair {
  readonly cert: string;
  readonly key: string;
}

export interface Pki {
  /** <dataDir>/pki */
  readonly dir: string;
  readonly ca: PemKeyPair;
  readonly serving: PemKeyPair;
  readonly admin: PemKeyPair;
  /** Files this call wrote; empty when everything was loaded. */
  readonly written: readonly string[];
}

export interface PkiOptions {
  readonly dataDir: string;
  /** Added to the serving certificate unless it is a wildcard address (0.0.0.0, ::). */
  readonly bindAddress?: string;
  /** More DNS names or IP addresses for the serving certificate. */
  readonly extraHosts?: readonly string[];
  /** The clock, for tests. */
  readonly now?: Date;
}

export const PKI_FILES = {
  caCert: 'ca.crt', caKey: 'ca.key',
  servingCert: 'apiserver.crt', servingKey: 'apiserver.key',
  adminCert: 'admin.crt', adminKey: 'admin.key',
} as const;

export const ADMIN_USER = { name: 'admin', groups: ['system:masters'] } as const;

const DAY = 86_400_000;
const CA_DAYS = 3650;
const LEAF_DAYS = 365;
/** Leaves closer than this to expiry are issued again at start. */
const RENEW_BEFORE = 30 * DAY;
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/** Loads the PKI in <dataDir>/pki, creating whatever is missing or stale. */
export async function ensurePki(opts: PkiOptions): Promise<Pki> {
  const now = opts.now ?? new Date();
  const dir = join(opts.dataDir, 'pki');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const written: string[] = [];
  const save = async (pair: PemKeyPair, certFile: string, keyFile: string): Promise<PemKeyPair> => {
    await writeAtomic(join(dir, keyFile), pair.key, 0o600);
    await writeAtomic(join(dir, certFile), pair.cert, 0o644);
    written.push(certFile, keyFile);
    return pair;
  };

  const ca = (await loadCa(dir, now)) ?? (await save(await createCa(now), PKI_FILES.caCert, PKI_FILES.caKey));
  const caCert = new X509Certificate(ca.cert);
  const leaf = async (spec: LeafSpec, certFile: string, keyFile: string): Promise<PemKeyPair> => {
    const have = await readPair(dir, certFile, keyFile);
    if (have && leafStillGood(have, caCert, spec, now)) return have;
    return save(await issueLeaf(ca, spec, now), certFile, keyFile);
  };
  const serving = await leaf({ kind: 'serving', hosts: servingHosts(opts) }, PKI_FILES.servingCert, PKI_FILES.servingKey);
  const admin = await leaf({ kind: 'client', ...ADMIN_USER }, PKI_FILES.adminCert, PKI_FILES.adminKey);
  return { dir, ca, serving, admin, written };
}

/** The serving certificate's SANs: loopback names first, then the bind address and extras, without duplicates. */
export function servingHosts(opts: Pick<PkiOptions, 'bindAddress' | 'extraHosts'>): string[] {
  const wildcard = new Set(['', '0.0.0.0', '::', '[::]']);
  const hosts = ['localhost', '127.0.0.1', '::1'];
  if (opts.bindAddress !== undefined && !wildcard.has(opts.bindAddress)) hosts.push(opts.bindAddress);
  hosts.push(...(opts.extraHosts ?? []));
  return [...new Set(hosts.map((h) => h.replace(/^\[(.*)\]$/, '$1')))];
}

// ---- verification ----

export interface CertificateUser {
  readonly name: string;
  readonly groups: readonly string[];
}

export type ClientCertificateResult =
  | { readonly ok: true; readonly user: CertificateUser }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks a client's chain (leaf first, then any intermediates it sent) against
 * trusted roots: every certificate in the path within its validity period,
 * each signed by the next (node's checkIssued + verify), intermediates marked
 * CA, extended key usages (where present) allowing client auth. The user is
 * the leaf's CommonName; its Organizations are the groups.
 */
export function verifyClientCertificate(
  chain: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date = new Date(),
): ClientCertificateResult {
  const leaf = chain[0];
  if (!leaf) return { ok: false, reason: 'no client certificate' };
  const path = pathToRoot(leaf, chain.slice(1), roots, now, 0);
  if (!path) {
    const reason = withinValidity(leaf, now) ? 'certificate signed by unknown authority' : 'certificate has expired or is not yet valid';
    return { ok: false, reason };
  }
  if (!path.every(allowsClientAuth)) return { ok: false, reason: 'certificate specifies an incompatible key usage' };
  const user = certificateUser(leaf);
  return user.name === '' ? { ok: false, reason: 'certificate has no common name' } : { ok: true, user };
}

/**
 * verifyClientCertificate for a chain the authentication filter keeps per connection: the
 * answer is remembered per (chain, roots), so a connection costs one verification, not one
 * per request. Validity periods are checked again after a minute.
 */
export function verifyClientCertificateCached(chain: readonly X509Certificate[], roots: readonly X509Certificate[]): ClientCertificateResult {
  let byRoots = verified.get(chain);
  if (!byRoots) verified.set(chain, (byRoots = new WeakMap()));
  const hit = byRoots.get(roots);
  const now = Date.now();
  if (hit && now - hit.at < 60_000) return hit.result;
  const result = verifyClientCertificate(chain, roots, new Date(now));
  byRoots.set(roots, { result, at: now });
  return result;
}
const verified = new WeakMap<readonly X509Certificate[], WeakMap<readonly X509Certificate[], { result: ClientCertificateResult; at: number }>>();

/** The user a client certificate names: the (last) CN, and every O in order. */
export function certificateUser(cert: X509Certificate): CertificateUser {
  const subject = new x509.X509Certificate(cert.raw).subjectName;
  return { name: subject.getField('CN').at(-1) ?? '', groups: subject.getField('O') };
}

/** Every certificate in a PEM bundle (a --client-ca-file may hold several). */
export function parseCertificateBundle(pem: string): X509Certificate[] {
  return x509.PemConverter.decode(pem).map((der) => new X509Certificate(Buffer.from(der)));
}

/** The chain a TLS peer presented, leaf first, as node reports it. */
export function peerCertificateChain(socket: TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  for (let c = socket.getPeerCertificate(true); c?.raw && !seen.has(c.fingerprint256); c = c.issuerCertificate) {
    seen.add(c.fingerprint256);
    chain.push(new X509Certificate(c.raw));
  }
  return chain;
}

const MAX_INTERMEDIATES = 8;

function pathToRoot(
  cert: X509Certificate, pool: readonly X509Certificate[], roots: readonly X509Certificate[], now: Date, depth: number,
): X509Certificate[] | undefined {
  if (!withinValidity(cert, now)) return undefined;
  const root = roots.find((r) => withinValidity(r, now) && signedBy(cert, r));
  if (root) return [cert, root];
  if (depth >= MAX_INTERMEDIATES) return undefined;
  for (const parent of pool) {
    if (!parent.ca || !signedBy(cert, parent)) continue;
    const rest = pathToRoot(parent, pool.filter((p) => p !== parent), roots, now, depth + 1);
    if (rest) return [cert, ...rest];
  }
  return undefined;
}

function signedBy(child: X509Certificate, parent: X509Certificate): boolean {
  return child.checkIssued(parent) && child.verify(parent.publicKey);
}

function withinValidity(cert: X509Certificate, now: Date): boolean {
  return Date.parse(cert.validFrom) <= now.getTime() && now.getTime() <= Date.parse(cert.validTo);
}

function allowsClientAuth(cert: X509Certificate): boolean {
  const usages = cert.keyUsage ?? []; // node's name for the extended key usages
  return usages.length === 0 || usages.includes(CLIENT_AUTH) || usages.includes(ANY_EXTENDED_KEY_USAGE);
}

// ---- issuing ----

type LeafSpec =
  | { readonly kind: 'serving'; readonly hosts: readonly string[]; readonly commonName?: string }
  | { readonly kind: 'client'; readonly name: string; readonly groups: readonly string[] };

async function createCa(now: Date, commonName = 'svc-ca'): Promise<PemKeyPair> {
  const keys = await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [commonName] }],
    keys,
    signingAlgorithm: SIGNING,
    ...validity(now, CA_DAYS),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: pem(cert), key: await keyPem(keys.privateKey) };
}

async function issueLeaf(ca: PemKeyPair, spec: LeafSpec, now: Date): Promise<PemKeyPair> {
  const issuer = new x509.X509Certificate(ca.cert);
  const signingKey = await importEcKey(ca.key);
  const keys = await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const caKeyId = issuer.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ...(caKeyId ? [new x509.AuthorityKeyIdentifierExtension(caKeyId)] : []),
  ];
  let subject: x509.JsonName;
  if (spec.kind === 'serving') {
    subject = [{ CN: [spec.commonName ?? 'svc-apiserver'] }];
    extensions.push(
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(spec.hosts.map((h) => ({ type: isIP(h) ? 'ip' : 'dns', value: h }))),
    );
  } else {
    subject = [{ CN: [spec.name] }, ...spec.groups.map((g) => ({ O: [g] }))];
    extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]));
  }
  const cert = await x509.X509CertificateGenerator.create({
    subject, issuer: issuer.subjectName, publicKey: keys.publicKey, signingKey, signingAlgorithm: SIGNING,
    ...validity(now, LEAF_DAYS), extensions,
  });
  return { cert: pem(cert), key: await keyPem(keys.privateKey) };
}

function validity(now: Date, days: number): { notBefore: Date; notAfter: Date } {
  // a little back-dated, for clocks that run behind ours
  return { notBefore: new Date(now.getTime() - 5 * 60_000), notAfter: new Date(now.getTime() + days * DAY) };
}

function pem(cert: x509.X509Certificate): string {
  return `${cert.toString('pem')}\n`;
}

async function keyPem(key: webcrypto.CryptoKey): Promise<string> {
  return `${x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY')}\n`;
}

/** Any PEM EC P-256 private key (PKCS#8 or SEC1) as a WebCrypto signing key. */
async function importEcKey(keyPemText: string): Promise<webcrypto.CryptoKey> {
  const key = createPrivateKey(keyPemText);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('the CA key must be an ECDSA P-256 key');
  }
  return webcrypto.subtle.importKey('pkcs8', key.export({ type: 'pkcs8', format: 'der' }), EC_KEY, false, ['sign']);
}

// ---- loading ----

async function readPair(dir: string, certFile: string, keyFile: string): Promise<PemKeyPair | undefined> {
  const [cert, key] = await Promise.all([readOptional(join(dir, certFile)), readOptional(join(dir, keyFile))]);
  return cert !== undefined && key !== undefined ? { cert, key } : undefined;
}

async function loadCa(dir: string, now: Date): Promise<PemKeyPair | undefined> {
  const [cert, key] = await Promise.all([readOptional(join(dir, PKI_FILES.caCert)), readOptional(join(dir, PKI_FILES.caKey))]);
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) {
    throw new Error(`${dir}: found only one of ${PKI_FILES.caCert} and ${PKI_FILES.caKey}; restore the other or remove both`);
  }
  const parsed = new X509Certificate(cert);
  if (!parsed.ca || !parsed.checkPrivateKey(createPrivateKey(key))) {
    throw new Error(`${dir}: ${PKI_FILES.caCert} is not a CA certificate for ${PKI_FILES.caKey}`);
  }
  return withinValidity(parsed, now) ? { cert, key } : undefined;
}

function leafStillGood(pair: PemKeyPair, ca: X509Certificate, spec: LeafSpec, now: Date): boolean {
  try {
    const cert = new X509Certificate(pair.cert);
    if (!cert.checkPrivateKey(createPrivateKey(pair.key))) return false;
    if (!signedBy(cert, ca) || !withinValidity(cert, now)) return false;
    if (Date.parse(cert.validTo) - now.getTime() < RENEW_BEFORE) return false;
    if (spec.kind === 'serving') return spec.hosts.every((h) => (isIP(h) ? cert.checkIP(h) : cert.checkHost(h)) !== undefined);
    const user = certificateUser(cert);
    return user.name === spec.name && spec.groups.every((g) => user.groups.includes(g)) && allowsClientAuth(cert);
  } catch {
    return false; // unreadable: issue a new one
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Writes through a temporary file and a rename, so a crash never leaves half a key. */
export async function writeAtomic(file: string, data: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data, { mode });
  await chmod(tmp, mode); // in case a stale temporary file kept other bits
  await rename(tmp, file);
}

/** The data directory's CA (for `svc certs user`); an error saying what to do when there is none. */
export async function loadCertificateAuthority(dataDir: string, now: Date = new Date()): Promise<PemKeyPair> {
  const dir = join(dataDir, 'pki');
  const ca = await loadCa(dir, now);
  if (!ca) throw new Error(`no valid certificate authority in ${dir} (${PKI_FILES.caCert}, ${PKI_FILES.caKey}): start the server once with --data-dir ${dataDir} to generate it`);
  return ca;
}

// ---- certificates made the way the PKI makes them (tests, `svc certs user`) ----

/** A fresh self-signed CA (ECDSA P-256), as the generated PKI's. */
export function newCertificateAuthority(now: Date = new Date(), commonName = 'svc-ca'): Promise<PemKeyPair> {
  return createCa(now, commonName);
}

/** A serving certificate for `hosts` (DNS names or IPs) signed by `ca`, valid for a year (the node agent's self-signed pair). */
export function issueServingCertificate(ca: PemKeyPair, hosts: readonly string[], commonName = 'svc-apiserver', now: Date = new Date()): Promise<PemKeyPair> {
  return issueLeaf(ca, { kind: 'serving', hosts, commonName }, now);
}

/** A client certificate (CN=name, one O per group) signed by `ca`, valid for a year. */
export function issueClientCertificate(ca: PemKeyPair, name: string, groups: readonly string[] = [], now: Date = new Date()): Promise<PemKeyPair> {
  return issueLeaf(ca, { kind: 'client', name, groups }, now);
}

const KEY_USAGES: Record<string, number> = {
  'signing': x509.KeyUsageFlags.digitalSignature, 'digital signature': x509.KeyUsageFlags.digitalSignature,
  'content commitment': x509.KeyUsageFlags.nonRepudiation, 'key encipherment': x509.KeyUsageFlags.keyEncipherment,
  'key agreement': x509.KeyUsageFlags.keyAgreement, 'data encipherment': x509.KeyUsageFlags.dataEncipherment,
  'cert sign': x509.KeyUsageFlags.keyCertSign, 'crl sign': x509.KeyUsageFlags.cRLSign,
  'encipher only': x509.KeyUsageFlags.encipherOnly, 'decipher only': x509.KeyUsageFlags.decipherOnly,
};
const EXT_KEY_USAGES: Record<string, string> = {
  'any': '2.5.29.37.0', 'server auth': '1.3.6.1.5.5.7.3.1', 'client auth': CLIENT_AUTH, 'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4', 's/mime': '1.3.6.1.5.5.7.3.4', 'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6', 'ipsec user': '1.3.6.1.5.5.7.3.7', 'timestamping': '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9', 'microsoft sgc': '1.3.6.1.4.1.311.10.3.3', 'netscape sgc': '2.16.840.1.113730.4.1',
};

/**
 * A certificate for a PKCS#10 request (its subject, public key and SANs),
 * signed by `ca` with the CSR's usages (kube's names), back-dated five
 * minutes, valid until `notAfter` but never past the CA (kube's
 * LocalSigner). Returns the PEM of the certificate.
 */
export async function signCertificateRequest(ca: PemKeyPair, request: x509.Pkcs10CertificateRequest, usages: readonly string[], notAfter: Date, now: Date = new Date()): Promise<string> {
  const issuer = new x509.X509Certificate(ca.cert);
  const signingKey = await importEcKey(ca.key);
  let flags = 0;
  const ext: string[] = [];
  for (const u of usages) {
    if (KEY_USAGES[u] !== undefined) flags |= KEY_USAGES[u]!;
    else if (EXT_KEY_USAGES[u] !== undefined) ext.push(EXT_KEY_USAGES[u]!);
  }
  const caKeyId = issuer.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  const san = (request.getExtension('2.5.29.17') as x509.SubjectAlternativeNameExtension | null);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    ...(flags ? [new x509.KeyUsagesExtension(flags, true)] : []),
    ...(ext.length > 0 ? [new x509.ExtendedKeyUsageExtension(ext)] : []),
    ...(caKeyId ? [new x509.AuthorityKeyIdentifierExtension(caKeyId)] : []),
    ...(san ? [new x509.SubjectAlternativeNameExtension(san.names.toJSON())] : []),
  ];
  const end = Math.min(notAfter.getTime(), new Date(issuer.notAfter).getTime());
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(), subject: request.subjectName, issuer: issuer.subjectName, publicKey: request.publicKey, signingKey, signingAlgorithm: SIGNING,
    notBefore: new Date(now.getTime() - 5 * 60_000), notAfter: new Date(end), extensions,
  });
  return pem(cert);
}

function randomSerial(): string {
  const b = webcrypto.getRandomValues(new Uint8Array(16));
  b[0]! &= 0x7f; // positive
  return Buffer.from(b).toString('hex');
}
