import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exposition } from './registry.js';
import { compressUsername, observeClientCertificate, recordAuthentication, recordTokenCacheRequest, tokenCacheBlocked, tokenCacheFetchStarted } from './authn.js';
import { CachedTokenAuthenticator } from '../authn/tokencache.js';
import { sampleSum } from '../testing/metricstext.js';

describe('authentication metrics', () => {
  it('compressUsername keeps known identities and folds the rest', () => {
    const rows: [string, string][] = [['admin', 'admin'], ['kubelet', 'kubelet'], ['system:serviceaccount:kube-system:default', 'system:serviceaccount:kube-system:default'], ['alice@example.com', 'email_id'], ['alice', 'other'], ['system:anonymous', 'other']];
    for (const [name, want] of rows) assert.equal(compressUsername(name), want, name);
  });

  it('attempts and durations by result; users only for successes', async () => {
    const before = await exposition();
    recordAuthentication('success', 0.002, 'alice@example.com');
    recordAuthentication('error', 0.001);
    recordAuthentication('failure', 0.001);
    const after = await exposition();
    const d = (name: string, labels: Record<string, string>) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
    assert.equal(d('authentication_attempts', { result: 'success' }), 1);
    assert.equal(d('authentication_attempts', { result: 'error' }), 1);
    assert.equal(d('authentication_attempts', { result: 'failure' }), 1);
    assert.equal(d('authentication_duration_seconds_bucket', { result: 'success', le: '0.002' }), 1);
    assert.equal(d('authenticated_user_requests', { username: 'email_id' }), 1);
    assert.equal(d('authenticated_user_requests', {}), 1);
  });

  it('the token cache: hits, misses, fetches and waiters', async () => {
    let resolveFetch!: (v: { user: { name: string; groups: string[] } }) => void;
    const inner = { name: 'slow', authenticate: () => new Promise<{ user: { name: string; groups: string[] } }>((r) => (resolveFetch = r)) };
    const cache = new CachedTokenAuthenticator(inner, { successTtlMs: 60_000 });
    const req = { headers: { authorization: 'Bearer tok' } };
    const before = await exposition();
    const first = cache.authenticate(req) as Promise<unknown>;
    const second = cache.authenticate(req) as Promise<unknown>;
    const during = await exposition();
    assert.equal(sampleSum(during, 'authentication_token_cache_active_fetch_count', { status: 'in_flight' }) - sampleSum(before, 'authentication_token_cache_active_fetch_count', { status: 'in_flight' }), 1);
    assert.equal(sampleSum(during, 'authentication_token_cache_active_fetch_count', { status: 'blocked' }) - sampleSum(before, 'authentication_token_cache_active_fetch_count', { status: 'blocked' }), 2);
    resolveFetch({ user: { name: 'u', groups: [] } });
    await Promise.all([first, second]);
    await cache.authenticate(req);
    const after = await exposition();
    const d = (name: string, labels: Record<string, string>) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
    assert.equal(d('authentication_token_cache_request_total', { status: 'miss' }), 2);
    assert.equal(d('authentication_token_cache_request_total', { status: 'hit' }), 1);
    assert.equal(d('authentication_token_cache_fetch_total', { status: 'ok' }), 1);
    assert.equal(d('authentication_token_cache_active_fetch_count', {}), 0);
    assert.equal(d('authentication_token_cache_request_duration_seconds_count', {}), 3);
  });

  it('helpers pair their gauges', async () => {
    const before = await exposition();
    const done = tokenCacheFetchStarted();
    const unblock = tokenCacheBlocked();
    done(false);
    unblock();
    recordTokenCacheRequest(false, 0.0019);
    const after = await exposition();
    assert.equal(sampleSum(after, 'authentication_token_cache_fetch_total', { status: 'error' }) - sampleSum(before, 'authentication_token_cache_fetch_total', { status: 'error' }), 1);
    assert.equal(sampleSum(after, 'authentication_token_cache_active_fetch_count', {}) - sampleSum(before, 'authentication_token_cache_active_fetch_count', {}), 0);
    // kube records whole milliseconds: 1.9 ms is 0.001 s
    assert.equal(sampleSum(after, 'authentication_token_cache_request_duration_seconds_bucket', { status: 'miss', le: '0.005' }) - sampleSum(before, 'authentication_token_cache_request_duration_seconds_bucket', { status: 'miss', le: '0.005' }), 1);
  });

  it('client certificates: their remaining lifetime', async () => {
    const cert = { valid_to: 'Jan  2 00:00:00 2030 GMT' };
    const now = Date.parse('Jan  1 00:00:00 2030 GMT');
    const before = await exposition();
    observeClientCertificate(cert, now); // one day left
    observeClientCertificate({ valid_to: 'garbage' }, now); // not recorded
    const after = await exposition();
    const d = (le: string) => sampleSum(after, 'apiserver_client_certificate_expiration_seconds_bucket', { le }) - sampleSum(before, 'apiserver_client_certificate_expiration_seconds_bucket', { le });
    assert.equal(d('43200'), 0);
    assert.equal(d('86400'), 1);
    assert.equal(sampleSum(after, 'apiserver_client_certificate_expiration_seconds_count') - sampleSum(before, 'apiserver_client_certificate_expiration_seconds_count'), 1);
  });
});
