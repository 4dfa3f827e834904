// The authorization webhook (--authorization-webhook-*), as kube-apiserver
// v1.27 calls it (apiserver plugin/pkg/authorizer/webhook): every decision is
// POSTed as a SubjectAccessReview to the service named by the
// connection-credentials file (src/webhook/), in the configured version
// (v1beta1 by default, or v1). We send kube's spelling of the group,
// `authorization.k8s.io`, since webhooks are written for Kubernetes, and accept
// answers in either spelling, of the version we sent, kind SubjectAccessReview.
//   - the review carries the user (name, uid, groups — `group` in v1beta1,
//     `groups` in v1 —, extra) and either resourceAttributes (namespace, verb,
//     group, version, resource, subresource, name) or nonResourceAttributes
//     (path, verb); empty fields are left out, as Go's omitempty does;
//   - status.denied → deny, status.allowed → allow, neither → no opinion, each
//     with status.reason; both → deny with kube's error;
//   - a webhook that is down, slow, or answers something that is not a
//     SubjectAccessReview gives no opinion with the error (kube's
//     decisionOnError): the chain goes on, and if nothing allows the request
//     the error is what the caller sees (kube answers 500). Calls are retried
//     as kube does (a reset connection, 500, 504, 429, Retry-After; 500ms ×
//     1.5, 5 attempts) within a 30 s deadline.
// Answers are cached (kube's LRU of 8192) keyed by the whole review spec, for
// --authorization-webhook-cache-authorized-ttl (5m) when allowed and
// -unauthorized-ttl (30s) otherwise; failed calls are not cached, nor are
// requests whose caller-controlled attributes exceed 10000 bytes.
// The webhook cannot list rules: rulesFor is incomplete with kube's error.
import type { UserInfo } from '../authn/user.js';
import { loadConnectionFile, type Connection } from '../webhook/connfile.js';
import { OutboundClient, type Backoff } from '../webhook/client.js';
import { checkReviewEnvelope } from '../webhook/review.js';
import { isObject } from '../registry/object.js';
import type { Attributes, Authorizer, Decision, Rules } from './authorizer.js';

export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';
/** The group spelling we send (webhooks are written for Kubernetes); answers may use either. */
export const SAR_GROUP = 'authorization.k8s.io';

export interface WebhookAuthorizerOptions {
  readonly connection: Connection;
  /** --authorization-webhook-version; default v1beta1. */
  readonly version?: SubjectAccessReviewVersion;
  /** --authorization-webhook-cache-authorized-ttl; default 5 minutes; 0 does not cache. */
  readonly authorizedTtlMs?: number;
  /** --authorization-webhook-cache-unauthorized-ttl; default 30 seconds; 0 does not cache. */
  readonly unauthorizedTtlMs?: number;
  readonly backoff?: Backoff;
  /** Deadline of one review, retries included (default 30 s). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

/** `--authorization-webhook-version`: `v1` or `v1beta1` (kube's error text otherwise). */
export function parseSubjectAccessReviewVersion(v: string): SubjectAccessReviewVersion {
  if (v === 'v1' || v === 'v1beta1') return v;
  throw new Error(`unsupported webhook authorizer version ${JSON.stringify(v)}, supported versions are "v1", "v1beta1"`);
}

export const WEBHOOK_RULES_ERROR = 'webhook authorizer does not support user rule resolution';
const CACHE_ENTRIES = 8192;
/** kube's maxControlledAttrCacheSize. */
const MAX_CACHED_ATTR_BYTES = 10000;

interface ReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
}

export class WebhookAuthorizer implements Authorizer {
  readonly name = 'Webhook';
  readonly version: SubjectAccessReviewVersion;
  private readonly client: OutboundClient;
  private readonly authorizedTtl: number;
  private readonly unauthorizedTtl: number;
  private readonly now: () => number;
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly cache = new Map<string, { readonly status: ReviewStatus; readonly expires: number }>();
  /** Reviews sent (tests look). */
  calls = 0;

  constructor(opts: WebhookAuthorizerOptions) {
    this.version = opts.version ?? 'v1beta1';
    this.authorizedTtl = opts.authorizedTtlMs ?? 5 * 60_000;
    this.unauthorizedTtl = opts.unauthorizedTtlMs ?? 30_000;
    this.now = opts.now ?? Date.now;
    this.client = new OutboundClient(opts.connection, { timeoutMs: opts.timeoutMs ?? 30_000, ...(opts.backoff ? { backoff: opts.backoff } : {}), maxResponseBytes: 1 << 20 });
  }

  /** --authorization-webhook-config-file and the version and TTL flags; throws ConnectionFileError for a bad file. */
  static fromConfigFile(path: string, opts: Omit<WebhookAuthorizerOptions, 'connection'> = {}): WebhookAuthorizer {
    return new WebhookAuthorizer({ ...opts, connection: loadConnectionFile(path) });
  }

  close(): void {
    this.client.close();
  }

