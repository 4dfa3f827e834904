// The token cache: successes kept for the TTL, failures and "not mine" never,
// keyed by the token and the audiences, never holding the token itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthenticationError, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { cacheKey, CachedTokenAuthenticator } from './tokencache.js';

class Counting implements Authenticator {
  readonly name = 'counting';
  calls = 0;
  constructor(private readonly answer: (req: AuthRequest) => AuthResult | null) {}
  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    this.calls++;
    await new Promise((r) => setImmediate(r));
    return this.answer(req);
  }
}

const req = (token: string | undefined, audiences?: string[]): AuthRequest => ({ headers: token ? { authorization: `Bearer ${token}` } : {}, ...(audiences ? { audiences } : {}) });
const alice: AuthResult = { user: { name: 'alice', groups: [] }, audiences: ['api'] };

describe('token cache', () => {
  const cases: { name: string; steps: { token?: string; audiences?: string[]; advanceMs?: number }[]; answer: (r: AuthRequest) => AuthResult | null; calls: number }[] = [
    { name: 'a success is answered from the cache within the TTL', steps: [{ token: 't' }, { token: 't', advanceMs: 9_000 }], answer: () => alice, calls: 1 },
    { name: 'and asked again after it', steps: [{ token: 't' }, { token: 't', advanceMs: 10_001 }], answer: () => alice, calls: 2 },
    { name: 'failures are not cached', steps: [{ token: 'bad' }, { token: 'bad' }], answer: () => { throw new AuthenticationError('no'); }, calls: 2 },
    { name: '"not mine" is not cached', steps: [{ token: 'x' }, { token: 'x' }], answer: () => null, calls: 2 },
    { name: 'other audiences are another entry', steps: [{ token: 't', audiences: ['a'] }, { token: 't', audiences: ['b'] }, { token: 't' }, { token: 't', audiences: ['a'] }], answer: () => alice, calls: 3 },
    { name: 'other tokens are another entry', steps: [{ token: 't1' }, { token: 't2' }], answer: () => alice, calls: 2 },
    { name: 'requests without a token pass through', steps: [{}, {}], answer: () => alice, calls: 2 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      let clock = 1000;
      const inner = new Counting(c.answer);
      const cache = new CachedTokenAuthenticator(inner, { now: () => clock });
      for (const s of c.steps) {
        clock += s.advanceMs ?? 0;
        try {
          await cache.authenticate(req(s.token, s.audiences));
        } catch (err) {
          if (!(err instanceof AuthenticationError)) throw err;
        }
      }
      assert.equal(inner.calls, c.calls);
    });
  }

  it('concurrent requests with one token share one authentication', async () => {
    const inner = new Counting(() => alice);
    const cache = new CachedTokenAuthenticator(inner);
    const results = await Promise.all([1, 2, 3].map(() => cache.authenticate(req('t'))));
    assert.equal(inner.calls, 1);
    assert.deepEqual(results, [alice, alice, alice]);
  });

  it('keys are SHA-256 digests: the token is not kept, and audiences cannot be confused with the token', () => {
    const k = cacheKey('secret-token', ['api']);
    assert.equal(Buffer.from(k, 'base64').length, 32);
    assert.ok(!k.includes('secret-token'));
    assert.notEqual(cacheKey('b', ['a']), cacheKey('a\0b', undefined));
    assert.notEqual(cacheKey('t', []), cacheKey('t', undefined));
  });

  it('keeps at most maxEntries', async () => {
    const cache = new CachedTokenAuthenticator(new Counting(() => alice), { maxEntries: 2 });
    for (const t of ['a', 'b', 'c']) await cache.authenticate(req(t));
    assert.equal(cache.size, 2);
  });
});
