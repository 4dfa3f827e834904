import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeAgentApi } from './fakeapi.js';
import { TokenManager, type TokenRequestSpec } from './tokens.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const spec = (expirationSeconds: number, audiences: string[] = []): TokenRequestSpec => ({
  audiences, expirationSeconds, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' },
});

function setup(jitter = 0) {
  let now = T0;
  const api = new FakeAgentApi();
  api.now = () => now;
  const m = new TokenManager({ api, now: () => now, random: () => jitter });
  return { api, m, advance: (s: number) => (now += s * 1000) };
}

describe('TokenManager', () => {
  it('asks for a pod-bound token with the audience and lifetime', async () => {
    const { api, m } = setup();
    assert.equal(await m.get('ns', 'sa', spec(3600, ['vault'])), 'token-1');
    assert.deepEqual(api.tokenCalls[0], {
      namespace: 'ns', serviceAccount: 'sa',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: ['vault'], expirationSeconds: 3600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' } } },
    });
  });

  // [lifetime s, seconds later, jitter share, refreshed?]
  const rows: [number, number, number, boolean][] = [
    [3600, 2879, 0, false],
    [3600, 2881, 0, true], // past 80 % of the TTL
    [3600, 2875, 0.9, true], // the jitter (9 s) brings it forward
    [600, 479, 0, false],
    [600, 481, 0, true],
    [7 * 86400, 86399, 0, false],
    [7 * 86400, 86401, 0, true], // 24 h since issue, well before 80 %
  ];
  for (const [ttl, later, jitter, refreshed] of rows) {
    it(`a ${ttl} s token ${later} s later (jitter ${jitter}): ${refreshed ? 'refreshed' : 'cached'}`, async () => {
      const { api, m, advance } = setup(jitter);
      await m.get('ns', 'sa', spec(ttl));
      advance(later);
      assert.equal(await m.get('ns', 'sa', spec(ttl)), refreshed ? 'token-2' : 'token-1');
      assert.equal(api.tokenCalls.length, refreshed ? 2 : 1);
    });
  }

  it('keys tokens by audience and lifetime', async () => {
    const { api, m } = setup();
    await m.get('ns', 'sa', spec(3600, ['a']));
    await m.get('ns', 'sa', spec(3600, ['b']));
    await m.get('ns', 'sa', spec(7200, ['a']));
    await m.get('ns', 'sa', spec(3600, ['a']));
    assert.equal(api.tokenCalls.length, 3);
  });

  it('keeps the cached token when a refresh fails before expiry, fails after', async () => {
    const { api, m, advance } = setup();
    await m.get('ns', 'sa', spec(3600));
    api.tokenError = 'connection refused';
    advance(3000);
    assert.equal(await m.get('ns', 'sa', spec(3600)), 'token-1');
    advance(700);
    await assert.rejects(m.get('ns', 'sa', spec(3600)), (e: Error) => /^token .* expired and refresh failed: connection refused$/.test(e.message));
  });

  it('fails without a cached token', async () => {
    const { api, m } = setup();
    api.tokenError = 'serviceaccounts "sa" not found';
    await assert.rejects(m.get('ns', 'sa', spec(3600)), { message: 'failed to fetch token: serviceaccounts "sa" not found' });
  });

  it('forgets a pod and expired tokens', async () => {
    const { api, m, advance } = setup();
    await m.get('ns', 'sa', spec(3600));
    m.forgetPod('u1');
    await m.get('ns', 'sa', spec(3600));
    assert.equal(api.tokenCalls.length, 2);
    advance(4000);
    m.cleanup();
    api.tokenError = 'down';
    await assert.rejects(m.get('ns', 'sa', spec(3600)), { message: 'failed to fetch token: down' });
  });
});