  async authorize(a: Attributes): Promise<Decision> {
    const spec = reviewSpec(a);
    const key = JSON.stringify(spec);
    let status = this.cached(key);
    if (!status) {
      try {
        status = await this.review(spec);
      } catch (err) {
        return { decision: 'noOpinion', reason: '', error: (err as Error).message };
      }
      if (controlledSize(a) < MAX_CACHED_ATTR_BYTES) this.remember(key, status);
    }
    if (status.allowed && status.denied) return { decision: 'deny', reason: status.reason, error: 'webhook subject access review returned both allow and deny response' };
    if (status.denied) return { decision: 'deny', reason: status.reason };
    if (status.allowed) return { decision: 'allow', reason: status.reason };
    return { decision: 'noOpinion', reason: status.reason };
  }

  rulesFor(_user: UserInfo, _namespace: string): Rules {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: WEBHOOK_RULES_ERROR };
  }

  private cached(key: string): ReviewStatus | undefined {
    const hit = this.cache.get(key);
    if (!hit) return undefined;
    this.cache.delete(key);
    if (hit.expires <= this.now()) return undefined;
    this.cache.set(key, hit);
    return hit.status;
  }

  private remember(key: string, status: ReviewStatus): void {
    const ttl = status.allowed ? this.authorizedTtl : this.unauthorizedTtl;
    if (ttl <= 0) return;
    this.cache.delete(key);
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, { status, expires: this.now() + ttl });
  }

  /** One review with kube's retries; throws with the reason the call or its answer failed. */
  private async review(spec: Spec): Promise<ReviewStatus> {
    const apiVersion = `${SAR_GROUP}/${this.version}`;
    const body = { kind: 'SubjectAccessReview', apiVersion, metadata: { creationTimestamp: null }, spec: wireSpec(spec, this.version), status: { allowed: false } };
    this.calls++;
    let answer: unknown;
    try {
      answer = await this.client.json({ method: 'POST', body });
    } catch (err) {
      throw new Error(`calling the authorization webhook failed: ${(err as Error).message}`);
    }
    return checkReview(answer, this.version);
  }
}

/** The v1 SubjectAccessReviewSpec of a request, fields in Go's order and empty ones left out; also the cache key. */
interface Spec {
  readonly resourceAttributes?: Record<string, string>;
  readonly nonResourceAttributes?: Record<string, string>;
  readonly user?: string;
  readonly groups?: readonly string[];
  readonly extra?: Record<string, readonly string[]>;
  readonly uid?: string;
}

function reviewSpec(a: Attributes): Spec {
  const u = a.user;
  const attrs = a.isResourceRequest
    ? { resourceAttributes: omitEmpty({ namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.apiVersion, resource: a.resource, subresource: a.subresource, name: a.name }) }
    : { nonResourceAttributes: omitEmpty({ path: a.path, verb: a.verb }) };
  const extraKeys = Object.keys(u.extra ?? {}).sort();
  return {
    ...attrs,
    ...(u.name ? { user: u.name } : {}),
    ...(u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...(extraKeys.length > 0 ? { extra: Object.fromEntries(extraKeys.map((k) => [k, [...u.extra![k]!]])) } : {}),
    ...(u.uid ? { uid: u.uid } : {}),
  };
}

/** v1beta1 spells the groups field `group`. */
function wireSpec(spec: Spec, version: SubjectAccessReviewVersion): Record<string, unknown> {
  if (version === 'v1' || !spec.groups) return { ...spec };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec)) out[k === 'groups' ? 'group' : k] = v;
  return out;
}

function omitEmpty(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ''));
}

/** kube's shouldCache: the attributes the caller controls, in bytes. */
function controlledSize(a: Attributes): number {
  const parts = a.isResourceRequest ? [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path] : [a.verb, a.path];
  return parts.reduce((n, s) => n + Buffer.byteLength(s ?? ''), 0);
}

/** The answer must be a SubjectAccessReview of the version sent, with a well-typed status. */
function checkReview(answer: unknown, version: SubjectAccessReviewVersion): ReviewStatus {
  const bad = (why: string): never => {
    throw new Error(`the authorization webhook answered an invalid SubjectAccessReview: ${why}`);
  };
  const review = checkReviewEnvelope(answer, { kind: 'SubjectAccessReview', group: SAR_GROUP, version }, bad);
  const s = review.status ?? {};
  if (!isObject(s)) return bad('status is not an object');
  for (const k of ['allowed', 'denied'] as const) if (s[k] !== undefined && s[k] !== null && typeof s[k] !== 'boolean') bad(`status.${k} is not a boolean`);
  for (const k of ['reason', 'evaluationError'] as const) if (s[k] !== undefined && s[k] !== null && typeof s[k] !== 'string') bad(`status.${k} is not a string`);
  return { allowed: s.allowed === true, denied: s.denied === true, reason: typeof s.reason === 'string' ? s.reason : '' };
}
