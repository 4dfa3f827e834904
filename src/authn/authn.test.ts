import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PeerCertificate } from 'node:tls';
import { AuthenticationError, UnionAuthenticator, bearerToken, type Authenticator } from './authenticator.js';
import { aggregateErrors } from '../api/meta/index.js';
import { AudienceAgnostic } from './audiences.js';
import { BootstrapTokenAuthenticator } from './bootstrap.js';
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

  it('a user an authenticator answers with one object gets system:authenticated added once: the same object every time', async () => {
    const first = (await union.authenticate({ headers: { authorization: 'Bearer t1' } })).user;
    const again = (await union.authenticate({ headers: { authorization: 'Bearer t1' } })).user;
    assert.deepEqual(first, { name: 'alice', uid: 'u1', groups: ['dev', 'ops', 'system:authenticated'] });
    assert.equal(again, first);
    assert.notEqual((await union.authenticate({ headers: { authorization: 'Bearer t2' } })).user, first);
  });

  it('rejects anonymous requests when anonymous auth is off', async () => {
    const strict = new UnionAuthenticator([new TokenUnionAuthenticator([tokens])], { anonymous: false });
    await assert.rejects(strict.authenticate({ headers: {} }), AuthenticationError);
  });

  it('reports a malformed token file clearly', () => {
    assert.throws(() => TokenFileAuthenticator.fromCsv('only,two\n'), /line 1: token file needs at least 3 columns/);
  });

  it('a bearer token no authenticator accepts is an error, never anonymous; Basic is anonymous', async () => {
    const none: Authenticator = { name: 'none', authenticate: () => null };
    const u = new UnionAuthenticator([none], { anonymous: true });
    await assert.rejects(u.authenticate({ headers: { authorization: 'Bearer abcdef.0123456789abcdef' } }), /^AuthenticationError: invalid bearer token$/);
    assert.equal((await u.authenticate({ headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } })).user.name, 'system:anonymous');
  });

  it('reads the bearer token as kube does', () => {
    const cases: [string, string | undefined][] = [
      ['Bearer abc', 'abc'], ['bearer abc', 'abc'], ['BEARER abc ', 'abc'], ['Bearer a b', 'a'], ['Bearer  abc', undefined],
      ['Bearer', undefined], ['Bearer ', undefined], ['Basic abc', undefined], ['Bearerabc', undefined], ['Bearer\tabc', undefined],
    ];
    for (const [h, want] of cases) assert.equal(bearerToken({ authorization: h }), want, JSON.stringify(h));
  });

  it('errors are aggregated as Go prints them', () => {
    assert.equal(aggregateErrors(['a']), 'a');
    assert.equal(aggregateErrors(['a', 'a']), 'a');
    assert.equal(aggregateErrors(['a', 'b', 'a']), '[a, b]');
  });

  it('audience-agnostic tokens answer the API audiences a request asks for, and nothing for others', async () => {
    const a = new AudienceAgnostic(tokens, ['api']);
    assert.deepEqual((await a.authenticate({ headers: { authorization: 'Bearer t2' }, audiences: ['x', 'api'] }))?.audiences, ['api']);
    assert.equal(await a.authenticate({ headers: { authorization: 'Bearer t2' }, audiences: ['x'] }), null);
    assert.equal((await a.authenticate({ headers: { authorization: 'Bearer t2' } }))?.audiences, undefined);
  });

  describe('bootstrap tokens', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const secret = (data: Record<string, string>, extra: Record<string, unknown> = {}) => ({
      apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.svc.io/token', metadata: { name: 'bootstrap-token-abcdef', namespace: 'svc-system', ...extra },
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
    });
    const good = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };
    const now = Date.parse('2026-01-01T00:00:00Z');
    const cases: [string, ReturnType<typeof secret> | undefined, string, string[] | null][] = [
      ['valid', secret(good), 'abcdef.0123456789abcdef', ['system:bootstrappers']],
      ['valid, extra groups sorted and unique', secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:b,system:bootstrappers:a,system:bootstrappers:b' }), 'abcdef.0123456789abcdef', ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:b']],
      ['not expired yet', secret({ ...good, expiration: '2026-01-01T00:00:01Z' }), 'abcdef.0123456789abcdef', ['system:bootstrappers']],
      ['expired this very second', secret({ ...good, expiration: '2026-01-01T00:00:00Z' }), 'abcdef.0123456789abcdef', null],
      ['wrong secret, same length', secret(good), 'abcdef.0123456789abcdee', null],
      ['secret is a prefix', secret({ ...good, 'token-secret': '0123456789abcde' }), 'abcdef.0123456789abcdef', null],
      ['no usage', secret({ 'token-id': 'abcdef', 'token-secret': '0123456789abcdef' }), 'abcdef.0123456789abcdef', null],
      ['usage TRUE is not true', secret({ ...good, 'usage-bootstrap-authentication': 'TRUE' }), 'abcdef.0123456789abcdef', null],
      ['empty extra group', secret({ ...good, 'auth-extra-groups': 'system:bootstrappers:a,' }), 'abcdef.0123456789abcdef', null],
      ['being deleted', secret(good, { deletionTimestamp: '2025-12-31T00:00:00Z' }), 'abcdef.0123456789abcdef', null],
      ['no Secret', undefined, 'abcdef.0123456789abcdef', null],
      ['token with trailing garbage', secret(good), 'abcdef.0123456789abcdefx', null],
    ];
    for (const [name, s, token, groups] of cases) {
      it(name, async () => {
        const looked: string[] = [];
        const a = new BootstrapTokenAuthenticator(async (n) => (looked.push(n), s as never), () => now);
        const r = await a.authenticate({ headers: { authorization: `Bearer ${token}` } });
        assert.deepEqual(r && r.user, groups && { name: 'system:bootstrap:abcdef', groups });
        if (/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(token)) assert.deepEqual(looked, ['bootstrap-token-abcdef']);
        else assert.deepEqual(looked, [], 'no lookup for a token of another shape');
      });
    }
  });
});

