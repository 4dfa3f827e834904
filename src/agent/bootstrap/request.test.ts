import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { clientUsages, digestedName, generateKeyPem, nodeRequestPem, parseKey } from './request.js';

describe('the node\'s certificate request', () => {
  it('an ECDSA P-256 key in SEC1 PEM, as Go\'s keyutil writes it', () => {
    const pem = generateKeyPem();
    assert.match(pem, /^-----BEGIN EC PRIVATE KEY-----\n/);
    const key = parseKey(pem)!;
    assert.equal(key.asymmetricKeyType, 'ec');
    assert.equal(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.equal(parseKey('not a key'), undefined);
  });

  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = parseKey(generateKeyPem())!;
  const usageRows: [string, typeof ec, string[]][] = [
    ['ECDSA: digital signature and client auth', ec, ['digital signature', 'client auth']],
    ['RSA: key encipherment too', rsa, ['digital signature', 'key encipherment', 'client auth']],
  ];
  for (const [name, key, want] of usageRows) it(`usages — ${name}`, () => assert.deepEqual(clientUsages(key), want));

  for (const [name, key] of [['ECDSA', ec], ['RSA', rsa]] as const) {
    it(`a PKCS#10 request for O=system:nodes, CN=system:node:<name>, signed by the ${name} key`, async () => {
      const req = new x509.Pkcs10CertificateRequest(await nodeRequestPem(key, 'n1'));
      assert.deepEqual(req.subjectName.getField('CN'), ['system:node:n1']);
      assert.deepEqual(req.subjectName.getField('O'), ['system:nodes']);
      assert.ok(await req.verify(), 'self-signed with the key');
      assert.deepEqual(Buffer.from(req.publicKey.rawData), createPublicKey(key).export({ type: 'spki', format: 'der' }));
    });
  }

  it('the bootstrap name: node-csr- and the digest of the public key, subject and usages', () => {
    const usages = ['digital signature', 'client auth'];
    const name = digestedName(ec, 'system:node:n1', ['system:nodes'], usages);
    const h = createHash('sha512-256');
    for (const part of [createPublicKey(ec).export({ type: 'spki', format: 'der' }), Buffer.from('system:node:n1'), Buffer.from('system:nodes'), ...usages.map((u) => Buffer.from(u))]) {
      h.update(`${part.toString('base64url')}|`);
    }
    assert.equal(name, `node-csr-${h.digest('base64url')}`);
    assert.equal(digestedName(ec, 'system:node:n1', ['system:nodes'], usages), name, 'the same request, the same name');
    // each part counts, and parts cannot run into each other
    assert.notEqual(digestedName(ec, 'system:node:n2', ['system:nodes'], usages), name);
    assert.notEqual(digestedName(ec, 'system:node:n1system:nodes', [], usages), name);
    assert.notEqual(digestedName(parseKey(generateKeyPem())!, 'system:node:n1', ['system:nodes'], usages), name);
  });
});
