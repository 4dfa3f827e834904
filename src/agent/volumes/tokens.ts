// Service-account tokens for projected volumes (kube's token.Manager): one
// TokenRequest (`serviceaccounts/<sa>/token`, bound to the pod) per pod,
// audience and lifetime, cached and handed out again until it needs a refresh:
//
//   issued ──(80 % of its TTL passed, or 24 h since issue; less a jitter ≤ 10 s)──► refresh
//
// A failed refresh keeps the cached token while it has not expired (the error
// is logged); without a usable token it fails: `failed to fetch token: …`,
// `token <key> expired and refresh failed: …`.
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import { PluginError } from './errors.js';
import { SA_TOKEN } from './sources.js';

const MAX_TTL_MS = 24 * 3600 * 1000;
const MAX_JITTER_S = 10;

export interface TokenRequestSpec {
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  readonly boundObjectRef: { readonly apiVersion: 'v1'; readonly kind: 'Pod'; readonly name: string; readonly uid: string };
}

interface Issued {
  readonly token: string;
  readonly expiresMs: number;
  /** The lifetime the server granted (its spec.expirationSeconds). */
  readonly ttlSeconds: number;
  readonly podUid: string;
}

export interface TokenManagerOptions {
  readonly api: AgentApi;
  readonly now: () => number;
  /** In [0, 1): the jitter's share of 10 s (Math.random by default). */
  readonly random?: () => number;
  readonly log?: (msg: string) => void;
}

export class TokenManager {
  private readonly cache = new Map<string, Issued>();
  constructor(private readonly opts: TokenManagerOptions) {}

  /** A token for the service account, from the cache unless it needs a refresh. */
  async get(namespace: string, serviceAccount: string, spec: TokenRequestSpec): Promise<string> {
    const key = JSON.stringify([serviceAccount, namespace, spec.audiences, spec.expirationSeconds, spec.boundObjectRef]);
    const cached = this.cache.get(key);
    if (cached && !this.requiresRefresh(cached)) return cached.token;
    let issued: Issued;
    try {
      issued = await this.request(namespace, serviceAccount, spec);
    } catch (err) {
      const msg = (err as Error).message;
      if (!cached) throw new PluginError(`failed to fetch token: ${msg}`);
      if (this.opts.now() >= cached.expiresMs) throw new PluginError(`token ${key} expired and refresh failed: ${msg}`);
      this.opts.log?.(`Couldn't update token ${key}: ${msg}`);
      return cached.token;
    }
    this.cache.set(key, issued);
    return issued.token;
  }

  /** Forgets the tokens of a pod (its volumes torn down). */
  forgetPod(podUid: string): void {
    for (const [k, v] of this.cache) if (v.podUid === podUid) this.cache.delete(k);
  }

  /** Drops expired tokens (kube does this every minute). */
  cleanup(): void {
    const now = this.opts.now();
    for (const [k, v] of this.cache) if (now >= v.expiresMs) this.cache.delete(k);
  }

  private requiresRefresh(t: Issued): boolean {
    const now = this.opts.now();
    const jitterMs = Math.floor((this.opts.random ?? Math.random)() * MAX_JITTER_S) * 1000;
    const issuedAt = t.expiresMs - t.ttlSeconds * 1000;
    if (now > issuedAt + MAX_TTL_MS - jitterMs) return true;
    return now > t.expiresMs - Math.floor((t.ttlSeconds * 20) / 100) * 1000 - jitterMs;
  }

  private async request(namespace: string, serviceAccount: string, spec: TokenRequestSpec): Promise<Issued> {
    const body: ApiObject = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { audiences: [...spec.audiences], expirationSeconds: spec.expirationSeconds, boundObjectRef: { ...spec.boundObjectRef } },
    };
    const tr = await this.opts.api.createSubresource(SA_TOKEN, namespace, serviceAccount, body);
    const status = (tr.status ?? {}) as { token?: string; expirationTimestamp?: string };
    const granted = (tr.spec as { expirationSeconds?: number } | undefined)?.expirationSeconds ?? spec.expirationSeconds;
    const expiresMs = Date.parse(status.expirationTimestamp ?? '');
    if (!status.token || Number.isNaN(expiresMs)) throw new Error('the TokenRequest answer has no token or expirationTimestamp');
    return { token: status.token, expiresMs, ttlSeconds: granted, podUid: spec.boundObjectRef.uid };
  }
}
