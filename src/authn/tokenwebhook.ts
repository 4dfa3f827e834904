// The token authentication webhook (--authentication-token-webhook-*), as
// kube-apiserver v1.27 calls it (plugin/pkg/authenticator/token/webhook):
// every bearer token is POSTed as a TokenReview to the service named by the
// connection-credentials file (src/webhook/), in the configured version
// (v1beta1 by default, or v1). We send kube's spelling of the group,
// `authentication.k8s.io`, since webhooks are written for Kubernetes, and
// accept answers in either spelling, of the version we sent, kind TokenReview.
//   - audiences: the request's audiences go in spec.audiences; the answer's
//     status.audiences (or, when it names none, the API server's audiences)
//     must meet them, and the intersection is the result's audiences;
//   - authenticated: false is a failure with status.error's text, or kube's
//     generic "invalid bearer token" without one;
//   - a webhook that is down, slow, or answers something that is not a
//     TokenReview fails that token (401), never the request with 500. Calls
//     are retried as kube does (a reset connection, 500, 504, 429, Retry-After;
//     500ms × 1.5, 5 attempts) within a 30 s deadline.
// Decisions are cached for --authentication-token-webhook-cache-ttl (2m) as
// kube's cache.New(webhook, cacheErrs=false, ttl, ttl) does: successes and
// answers without an error for the TTL, errors (status.error, a failed call)
// not at all; keyed by sha256 of the audiences and the token, never the token.
import { createHash } from 'node:crypto';
import { AuthenticationError, bearerToken, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { intersectAudiences } from './audiences.js';
import type { UserInfo } from './user.js';
import { loadConnectionFile, type Connection } from '../webhook/connfile.js';
import { OutboundClient, type Backoff } from '../webhook/client.js';
import { checkReviewEnvelope } from '../webhook/review.js';
import { isObject } from '../registry/object.js';

export type TokenReviewVersion = 'v1' | 'v1beta1';
/** The group spelling we send (webhooks are written for Kubernetes); answers may use either. */
export const TOKEN_REVIEW_GROUP = 'authentication.k8s.io';

export interface TokenWebhookOptions {
  readonly connection: Connection;
  /** Default v1beta1. */
  readonly version?: TokenReviewVersion;
  /** Default 2 minutes; 0 disables the cache. */
  readonly cacheTtlMs?: number;
  /** The API server's audiences (--api-audiences): what a token is for when the webhook names none. */
  readonly apiAudiences?: readonly string[];
  readonly backoff?: Backoff;
  /** Deadline of one review, retries included (default 30 s). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

/** `--authentication-token-webhook-version`: `v1`, `v1beta1`, or either with its group. */
export function parseTokenReviewVersion(v: string): TokenReviewVersion {
  const m = /^(?:authentication\.(?:k8s|svc)\.io\/)?(v1|v1beta1)$/.exec(v);
  if (!m) throw new Error(`unsupported authentication webhook version ${JSON.stringify(v)}: use v1beta1 or v1`);
  return m[1] as TokenReviewVersion;
}

type Decision = { readonly result: AuthResult | null };
const MAX_CACHE_ENTRIES = 4096;

export class TokenWebhookAuthenticator implements Authenticator {
  readonly name = 'token-webhook';
  readonly version: TokenReviewVersion;
  private readonly client: OutboundClient;
  private readonly ttl: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, { readonly decision: Decision; readonly expires: number }>();
  private readonly inflight = new Map<string, Promise<Decision>>();
  /** Reviews sent (tests look). */
  calls = 0;

  constructor(private readonly opts: TokenWebhookOptions) {
    this.version = opts.version ?? 'v1beta1';
    this.ttl = opts.cacheTtlMs ?? 120_000;
    this.now = opts.now ?? Date.now;
    this.client = new OutboundClient(opts.connection, { timeoutMs: opts.timeoutMs ?? 30_000, ...(opts.backoff ? { backoff: opts.backoff } : {}), maxResponseBytes: 1 << 20 });
  }

  static fromFile(path: string, opts: Omit<TokenWebhookOptions, 'connection'>): TokenWebhookAuthenticator {
    return new TokenWebhookAuthenticator({ ...opts, connection: loadConnectionFile(path) });
  }

  close(): void {
    this.client.close();
  }

  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    const token = bearerToken(req.headers);
    if (token === undefined) return null;
    return this.authenticateToken(token, req.audiences);
  }

  /** null: not authenticated, without an error (the union answers "invalid bearer token"). */
  async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResult | null> {
    const key = createHash('sha256').update(JSON.stringify(audiences ?? null)).update('\0').update(token).digest('base64');
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now()) return hit.decision.result;
    if (hit) this.cache.delete(key);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.review(token, audiences).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
      pending.then((decision) => this.remember(key, decision), () => undefined);
    }
    return (await pending).result;
  }

  private remember(key: string, decision: Decision): void {
    if (this.ttl <= 0) return;
    if (this.cache.size >= MAX_CACHE_ENTRIES) {
      const now = this.now();
      for (const [k, v] of this.cache) if (v.expires <= now) this.cache.delete(k);
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, { decision, expires: this.now() + this.ttl });
  }

  /** One review; resolves with a cacheable decision, throws AuthenticationError for the uncacheable. */
  private async review(token: string, audiences?: readonly string[]): Promise<Decision> {
    const apiVersion = `${TOKEN_REVIEW_GROUP}/${this.version}`;
    const body = {
      kind: 'TokenReview', apiVersion, metadata: { creationTimestamp: null },
      spec: { token, ...(audiences && audiences.length > 0 ? { audiences } : {}) },
      status: { user: {} },
    };
    this.calls++;
    let answer: unknown;
    try {
      answer = await this.client.json({ method: 'POST', body });
    } catch (err) {
      throw new AuthenticationError(`webhook: calling the token authentication webhook failed: ${(err as Error).message}`);
    }
    const status = checkReview(answer, this.version);
    if (audiences && audiences.length > 0) {
      const got = status.audiences && status.audiences.length > 0 ? status.audiences : (this.opts.apiAudiences ?? []);
      const auds = intersectAudiences(audiences, got);
      if (auds.length === 0) return { result: null };
      if (!status.authenticated) return failed(status);
      return { result: { user: status.user, audiences: auds } };
    }
    if (!status.authenticated) return failed(status);
    return { result: { user: status.user } };
  }
}

