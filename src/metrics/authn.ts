// Authentication metrics of kube-apiserver v1.27:
//
//   authenticated_user_requests {username}   (endpoints/filters/metrics.go) successes by a
//       compressed username (a few known names, "email_id", else "other": bounded)
//   authentication_attempts {result}         success, failure (no credentials and no
//       anonymous access) or error (credentials refused)
//   authentication_duration_seconds {result}
//   apiserver_client_certificate_expiration_seconds   remaining lifetime of client certificates
//   authentication_token_cache_*             (authentication/token/cache/stats.go) the
//       bearer-token cache: requests by hit/miss, fetches by ok/error, fetches in flight
//
// kube v1.27 has no apiserver_authorization_* metrics and no apiserver_authentication_*
// ones for these (they arrive with structured authentication/authorization configuration
// in v1.29): the v1.27 names above are the ones recorded.
import { exponentialBuckets, newCounter, newGauge, newHistogram, type CounterChild, type HistogramChild } from './registry.js';

export const authenticatedUserRequests = newCounter({
  name: 'authenticated_user_requests',
  help: 'Counter of authenticated requests broken out by username.',
  labelNames: ['username'],
});
export const authenticationAttempts = newCounter({
  name: 'authentication_attempts',
  help: 'Counter of authenticated attempts.',
  labelNames: ['result'],
});
export const authenticationDuration = newHistogram({
  name: 'authentication_duration_seconds',
  help: 'Authentication duration in seconds broken out by result.',
  labelNames: ['result'],
  buckets: exponentialBuckets(0.001, 2, 15),
});

export const clientCertificateExpiration = newHistogram({
  name: 'apiserver_client_certificate_expiration_seconds',
  help: 'Distribution of the remaining lifetime on the certificate used to authenticate a request.',
  buckets: [0, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 345600, 604800, 2592000, 7776000, 15552000, 31104000],
});
const certificateLifetime = clientCertificateExpiration.child({});
const notAfter = new WeakMap<object, number>();

/** A client certificate presented for authentication: its remaining lifetime (kube's x509 authenticator). */
export function observeClientCertificate(cert: { readonly valid_to?: string }, now = Date.now()): void {
  let end = notAfter.get(cert);
  if (end === undefined) {
    end = Date.parse(cert.valid_to ?? '');
    notAfter.set(cert, end);
  }
  if (Number.isFinite(end)) certificateLifetime.observe((end - now) / 1000);
}

/** Prometheus' DefBuckets (kube's token cache histogram sets none). */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const tokenCacheRequestDuration = newHistogram({
  name: 'authentication_token_cache_request_duration_seconds', help: '', labelNames: ['status'], buckets: DEFAULT_BUCKETS,
});
export const tokenCacheRequests = newCounter({ name: 'authentication_token_cache_request_total', help: '', labelNames: ['status'] });
export const tokenCacheFetches = newCounter({ name: 'authentication_token_cache_fetch_total', help: '', labelNames: ['status'] });
export const tokenCacheActiveFetches = newGauge({ name: 'authentication_token_cache_active_fetch_count', help: '', labelNames: ['status'] });

export type AuthenticationResult = 'success' | 'failure' | 'error';

/** kube's compressUsername: known internal identities kept, e-mail addresses and the rest folded. */
export function compressUsername(username: string): string {
  switch (username) {
    case 'admin': case 'client': case 'kube_proxy': case 'kubelet': case 'system:serviceaccount:kube-system:default':
      return username;
  }
  return username.includes('@') ? 'email_id' : 'other';
}

const results = new Map<AuthenticationResult, { attempts: CounterChild; duration: HistogramChild }>();
const users = new Map<string, CounterChild>();

/** One authentication: attempts and duration by result, and for a success the user's count. */
export function recordAuthentication(result: AuthenticationResult, seconds: number, username?: string): void {
  let r = results.get(result);
  if (!r) results.set(result, (r = { attempts: authenticationAttempts.child({ result }), duration: authenticationDuration.child({ result }) }));
  r.attempts.inc();
  r.duration.observe(seconds);
  if (result !== 'success' || username === undefined) return;
  const name = compressUsername(username);
  let u = users.get(name);
  if (!u) users.set(name, (u = authenticatedUserRequests.child({ username: name })));
  u.inc();
}

/** A token cache lookup answered (hit) or needed a fetch (miss); kube records whole milliseconds. */
export function recordTokenCacheRequest(hit: boolean, seconds: number): void {
  const status = hit ? 'hit' : 'miss';
  tokenCacheRequests.inc({ status });
  tokenCacheRequestDuration.observe({ status }, Math.floor(seconds * 1000) / 1000);
}

/** A fetch started; call the returned function with its outcome when it ends. */
export function tokenCacheFetchStarted(): (ok: boolean) => void {
  tokenCacheActiveFetches.inc({ status: 'in_flight' });
  return (ok) => {
    tokenCacheFetches.inc({ status: ok ? 'ok' : 'error' });
    tokenCacheActiveFetches.dec({ status: 'in_flight' });
  };
}

/** A lookup waits for another's fetch of the same token; call the returned function when it ends. */
export function tokenCacheBlocked(): () => void {
  tokenCacheActiveFetches.inc({ status: 'blocked' });
  return () => tokenCacheActiveFetches.dec({ status: 'blocked' });
}
