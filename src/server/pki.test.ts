// PKI tests: files and modes, idempotent reloads and renewals, a real TLS
// handshake with the admin certificate, and client-certificate verification
// (foreign CA, wrong usage, expiry, intermediates).
import * as x509 from '@peculiar/x509';
import assert from 'node:assert/strict';
import { webcrypto, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import {
  ensurePki, parseCertificateBundle, peerCertificateChain, PKI_FILES, servingHosts, verifyClientCertificate,
  type ClientCertificateResult, type PemKeyPair, type Pki,
} from './pki.js';

const DAY = 86_400_000;
const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'svc-pki-'));
  dirs.push(d);
  return d;
}
after(async () => { await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))); });

const cert = (pem: string): X509Certificate => new X509Certificate(pem);

describe('ensurePki', () => {
  let dataDir: string;
  let pki: Pki;
  before(async () => {
    dataDir = await tempDir();
    pki = await ensurePki({ dataDir, bindAddress: '10.11.12.13', extraHosts: ['svc.example.test', '192.0.2.7'] });
  });

  it('writes a CA, a serving and an admin certificate, keys 0600', async () => {
    assert.equal(pki.dir, join(dataDir, 'pki'));
    assert.deepEqual([...pki.written].sort(), Object.values(PKI_FILES).sort());
    assert.equal((await stat(pki.dir)).mode & 0o777, 0o700);
    for (const f of [PKI_FILES.caKey, PKI_FILES.servingKey, PKI_FILES.adminKey]) {
      assert.equal((await stat(join(pki.dir, f))).mode & 0o777, 0o600, f);
    }
    assert.equal(await readFile(join(pki.dir, PKI_FILES.caCert), 'utf8'), pki.ca.cert);
    assert.equal(await readFile(join(pki.dir, PKI_FILES.adminKey), 'utf8'), pki.admin.key);
  });

  it('makes a self-signed CA and leaves it signed', () => {
    const ca = cert(pki.ca.cert);
    assert.ok(ca.ca);
    assert.ok(ca.checkIssued(ca) && ca.verify(ca.publicKey));
    for (const leaf of [pki.serving, pki.admin].map((p) => cert(p.cert))) {
      assert.equal(leaf.ca, false);
      assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
      assert.ok(Date.parse(leaf.validTo) - Date.now() > 300 * DAY);
    }
  });

  it('covers loopback, the bind address and extra hosts in the serving certificate', () => {
    const serving = cert(pki.serving.cert);
    for (const host of ['localhost', 'svc.example.test']) assert.equal(serving.checkHost(host), host);
    for (const ip of ['127.0.0.1', '::1', '10.11.12.13', '192.0.2.7']) assert.ok(serving.checkIP(ip), ip);
    assert.equal(serving.checkHost('other.example.test'), undefined);
    assert.deepEqual(serving.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  });

  it('names the admin user CN=admin, O=system:masters', () => {
    assert.match(cert(pki.admin.cert).subject, /CN=admin/);
    assert.deepEqual(check(pki.admin, pki), { ok: true, user: { name: 'admin', groups: ['system:masters'] } });
  });

  it('loads the same files on the next start', async () => {
    const again = await ensurePki({ dataDir, bindAddress: '10.11.12.13', extraHosts: ['192.0.2.7', 'svc.example.test'] });
    assert.deepEqual(again.written, []);
    assert.deepEqual([again.ca, again.serving, again.admin], [pki.ca, pki.serving, pki.admin]);
  });

  it('reissues only the serving certificate for a new host', async () => {
    const d = await tempDir();
    const first = await ensurePki({ dataDir: d });
    const next = await ensurePki({ dataDir: d, extraHosts: ['new.example.test'] });
    assert.deepEqual([...next.written].sort(), [PKI_FILES.servingCert, PKI_FILES.servingKey]);
    assert.equal(next.ca.cert, first.ca.cert);
    assert.equal(next.admin.cert, first.admin.cert);
    assert.equal(cert(next.serving.cert).checkHost('new.example.test'), 'new.example.test');
  });

  it('reissues a leaf whose key is gone, with the same CA', async () => {
    const d = await tempDir();
    const first = await ensurePki({ dataDir: d });
    await unlink(join(first.dir, PKI_FILES.adminKey));
    const next = await ensurePki({ dataDir: d });
    assert.deepEqual([...next.written].sort(), [PKI_FILES.adminCert, PKI_FILES.adminKey]);
    assert.notEqual(next.admin.key, first.admin.key);
    assert.ok(check(next.admin, first).ok);
  });

  it('renews leaves near expiry and replaces an expired CA', async () => {
    const d = await tempDir();
    const first = await ensurePki({ dataDir: d });
    const late = await ensurePki({ dataDir: d, now: new Date(Date.now() + 340 * DAY) });
    assert.equal(late.ca.cert, first.ca.cert);
    assert.notEqual(late.serving.cert, first.serving.cert);
    assert.notEqual(late.admin.cert, first.admin.cert);
    const muchLater = await ensurePki({ dataDir: d, now: new Date(Date.now() + 11 * 365 * DAY) });
    assert.deepEqual([...muchLater.written].sort(), Object.values(PKI_FILES).sort());
  });

  it('refuses a CA with one of its files missing', async () => {
    const d = await tempDir();
    const first = await ensurePki({ dataDir: d });
    await unlink(join(first.dir, PKI_FILES.caKey));
    await assert.rejects(ensurePki({ dataDir: d }), /found only one of ca\.crt and ca\.key/);
  });

  it('refuses a CA certificate that does not match its key', async () => {
    const d = await tempDir();
    const first = await ensurePki({ dataDir: d });
    await writeFile(join(first.dir, PKI_FILES.caKey), pki.ca.key);
    await assert.rejects(ensurePki({ dataDir: d }), /not a CA certificate for ca\.key/);
  });
});

describe('servingHosts', () => {
  const rows: [bindAddress: string | undefined, extra: string[], want: string[]][] = [
    [undefined, [], ['localhost', '127.0.0.1', '::1']],
    ['0.0.0.0', [], ['localhost', '127.0.0.1', '::1']],
    ['::', [], ['localhost', '127.0.0.1', '::1']],
    ['127.0.0.1', [], ['localhost', '127.0.0.1', '::1']],
    ['192.0.2.1', ['host.test'], ['localhost', '127.0.0.1', '::1', '192.0.2.1', 'host.test']],
    ['[2001:db8::1]', ['2001:db8::1'], ['localhost', '127.0.0.1', '::1', '2001:db8::1']],
  ];
  for (const [bindAddress, extraHosts, want] of rows) {
    it(`${String(bindAddress)} + [${extraHosts.join(',')}]`, () => assert.deepEqual(servingHosts({ bindAddress, extraHosts }), want));
  }
});

describe('verifyClientCertificate', () => {
  let pki: Pki;
  let foreign: Pki;
  before(async () => {
    [pki, foreign] = await Promise.all([ensurePki({ dataDir: await tempDir() }), ensurePki({ dataDir: await tempDir() })]);
  });

  it('rejects a certificate from another CA', () =>
    assert.deepEqual(check(foreign.admin, pki), { ok: false, reason: 'certificate signed by unknown authority' }));
  it('accepts it when that CA is trusted too', () =>
    assert.ok(verifyClientCertificate([cert(foreign.admin.cert)], parseCertificateBundle(pki.ca.cert + foreign.ca.cert)).ok));
  it('rejects a serving-only certificate', () =>
    assert.deepEqual(check(pki.serving, pki), { ok: false, reason: 'certificate specifies an incompatible key usage' }));
  it('rejects an expired certificate', () =>
    assert.deepEqual(check(pki.admin, pki, new Date(Date.now() + 400 * DAY)),
      { ok: false, reason: 'certificate has expired or is not yet valid' }));
  it('rejects an empty chain', () =>
    assert.deepEqual(verifyClientCertificate([], [cert(pki.ca.cert)]), { ok: false, reason: 'no client certificate' }));
  it('rejects a forged certificate naming the CA as issuer', async () => {
    const forged = await signed({ subject: 'CN=admin, O=system:masters', issuer: 'CN=svc-ca', signer: await newKeys(), ca: false });
    assert.equal(verifyClientCertificate([forged.cert], [cert(pki.ca.cert)]).ok, false);
  });

  it('follows intermediates the client sends', async () => {
    const caKey = await importKey(pki.ca.key);
    const mid = await signed({ subject: 'CN=intermediate', issuer: 'CN=svc-ca', signer: caKey, ca: true });
    const leaf = await signed({ subject: 'CN=jane, O=dev, O=ops', issuer: 'CN=intermediate', signer: mid.keys, ca: false });
    const roots = [cert(pki.ca.cert)];
    assert.deepEqual(verifyClientCertificate([leaf.cert, mid.cert], roots), { ok: true, user: { name: 'jane', groups: ['dev', 'ops'] } });
    assert.equal(verifyClientCertificate([leaf.cert], roots).ok, false);
    const notCa = await signed({ subject: 'CN=intermediate', issuer: 'CN=svc-ca', signer: caKey, ca: false, keys: mid.keys });
    assert.equal(verifyClientCertificate([leaf.cert, notCa.cert], roots).ok, false);
  });
});

describe('TLS with the generated certificates', () => {
  let pki: Pki;
  let foreign: Pki;
  let port: number;
  let server: Server;
  before(async () => {
    [pki, foreign] = await Promise.all([ensurePki({ dataDir: await tempDir() }), ensurePki({ dataDir: await tempDir() })]);
    server = createServer({
      cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: false,
    }, (req, res) => {
      const socket = req.socket as TLSSocket;
      const result = verifyClientCertificate(peerCertificateChain(socket), parseCertificateBundle(pki.ca.cert));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ tlsAuthorized: socket.authorized, result }));
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  type Reply = { tlsAuthorized: boolean; result: ClientCertificateResult };
  const call = (client?: PemKeyPair): Promise<Reply> => new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: '/whoami', ca: pki.ca.cert, agent: false,
      ...(client ? { cert: client.cert, key: client.key } : {}),
    }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => resolve(JSON.parse(body) as Reply));
    });
    req.on('error', reject).end();
  });

  it('completes the handshake with the admin certificate and finds the user', async () => {
    assert.deepEqual(await call(pki.admin), { tlsAuthorized: true, result: { ok: true, user: { name: 'admin', groups: ['system:masters'] } } });
  });
  it('lets a client without a certificate in, unauthenticated', async () => {
    assert.deepEqual(await call(), { tlsAuthorized: false, result: { ok: false, reason: 'no client certificate' } });
  });
  it('rejects a client certificate from another CA', async () => {
    const reply = await call(foreign.admin);
    assert.equal(reply.tlsAuthorized, false);
    assert.deepEqual(reply.result, { ok: false, reason: 'certificate signed by unknown authority' });
  });
});

// ---- helpers ----

function check(client: PemKeyPair, trust: Pki, now?: Date): ClientCertificateResult {
  return verifyClientCertificate([cert(client.cert)], [cert(trust.ca.cert)], now);
}

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const newKeys = (): Promise<webcrypto.CryptoKeyPair> => webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
async function importKey(pem: string): Promise<webcrypto.CryptoKey> {
  return webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(pem), EC, false, ['sign']);
}

interface Signed { cert: X509Certificate; keys: webcrypto.CryptoKeyPair }
async function signed(o: {
  subject: string; issuer: string; signer: webcrypto.CryptoKey | webcrypto.CryptoKeyPair; ca: boolean; keys?: webcrypto.CryptoKeyPair;
}): Promise<Signed> {
  const keys = o.keys ?? await newKeys();
  const signingKey = 'privateKey' in o.signer ? o.signer.privateKey : o.signer;
  const made = await x509.X509CertificateGenerator.create({
    subject: o.subject, issuer: o.issuer, publicKey: keys.publicKey, signingKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' }, notBefore: new Date(Date.now() - 60_000),
    extensions: [new x509.BasicConstraintsExtension(o.ca, undefined, true)],
  });
  return { cert: new X509Certificate(made.toString('pem')), keys };
}
