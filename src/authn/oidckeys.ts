// The OpenID provider's signing keys, as kube-apiserver's OIDC authenticator
// (go-oidc v2) keeps them: discovery (`<issuer>/.well-known/openid-configuration`,
// whose `issuer` must equal the configured one exactly) gives `jwks_uri`; the
// key set is fetched over TLS with --oidc-ca-file and kept in memory. A token
// whose key is not in the set (a rotated key) makes one refetch — never more
// than one at a time, nor more often than once per cooldown — and is checked
// again. Nothing is fetched per request otherwise.
//
// jose parses the key set, selects the key for a token (kid, kty and curve
// for the algorithm, use) and imports it, and decodes the JOSE header. The
// signature itself is checked with node:crypto's synchronous verify on that key
// (RS*, PS*, ES*: PKCS#1 v1.5, PSS with the hash's salt length, IEEE P1363
// r||s), because WebCrypto's asynchronous verify, which jose v6 uses, costs
// 4–5× the CPU and a thread-pool round trip (see bench/authn.ts). Anything
// else — an algorithm outside the list, `crit` or `b64` headers, several
// matching keys, a key of the wrong type or an RSA key under 2048 bits — goes
// to jose's compactVerify, which decides.
import { constants, KeyObject, verify as cryptoVerify } from 'node:crypto';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, type JSONWebKeySet } from 'jose';
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

const B64URL = /^[A-Za-z0-9_-]*$/;
const keyObjects = new WeakMap<object, KeyObject>();

interface SyncAlg {
  readonly hash: string;
  readonly types: readonly string[];
  readonly curve?: string;
  readonly options: { padding?: number; saltLength?: number; dsaEncoding?: 'ieee-p1363' };
}
const rs = (hash: string): SyncAlg => ({ hash, types: ['rsa'], options: { padding: constants.RSA_PKCS1_PADDING } });
const ps = (hash: string, saltLength: number): SyncAlg => ({ hash, types: ['rsa', 'rsa-pss'], options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength } });
const es = (hash: string, curve: string): SyncAlg => ({ hash, types: ['ec'], curve, options: { dsaEncoding: 'ieee-p1363' } });
/** RFC 7518 §3: the JWS algorithms verified on node:crypto. */
const SYNC_ALGS: Record<string, SyncAlg> = {
  RS256: rs('sha256'), RS384: rs('sha384'), RS512: rs('sha512'),
  PS256: ps('sha256', 32), PS384: ps('sha384', 48), PS512: ps('sha512', 64),
  ES256: es('sha256', 'prime256v1'), ES384: es('sha384', 'secp384r1'), ES512: es('sha512', 'secp521r1'),
};

export class ProviderKeys {
  private keys: ReturnType<typeof createLocalJWKSet> | undefined;
  private jwksURL: URL | undefined;
  private fetchedAt = 0;
  private inflight: Promise<void> | undefined;
  private readonly client: OutboundClient;
  private readonly cooldownMs: number;
  /** Times the key set was fetched, and signatures checked on node:crypto (tests look). */
  fetches = 0;
  syncVerified = 0;

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
  async verify(token: string, how: { joseOnly?: boolean } = {}): Promise<Uint8Array> {
    if (!this.keys) throw new Error('oidc: authenticator not initialized');
    try {
      return await this.verifyOnce(token, how.joseOnly);
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey || err instanceof joseErrors.JWSSignatureVerificationFailed)) throw err;
      if (!(await this.refresh())) throw err;
      return await this.verifyOnce(token, how.joseOnly);
    }
  }

  private async verifyOnce(token: string, joseOnly = false): Promise<Uint8Array> {
    const fast = joseOnly ? undefined : await this.verifySync(token);
    return fast ?? (await compactVerify(token, this.keys!, { algorithms: [...this.opts.algorithms] })).payload;
  }

  /** The common case on node:crypto; undefined hands the token to jose. Throws jose's errors. */
  private async verifySync(token: string): Promise<Uint8Array | undefined> {
    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) return undefined;
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return undefined;
    }
    if (header.crit !== undefined || header.b64 !== undefined || typeof header.alg !== 'string') return undefined;
    const alg = SYNC_ALGS[header.alg];
    if (!alg || !this.opts.algorithms.includes(header.alg)) return undefined;
    let cryptoKey: Parameters<typeof KeyObject.from>[0];
    try {
      cryptoKey = await this.keys!(header, { payload: parts[1]!, signature: parts[2]! }) as Parameters<typeof KeyObject.from>[0];
    } catch (err) {
      if (err instanceof joseErrors.JWKSNoMatchingKey) throw err;
      return undefined; // several candidates and the like: jose tries them
    }
    let key = keyObjects.get(cryptoKey);
    if (!key) keyObjects.set(cryptoKey, (key = KeyObject.from(cryptoKey)));
    const d = key.asymmetricKeyDetails;
    if (key.type !== 'public' || !alg.types.includes(key.asymmetricKeyType ?? '')) return undefined;
    if (alg.curve ? d?.namedCurve !== alg.curve : (d?.modulusLength ?? 0) < 2048) return undefined;
    const ok = cryptoVerify(alg.hash, Buffer.from(`${parts[0]}.${parts[1]}`), { key, ...alg.options }, Buffer.from(parts[2]!, 'base64url'));
    if (!ok) throw new joseErrors.JWSSignatureVerificationFailed();
    this.syncVerified++;
    return Buffer.from(parts[1]!, 'base64url');
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
