// OpenID Connect ID tokens (--oidc-* flags), as kube-apiserver v1.27 checks
// them (plugin/pkg/authenticator/token/oidc with go-oidc v2):
//   - a bearer token that is not a compact JWT whose (unverified) `iss` is the
//     issuer URL is not ours: other authenticators may take it;
//   - until discovery and the key set have been fetched (asynchronously, retried
//     every 10 s, so the server starts while the provider is down) every token
//     of the issuer fails: "oidc: authenticator not initialized";
//   - the signature (a key of the provider's set, an algorithm of
//     --oidc-signing-algs, RS256 by default; never `none` nor HMAC), then
//     `iss`, `aud` containing the client ID, `exp` (no leeway; missing means
//     expired), `nbf` (1 minute of leeway, go-oidc v2's), and — beyond kube —
//     `azp`, when present on a token with several audiences, must be the client ID;
//   - username from --oidc-username-claim (a string), `email_verified` must be
//     true when present and the claim is `email`; the prefix (below); groups from
//     --oidc-groups-claim (an array of strings or one string), prefixed;
//   - --oidc-required-claim key=value: each present, a string, equal;
//   - an ID token is for a client, not for an API server: a request naming
//     audiences (a TokenReview's spec.audiences) gets the ones it shares with
//     --api-audiences, and none in common is not authenticated (kube's
//     WrapAudienceAgnosticToken).
// Not done: distributed claims (`_claim_names`/`_claim_sources`).
// No call to the provider per request; results are cached by the shared token cache.
import { AuthenticationError, bearerToken, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { implicitAudiences } from './audiences.js';
import { ProviderKeys } from './oidckeys.js';
import type { UserInfo } from './user.js';

/** kube's allow-list for --oidc-signing-algs. */
export const OIDC_SIGNING_ALGS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'] as const;

export interface OidcOptions {
  readonly issuerURL: string;
  readonly clientID: string;
  /** Default `sub`. */
  readonly usernameClaim?: string;
  /** As given on the command line: undefined (the default rule), `-` (none) or a prefix. */
  readonly usernamePrefix?: string;
  readonly groupsClaim?: string;
  readonly groupsPrefix?: string;
  readonly requiredClaims?: Readonly<Record<string, string>>;
  /** PEM bundle (the contents of --oidc-ca-file). */
  readonly ca?: string;
  /** Default [RS256]. */
  readonly signingAlgs?: readonly string[];
  /** The API server's audiences (--api-audiences), for requests that name audiences. */
  readonly apiAudiences?: readonly string[];
  /** Tunables (tests shorten them): initialisation retry interval (10 s) and key refetch cooldown (10 s). */
  readonly initRetryMs?: number;
  readonly refreshCooldownMs?: number;
  /** The clock in ms, for tests. */
  readonly now?: () => number;
}

/** The checks kube's options make at start-up; returns the problems (empty when fine). */
export function validateOidcOptions(o: Pick<OidcOptions, 'issuerURL' | 'clientID' | 'signingAlgs' | 'usernameClaim'>): string[] {
  const errs: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(o.issuerURL);
  } catch {
    errs.push(`--oidc-issuer-url ${JSON.stringify(o.issuerURL)} is not a URL`);
  }
  if (url && url.protocol !== 'https:') errs.push(`--oidc-issuer-url must use the https scheme, got ${JSON.stringify(o.issuerURL)}`);
  if (!o.clientID) errs.push('--oidc-client-id must be set when --oidc-issuer-url is');
  for (const alg of o.signingAlgs ?? []) {
    if (!(OIDC_SIGNING_ALGS as readonly string[]).includes(alg)) errs.push(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  }
  if (o.usernameClaim === '') errs.push('--oidc-username-claim must not be empty');
  return errs;
}

/**
 * The username prefix kube derives from the flags: `-` means none; unset means none for the
 * `email` claim and `<issuer URL>#` for any other claim; anything else is used as given.
 */
export function usernamePrefix(issuerURL: string, usernameClaim: string, flag: string | undefined): string {
  if (flag === '-') return '';
  if (flag === undefined || flag === '') return usernameClaim === 'email' ? '' : `${issuerURL}#`;
  return flag;
}

const NBF_LEEWAY_MS = 60_000;

export class OidcAuthenticator implements Authenticator {
  readonly name = 'oidc';
  readonly keys: ProviderKeys;
  private readonly usernameClaim: string;
  private readonly userPrefix: string;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private initDone: Promise<void>;
  /** The last initialisation error, for logs and tests. */
  lastInitError: Error | undefined;

  constructor(private readonly opts: OidcOptions) {
    const errs = validateOidcOptions(opts);
    if (errs.length > 0) throw new Error(errs.join('; '));
    this.usernameClaim = opts.usernameClaim ?? 'sub';
    this.userPrefix = usernamePrefix(opts.issuerURL, this.usernameClaim, opts.usernamePrefix);
    this.now = opts.now ?? Date.now;
    this.keys = new ProviderKeys({ issuerURL: opts.issuerURL, ca: opts.ca, algorithms: opts.signingAlgs?.length ? opts.signingAlgs : ['RS256'], refreshCooldownMs: opts.refreshCooldownMs });
    this.initDone = new Promise((resolve) => this.initLoop(resolve));
  }

  /** Resolves once discovery and the key set have been fetched (tests wait on it; the server does not). */
  ready(): Promise<void> {
    return this.initDone;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.keys.close();
  }

  private initLoop(resolve: () => void): void {
    if (this.closed) return;
    this.keys.init().then(
      () => {
        this.lastInitError = undefined;
        resolve();
      },
      (err: Error) => {
        this.lastInitError = err;
        console.error(`E svc: oidc authenticator: initializing plugin: ${err.message}`);
        this.timer = setTimeout(() => this.initLoop(resolve), this.opts.initRetryMs ?? 10_000);
        this.timer.unref();
      },
    );
  }

  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    const token = bearerToken(req.headers);
    if (token === undefined) return null;
    return this.authenticateToken(token, req.audiences);
  }

  /** kube's AuthenticateToken: null when the token is not an ID token of this issuer. */
  async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResult | null> {
    if (untrustedIssuer(token) !== this.opts.issuerURL) return null;
    const auds = implicitAudiences(audiences, this.opts.apiAudiences ?? []);
    if (auds === null) return null; // kube's WrapAudienceAgnosticToken: not for these audiences, no error
    if (!this.keys.ready) throw new AuthenticationError('oidc: authenticator not initialized');
    let payload: Uint8Array;
    try {
      payload = await this.keys.verify(token);
    } catch (err) {
      throw new AuthenticationError(`oidc: verify token: failed to verify signature: ${(err as Error).message}`);
    }
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(Buffer.from(payload).toString('utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new AuthenticationError(`oidc: verify token: oidc: failed to unmarshal claims: ${(err as Error).message}`);
    }
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new AuthenticationError('oidc: verify token: oidc: failed to unmarshal claims: not a JSON object');
    this.checkStandardClaims(claims);
    const user = this.userFrom(claims);
    return auds ? { user, audiences: auds } : { user };
  }

  private checkStandardClaims(c: Record<string, unknown>): void {
    const fail = (msg: string): never => {
      throw new AuthenticationError(`oidc: verify token: ${msg}`);
    };
    // go-oidc's typed decoding: these claims, when present, must have their types.
    for (const k of ['iss', 'sub', 'nonce', 'at_hash', 'azp'] as const) {
      if (c[k] !== undefined && c[k] !== null && typeof c[k] !== 'string') fail(`oidc: failed to unmarshal claims: claim ${k} is not a string`);
    }
    for (const k of ['exp', 'iat', 'nbf'] as const) {
      if (c[k] !== undefined && c[k] !== null && (typeof c[k] !== 'number' || !Number.isFinite(c[k]))) fail(`oidc: failed to unmarshal claims: claim ${k} is not a number`);
    }
    const aud = c.aud === undefined || c.aud === null ? [] : typeof c.aud === 'string' ? [c.aud] : c.aud;
    if (!Array.isArray(aud) || !aud.every((a) => typeof a === 'string')) return fail('oidc: failed to unmarshal claims: claim aud is neither a string nor an array of strings');
    if (c.iss !== this.opts.issuerURL) fail(`oidc: id token issued by a different provider, expected ${JSON.stringify(this.opts.issuerURL)} got ${JSON.stringify(c.iss ?? '')}`);
    if (!aud.includes(this.opts.clientID)) fail(`oidc: expected audience ${JSON.stringify(this.opts.clientID)} got ${JSON.stringify(aud)}`);
    if (aud.length > 1 && typeof c.azp === 'string' && c.azp !== this.opts.clientID) fail(`oidc: authorized party ${JSON.stringify(c.azp)} is not the client ID ${JSON.stringify(this.opts.clientID)}`);
    const now = this.now();
    const exp = typeof c.exp === 'number' ? c.exp * 1000 : 0;
    if (exp < now) fail(`oidc: token is expired (Token Expiry: ${new Date(exp).toISOString()})`);
    if (typeof c.nbf === 'number' && now + NBF_LEEWAY_MS < c.nbf * 1000) {
      fail(`oidc: current time ${new Date(now).toISOString()} before the nbf (not before) time: ${new Date(c.nbf * 1000).toISOString()}`);
    }
  }

  private userFrom(c: Record<string, unknown>): UserInfo {
    const fail = (msg: string): never => {
      throw new AuthenticationError(msg);
    };
    const claim = this.usernameClaim;
    const username = c[claim];
    if (username === undefined) fail(`oidc: parse username claims ${JSON.stringify(claim)}: claim not present`);
    if (typeof username !== 'string') return fail(`oidc: parse username claims ${JSON.stringify(claim)}: not a string`);
    if (claim === 'email' && c.email_verified !== undefined) {
      if (typeof c.email_verified !== 'boolean') fail("oidc: parse 'email_verified' claim: not a boolean");
      if (c.email_verified !== true) fail('oidc: email not verified');
    }
    let groups: string[] = [];
    const gc = this.opts.groupsClaim;
    if (gc && c[gc] !== undefined && c[gc] !== null) {
      const v = c[gc];
      if (typeof v === 'string') groups = [v];
      else if (Array.isArray(v) && v.every((g) => typeof g === 'string')) groups = v as string[];
      else fail(`oidc: parse groups claim ${JSON.stringify(gc)}: not a string or an array of strings`);
      if (this.opts.groupsPrefix) groups = groups.map((g) => this.opts.groupsPrefix + g);
    }
    for (const [k, want] of Object.entries(this.opts.requiredClaims ?? {})) {
      if (!(k in c)) fail(`oidc: required claim ${k} not present in ID token`);
      if (typeof c[k] !== 'string') fail(`oidc: parse claim ${k}: not a string`);
      if (c[k] !== want) fail(`oidc: required claim ${k} value does not match. Got = ${c[k] as string}, want = ${want}`);
    }
    return { name: this.userPrefix + username, groups };
  }
}

/** The `iss` of a compact JWT, unverified (kube's untrustedIssuer); undefined when it is not one. */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  if (!/^[A-Za-z0-9_-]*$/.test(parts[1]!)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { iss?: unknown };
    if (typeof claims !== 'object' || claims === null) return undefined;
    const iss = claims.iss;
    if (iss === 'accounts.google.com') return 'https://accounts.google.com';
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}
