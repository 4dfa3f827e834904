import assert from 'node:assert/strict';
import { lstatSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { issueClientCertificate, newCertificateAuthority } from '../../server/pki.js';
import { tempDir } from '../../testing/tempdir.js';
import { CertStore, parsePair } from './store.js';
import { rotationDeadline } from './rotation.js';
import { svcconfigProblem, bootstrappedSvcconfig } from './svcconfig.js';

describe('the client certificate store', () => {
  it('writes each pair to a timestamped file (certificate, then key; 0600) and moves the current link', async () => {
    const ca = await newCertificateAuthority();
    const a = await issueClientCertificate(ca, 'system:node:n1', ['system:nodes']);
    const b = await issueClientCertificate(ca, 'system:node:n1', ['system:nodes']);
    const dir = join(tempDir('svc-certstore-'), 'pki');
    let clock = new Date(2030, 0, 2, 3, 4, 5);
    const store = new CertStore(dir, () => clock);
    assert.equal(store.current(), undefined);
    const first = store.update(a.cert, a.key);
    assert.equal(first.leaf.serialNumber, parsePair(a.cert + a.key, 'x').leaf.serialNumber);
    clock = new Date(2030, 0, 2, 3, 4, 6);
    store.update(b.cert, b.key);
    assert.deepEqual(readdirSync(dir).sort(), ['kubelet-client-2030-01-02-03-04-05.pem', 'kubelet-client-2030-01-02-03-04-06.pem', 'kubelet-client-current.pem']);
    assert.equal(readlinkSync(store.currentPath), join(dir, 'kubelet-client-2030-01-02-03-04-06.pem'));
    const text = readFileSync(store.currentPath, 'utf8');
    assert.ok(text.indexOf('BEGIN CERTIFICATE') < text.indexOf('PRIVATE KEY'));
    assert.equal(lstatSync(join(dir, 'kubelet-client-2030-01-02-03-04-06.pem')).mode & 0o777, 0o600);
    assert.equal(store.current()!.keyPem.trim(), b.key.trim());
  });

  it('refuses a current file that is not a link, and data without a key', async () => {
    const ca = await newCertificateAuthority();
    const a = await issueClientCertificate(ca, 'x');
    const dir = tempDir('svc-certstore-');
    writeFileSync(join(dir, 'kubelet-client-current.pem'), a.cert + a.key);
    assert.throws(() => new CertStore(dir).update(a.cert, a.key), { name: 'CertStoreError', message: `expected ${JSON.stringify(join(dir, 'kubelet-client-current.pem'))} to be a symlink` });
    assert.throws(() => parsePair(a.cert, 'f.pem'), { name: 'CertStoreError', message: 'could not convert data from "f.pem" into cert/key pair' });
  });
});

describe('rotation deadline: 70–90 % of the lifetime after notBefore', () => {
  const pair = { notBefore: 1_000_000, notAfter: 1_000_000 + 100_000 };
  const rows: [number, number][] = [[0, 1_070_000], [0.5, 1_080_000], [1, 1_090_000]];
  for (const [random, want] of rows) it(`random ${random}`, () => assert.equal(rotationDeadline(pair, () => random), want));
});

describe('whether an existing svcconfig can be used (kube\'s isClientConfigStillValid)', () => {
  it('a missing file, a file without certificates, an expired certificate, a valid one', async () => {
    const dir = tempDir('svc-bootcfg-');
    const ca = await newCertificateAuthority(new Date(Date.now() - 2 * 365 * 86_400_000));
    const old = await issueClientCertificate(ca, 'system:node:n1', ['system:nodes'], new Date(Date.now() - 2 * 365 * 86_400_000));
    const fresh = await issueClientCertificate(await newCertificateAuthority(), 'system:node:n1', ['system:nodes']);
    writeFileSync(join(dir, 'old.pem'), old.cert + old.key);
    writeFileSync(join(dir, 'fresh.pem'), fresh.cert + fresh.key);
    const conn = { server: new URL('https://127.0.0.1:6443') };
    writeFileSync(join(dir, 'old.svcconfig'), bootstrappedSvcconfig(conn, join(dir, 'old.pem')));
    writeFileSync(join(dir, 'fresh.svcconfig'), bootstrappedSvcconfig(conn, join(dir, 'fresh.pem')));
    writeFileSync(join(dir, 'token.svcconfig'), bootstrappedSvcconfig(conn, 'x').replace(/client-certificate: x\n\s*client-key: x/, 'token: abc'));
    assert.equal(await svcconfigProblem(join(dir, 'missing.svcconfig')), `${join(dir, 'missing.svcconfig')} does not exist`);
    assert.equal(await svcconfigProblem(join(dir, 'token.svcconfig')), `unable to read TLS certificates from existing bootstrap client config read from ${join(dir, 'token.svcconfig')}`);
    assert.match((await svcconfigProblem(join(dir, 'old.svcconfig')))!, /^part of the existing bootstrap client certificate in .*old\.svcconfig is expired: /);
    assert.equal(await svcconfigProblem(join(dir, 'fresh.svcconfig')), undefined);
  });
});
