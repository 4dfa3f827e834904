import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PeerCertificate } from 'node:tls';
import { AuthenticationError, UnionAuthenticator } from './authenticator.js';
import { TokenFileAuthenticator, parseCsv } from './tokenfile.js';
import { TokenUnionAuthenticator } from './tokenunion.js';
import { X509Authenticator } from './x509.js';

const tokens = TokenFileAuthenticator.fromCsv('t1,alice,u1,"dev,ops"\nt2,bob,u2\n');
const union = new UnionAuthenticator([new X509Authenticator(), new TokenUnionAuthenticator([tokens])], { anonymous: true });
const cert = (cn: string, o: string[]) => ({ subject: { CN: cn, O: o }, serialNumber: '01' }) as unknown as PeerCertificate;

describe('authentication', () => {
  it('parses CSV with quoted groups', () => {
    assert.deepEqual(parseCsv('a,b,c,"x,y"\r\nd,"e ""q""",f\n'), [['a', 'b', 'c', 'x,y'], ['d', 'e "q"', 'f']]);
  });

  const cases: [string, Parameters<UnionAuthenticator['authenticate']>[0], { name: string; groups: string[] } | RegExp][] = [
    ['token with groups', { headers: { authorization: 'Bearer t1' } }, { name: 'alice', groups: ['dev', 'ops', 'system:authenticated'] }],
    ['token without groups', { headers: { authorization: 'bearer t2' } }, { name: 'bob', groups: ['system:authenticated'] }],
    ['invalid token', { headers: { authorization: 'Bearer nope' } }, /invalid bearer token/],
    ['client certificate', { headers: {}, peerCertificate: cert('admin', ['system:masters']), peerAuthorized: true }, { name: 'admin', groups: ['system:masters', 'system:authenticated'] }],
    ['certificate from an unknown CA', { headers: {}, peerCertificate: cert('eve', []), peerAuthorized: false, peerAuthorizationError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, /verifying certificate .*CN=eve failed/],
    ['nothing', { headers: {} }, { name: 'system:anonymous', groups: ['system:unauthenticated'] }],
  ];
  for (const [name, req, want] of cases) {
    it(name, async () => {
      if (want instanceof RegExp) {
        await assert.rejects(union.authenticate(req), (e: unknown) => e instanceof AuthenticationError && want.test(e.message));
      } else {
        const { user: u } = await union.authenticate(req);
        assert.equal(u.name, want.name);
        assert.deepEqual(u.groups, want.groups);
      }
    });
  }

  it('rejects anonymous requests when anonymous auth is off', async () => {
    const strict = new UnionAuthenticator([new TokenUnionAuthenticator([tokens])], { anonymous: false });
    await assert.rejects(strict.authenticate({ headers: {} }), AuthenticationError);
  });

  it('reports a malformed token file clearly', () => {
    assert.throws(() => TokenFileAuthenticator.fromCsv('only,two\n'), /line 1: token file needs at least 3 columns/);
  });
});