function failed(status: ReviewStatus): Decision {
  if (status.error) throw new AuthenticationError(status.error);
  return { result: null };
}

interface ReviewStatus {
  readonly authenticated: boolean;
  readonly user: UserInfo;
  readonly audiences?: readonly string[];
  readonly error?: string;
}

/** The answer must be a TokenReview of the version sent, with a well-typed status. */
function checkReview(answer: unknown, version: TokenReviewVersion): ReviewStatus {
  const bad = (why: string): never => {
    throw new AuthenticationError(`webhook: the token authentication webhook answered an invalid TokenReview: ${why}`);
  };
  const review = checkReviewEnvelope(answer, { kind: 'TokenReview', group: TOKEN_REVIEW_GROUP, version }, bad);
  const s = review.status === undefined ? {} : review.status;
  if (!isObject(s)) return bad('status is not an object');
  if (s.authenticated !== undefined && typeof s.authenticated !== 'boolean') bad('status.authenticated is not a boolean');
  if (s.error !== undefined && typeof s.error !== 'string') bad('status.error is not a string');
  const auds = s.audiences;
  if (auds !== undefined && auds !== null && !isStrings(auds)) bad('status.audiences is not a list of strings');
  const u = s.user === undefined || s.user === null ? {} : s.user;
  if (!isObject(u)) return bad('status.user is not an object');
  for (const k of ['username', 'uid'] as const) if (u[k] !== undefined && typeof u[k] !== 'string') bad(`status.user.${k} is not a string`);
  if (u.groups !== undefined && u.groups !== null && !isStrings(u.groups)) bad('status.user.groups is not a list of strings');
  let extra: Record<string, string[]> | undefined;
  if (u.extra !== undefined && u.extra !== null) {
    if (!isObject(u.extra)) return bad('status.user.extra is not an object');
    extra = {};
    for (const [k, v] of Object.entries(u.extra)) {
      if (v !== null && !isStrings(v)) bad(`status.user.extra[${JSON.stringify(k)}] is not a list of strings`);
      extra[k] = (v as string[] | null) ?? [];
    }
  }
  const authenticated = s.authenticated === true;
  if (authenticated && !u.username) bad('status.user.username is empty');
  const user: UserInfo = {
    name: (u.username as string | undefined) ?? '',
    ...(u.uid ? { uid: u.uid as string } : {}),
    groups: (u.groups as string[] | undefined | null) ?? [],
    ...(extra ? { extra } : {}),
  };
  return { authenticated, user, ...(isStrings(auds) ? { audiences: auds } : {}), ...(s.error ? { error: s.error as string } : {}) };
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
