// A cache of successful token authentications (kube's
// apiserver/pkg/authentication/token/cache, as kube-apiserver configures it
// for its bearer-token union: successes kept 10 s, failures not kept). It
// wraps any Authenticator: requests carrying a bearer token are answered
// from the cache when the same token was accepted for the same audiences
// within the TTL. Entries are keyed by the SHA-256 of the audiences and the
// token — the token itself is never stored. Concurrent requests with the same
// key share one authentication (kube's singleflight). Requests without a
// bearer token pass straight through.
import { createHash } from 'node:crypto';
import { bearerToken, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { recordTokenCacheRequest, tokenCacheBlocked, tokenCacheFetchStarted } from '../metrics/authn.js';

export interface TokenCacheOptions {
  /** How long a success is kept (kube-apiserver: 10 s). */
  readonly successTtlMs?: number;
  /** Most entries kept; the oldest go first (kube: 4096 per stripe, 32 stripes). */
  readonly maxEntries?: number;
  /** The clock (tests move it). */
  readonly now?: () => number;
}

export const DEFAULT_SUCCESS_TTL_MS = 10_000;

interface Entry {
  readonly result: AuthResult;
  readonly expires: number;
}

export class CachedTokenAuthenticator implements Authenticator {
  readonly name: string;
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AuthResult | null>>();
  private readonly ttl: number;
  private readonly max: number;
  private readonly now: () => number;
  /** Hits and misses, for tests and benchmarks. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(private readonly inner: Authenticator, opts: TokenCacheOptions = {}) {
    this.name = `cached-${inner.name}`;
    this.ttl = opts.successTtlMs ?? DEFAULT_SUCCESS_TTL_MS;
    this.max = opts.maxEntries ?? 4096 * 32;
    this.now = opts.now ?? Date.now;
  }

  authenticate(req: AuthRequest): Promise<AuthResult | null> | AuthResult | null {
    const token = bearerToken(req.headers);
    if (token === undefined) return this.inner.authenticate(req);
    const key = cacheKey(token, req.audiences);
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && hit.expires > now) {
      this.stats.hits++;
      recordTokenCacheRequest(true, 0);
      return hit.result;
    }
    if (hit) this.entries.delete(key);
    const started = performance.now();
    const pending = this.inflight.get(key);
    if (pending) return waitForFetch(pending, started);
    this.stats.misses++;
    const p = (async () => {
      const fetched = tokenCacheFetchStarted();
      let ok = false;
      try {
        const r = await this.inner.authenticate(req);
        ok = true;
        if (r && this.ttl > 0) this.store(key, r);
        return r;
      } finally {
        fetched(ok);
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, p);
    return waitForFetch(p, started);
  }

  /** Forgets everything (tests). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, result: AuthResult): void {
    if (this.entries.size >= this.max) {
      // the Map iterates in insertion order: drop expired entries, else the oldest
      const now = this.now();
      for (const [k, e] of this.entries) {
        if (e.expires <= now || this.entries.size >= this.max) this.entries.delete(k);
        else break;
      }
    }
    this.entries.set(key, { result, expires: this.now() + this.ttl });
  }
}

/**
 * SHA-256 over the audiences (absent ≠ empty) and the token, each
 * length-prefixed so that no two different inputs share a key.
 */
export function cacheKey(token: string, audiences: readonly string[] | undefined): string {
  const h = createHash('sha256');
  if (audiences === undefined) h.update('-\0');
  else for (const a of audiences) h.update(`${Buffer.byteLength(a)}:${a}\0`);
  h.update(`|${Buffer.byteLength(token)}:`);
  h.update(token);
  return h.digest('base64');
}

/** A miss waits for the token's one fetch (authentication_token_cache_active_fetch_count{status="blocked"}). */
function waitForFetch<T>(fetch: Promise<T>, started: number): Promise<T> {
  const unblock = tokenCacheBlocked();
  return fetch.finally(() => {
    unblock();
    recordTokenCacheRequest(false, (performance.now() - started) / 1000);
  });
}
