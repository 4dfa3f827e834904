// The request-header authenticator alone, with certificates made as the PKI
// makes them: which chains it believes, what it reads, and that it removes the
// identity headers it used (and only after a successful authentication).
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { issueClientCertificate, newCertificateAuthority } from '../server/pki.js';
import { AuthenticationError } from './authenticator.js';
import { RequestHeaderAuthenticator } from './requestheader.js';

describe('request-header authenticator', () => {
  let rh: RequestHeaderAuthenticator;
  let proxy: X509Certificate[];
  let other: X509Certificate[];
  let stranger: X509Certificate[];
  before(async () => {
    const ca = await newCertificateAuthority();
    proxy = [new X509Certificate((await issueClientCertificate(ca, 'front-proxy')).cert)];
    other = [new X509Certificate((await issueClientCertificate(ca, 'someone-else')).cert)];
    stranger = [new X509Certificate((await issueClientCertificate(await newCertificateAuthority(), 'front-proxy')).cert)];
    rh = new RequestHeaderAuthenticator({
      clientCA: [new X509Certificate(ca.cert)], usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'], allowedNames: ['front-proxy'],
    });
  });

  const request = (chain: X509Certificate[] | undefined, raw: string[]) => {
    const headers: Record<string, string> = {};
    for (let i = 0; i < raw.length; i += 2) headers[raw[i]!.toLowerCase()] = raw[i + 1]!;
    return { headers, rawHeaders: [...raw], ...(chain ? { peerChain: chain } : {}) };
  };

  it('reads user, groups and extras, then removes exactly those headers', () => {
    const req = request(proxy, ['X-Remote-User', 'jane', 'X-Remote-Group', 'a', 'X-REMOTE-GROUP', 'b', 'X-Remote-Extra-Key%41', 'v', 'Accept', 'x']);
    assert.deepEqual(rh.authenticate(req), { user: { name: 'jane', groups: ['a', 'b'], extra: { keyA: ['v'] } } }); // lower-cased first, then decoded (kube's order): %41 stays 'A'
    assert.deepEqual(req.rawHeaders, ['Accept', 'x']);
    assert.deepEqual(req.headers, { accept: 'x' });
  });

  it('leaves the headers alone when it does not authenticate', () => {
    const req = request(proxy, ['X-Remote-Group', 'a']);
    assert.equal(rh.authenticate(req), null);
    assert.deepEqual(req.rawHeaders, ['X-Remote-Group', 'a']);
  });

  const refused: [string, () => X509Certificate[] | undefined, RegExp | null][] = [
    ['no certificate: not its request', () => undefined, null],
    ['CN not in the allowed names', () => other, /subject with cn=someone-else is not in the allowed list/],
    ['another CA, same CN', () => stranger, /certificate signed by unknown authority/],
  ];
  for (const [name, chain, err] of refused) {
    it(name, () => {
      const req = request(chain(), ['X-Remote-User', 'jane']);
      if (err) assert.throws(() => rh.authenticate(req), (e: unknown) => e instanceof AuthenticationError && err.test(e.message));
      else assert.equal(rh.authenticate(req), null);
      assert.deepEqual(req.rawHeaders, ['X-Remote-User', 'jane'], 'headers untouched');
    });
  }

  it('refuses a configuration without username headers or CA', () => {
    assert.throws(() => new RequestHeaderAuthenticator({ clientCA: proxy, usernameHeaders: [] }), /at least one header/);
    assert.throws(() => new RequestHeaderAuthenticator({ clientCA: [], usernameHeaders: ['X'] }), /holds no certificate/);
    assert.throws(() => new RequestHeaderAuthenticator({ clientCA: proxy, usernameHeaders: [' '] }), /empty username header/);
  });
});
