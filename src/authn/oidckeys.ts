// The OpenID provider's signing keys, as kube-apiserver's OIDC authenticator
// (go-oidc v2) keeps them: discovery (`<issuer>/.well-known/openid-configuration`,
// whose `issuer` must equal the configured one exactly) gives `jwks_uri`; the
// key set is fetched over TLS with --oidc-ca-file and kept in memory. A token
// whose key is not in the set (a rotated key) makes one refetch — never more
// than one at a time, nor more often than once per cooldown — and is checked
// again. Nothing is fetched per request otherwise. jose checks the signatures.
import { compactVerify, createLocalJWKSet, errors as joseErrors, type JSONWebKeySet } from 'jose';
import { OutboundClient } from '../webhook/client.js';

export interface ProviderKeysOptions {
  readonly issuerURL: string;
  /** PEM CA bundle for the provider's TLS certificate; system roots when absent. */
  readonly ca?: string;
  readonly algorithms: readonly string[];
  /** Least time between two refetches of the key set on an unknown key (default 10 s). */
  readonly refreshCooldownMs?: number;
  /** Deadline of one fetch (default 30 s, as kube's client). */
  readonly timeoutMs?: number;
}

export class ProviderKeys {
  private keys: ReturnType<typeof createLocalJWKSet> | undefined;
  private jwksURL: URL | undefined;
  private fetchedAt = 0;
  private inflight: Promise<void> | undefined;
  private readonly client: OutboundClient;
  private readonly cooldownMs: number;
  /** Times the key set was fetched (tests look). */
  fetches = 0;

  constructor(private readonly opts: ProviderKeysOptions) {
    const url = new URL(opts.issuerURL);
    // One attempt per fetch: initialisation and refreshes retry on their own schedule.
    this.client = new OutboundClient({ server: url, ...(opts.ca ? { ca: opts.ca } : {}) }, { timeoutMs: opts.timeoutMs ?? 30_000, backoff: { initialMs: 0, factor: 1, jitter: 0, steps: 1 }, maxResponseBytes: 1 << 20 });
    this.cooldownMs = opts.refreshCooldownMs ?? 10_000;
  }

  get ready(): boolean {
    return this.keys !== undefined;
  }

  /** Discovery, then the key set. Throws on any failure (the caller retries). */
  async init(): Promise<void> {
    const base = this.opts.issuerURL.replace(/\/$/, '');
    const doc = await this.client.json({ url: `${base}/.well-known/openid-configuration` }) as Record<string, unknown>;
    if (typeof doc !== 'object' || doc === null) throw new Error('oidc: discovery document is not a JSON object');
    if (doc.issuer !== this.opts.issuerURL) {
      throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.opts.issuerURL)} got ${JSON.stringify(doc.issuer)}`);
    }
    if (typeof doc.jwks_uri !== 'string') throw new Error('oidc: discovery document has no jwks_uri');
    const jwksURL = new URL(doc.jwks_uri);
    if (jwksURL.protocol !== 'https:') throw new Error(`oidc: jwks_uri ${doc.jwks_uri} is not https`);
    this.jwksURL = jwksURL;
    await this.fetchKeys();
  }

  /**
   * Verifies the JWS signature with a key of the set (by kid when the header has one) and an
   * allowed algorithm; returns the payload bytes. An unknown key or a failed signature refetches
   * the set once (subject to the cooldown) and tries again.
   */
  async verify(token: string): Promise<Uint8Array> {
    if (!this.keys) throw new Error('oidc: authenticator not initialized');
    try {
      return (await compactVerify(token, this.keys, { algorithms: [...this.opts.algorithms] })).payload;
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey || err instanceof joseErrors.JWSSignatureVerificationFailed)) throw err;
      if (!(await this.refresh())) throw err;
      return (await compactVerify(token, this.keys, { algorithms: [...this.opts.algorithms] })).payload;
    }
  }

  /** Refetches the key set unless one was fetched within the cooldown; true when a new set was loaded. */
  private async refresh(): Promise<boolean> {
    if (this.inflight) {
      await this.inflight.catch(() => undefined);
      return true;
    }
    if (Date.now() - this.fetchedAt < this.cooldownMs) return false;
    this.inflight = this.fetchKeys().finally(() => (this.inflight = undefined));
    try {
      await this.inflight;
      return true;
    } catch {
      return false;
    }
  }

  private async fetchKeys(): Promise<void> {
    this.fetchedAt = Date.now();
    const jwks = await this.client.json({ url: this.jwksURL! }) as JSONWebKeySet;
    if (typeof jwks !== 'object' || jwks === null || !Array.isArray(jwks.keys)) throw new Error('oidc: the key set is not a JWKS document');
    this.keys = createLocalJWKSet(jwks);
    this.fetches++;
  }

  close(): void {
    this.client.close();
  }
}
