// Signed service-account JWTs, as kube's pkg/serviceaccount/jwt.go behaves:
// a generator that signs claims for one issuer, and an authenticator that
// accepts a token when (in this order) its unverified `iss` is one of its
// issuers (otherwise the token is not its to judge: null), the signature
// verifies with one of the public keys, the verified issuer is accepted, the
// audiences intersect the request's (or the API audiences), and the
// validator (claims, lookup) agrees. JWS parsing and signatures are jose's.
import { CompactSign, compactVerify, decodeProtectedHeader, errors as joseErrors } from 'jose';
import { AuthenticationError, bearerToken, type AuthRequest, type AuthResult, type Authenticator } from '../authenticator.js';
import type { UserInfo } from '../user.js';
import type { PublicKeyInfo, SigningKey } from './keys.js';
import { aggregateErrors } from '../../api/meta/index.js';

export type Claims = Record<string, unknown>;

/** Who a valid token names (kube's apiserver serviceaccount.ServiceAccountInfo). */
export interface ServiceAccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly podName?: string;
  readonly podUID?: string;
}

export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
/** The extra keys of a pod-bound token: kube's names (authorizers and webhooks read them) and ours. */
export const POD_NAME_KEYS = ['authentication.kubernetes.io/pod-name', 'authentication.svc.io/pod-name'] as const;
export const POD_UID_KEYS = ['authentication.kubernetes.io/pod-uid', 'authentication.svc.io/pod-uid'] as const;

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;
}

export function serviceAccountUser(sa: ServiceAccountInfo): UserInfo {
  const user: UserInfo = {
    name: serviceAccountUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: [ALL_SERVICE_ACCOUNTS_GROUP, `system:serviceaccounts:${sa.namespace}`],
  };
  if (!sa.podName || !sa.podUID) return user;
  const extra: Record<string, string[]> = {};
  for (const k of POD_NAME_KEYS) extra[k] = [sa.podName];
  for (const k of POD_UID_KEYS) extra[k] = [sa.podUID];
  return { ...user, extra };
}

/** JSON with object keys sorted at every level, as go-jose writes claims (through a Go map). */
export function sortedJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.keys(x as object).sort().map((k) => [k, (x as Record<string, unknown>)[k]]))
      : x);
}

/** Signs claims for one issuer (kube's JWTTokenGenerator): header {alg, kid}, payload with `iss` set. */
export class TokenGenerator {
  constructor(readonly issuer: string, private readonly key: SigningKey) {}

  async generate(claims: Claims): Promise<string> {
    const payload = new TextEncoder().encode(sortedJson({ ...claims, iss: this.issuer }));
    return new CompactSign(payload).setProtectedHeader({ alg: this.key.alg, kid: this.key.kid }).sign(this.key.privateKey);
  }
}

/** Claims checks after the signature, issuer and audiences (kube's Validator). */
export type Validator = (token: string, claims: Claims) => Promise<ServiceAccountInfo>;

export interface JwtAuthenticatorOptions {
  readonly name: string;
  readonly issuers: readonly string[];
  readonly keys: readonly PublicKeyInfo[];
  /** --api-audiences: what a token without `aud` is taken to be for, and what a request without audiences asks for. */
  readonly implicitAudiences: readonly string[];
  readonly validator: Validator;
}

/** go-jose's messages for a signature that does not verify, or an algorithm the key cannot verify. */
const CRYPTO_ERROR = 'square/go-jose: error in cryptographic primitive';
const ALG_ERROR = 'square/go-jose: unknown/unsupported algorithm';

export class JwtTokenAuthenticator implements Authenticator {
  readonly name: string;
  private readonly issuers: ReadonlySet<string>;

  constructor(private readonly opts: JwtAuthenticatorOptions) {
    this.name = opts.name;
    this.issuers = new Set(opts.issuers);
  }

  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    const token = bearerToken(req.headers);
    if (token === undefined || !this.hasCorrectIssuer(token)) return null;
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return null; // not a JWS: not ours (kube: ParseSigned fails)
    }
    const payload = await this.verifySignature(token, typeof kid === 'string' ? kid : undefined);
    let claims: Claims;
    try {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(payload));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      claims = parsed as Claims;
    } catch {
      throw new AuthenticationError('square/go-jose/jwt: invalid claims');
    }
    const iss = typeof claims.iss === 'string' ? claims.iss : '';
    if (!this.issuers.has(iss)) throw new AuthenticationError(`token issuer ${goQuote(iss)} is invalid`);

    let tokenAudiences = audiencesOf(claims.aud);
    if (tokenAudiences.length === 0) tokenAudiences = [...this.opts.implicitAudiences]; // legacy tokens: the API server's
    const requested = req.audiences ?? this.opts.implicitAudiences;
    const audiences = tokenAudiences.filter((a) => requested.includes(a));
    if (audiences.length === 0 && this.opts.implicitAudiences.length !== 0) {
      throw new AuthenticationError(`token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(requested)}`);
    }
    const sa = await this.opts.validator(token, claims);
    return { user: serviceAccountUser(sa), audiences };
  }

  /** The unverified `iss` names one of our issuers (kube's hasCorrectIssuer; no JSON-serialized JWS). */
  private hasCorrectIssuer(token: string): boolean {
    if (token.trimStart().startsWith('{')) return false;
    const parts = token.split('.');
    if (parts.length !== 3) return false;
    try {
      const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
      return claims !== null && typeof claims === 'object' && this.issuers.has(String((claims as Claims).iss));
    } catch {
      return false;
    }
  }

  /** The verified payload; every key is tried (the token's kid first), as kube 1.27 does. */
  private async verifySignature(token: string, kid: string | undefined): Promise<Uint8Array> {
    const keys = kid === undefined ? this.opts.keys : [...this.opts.keys.filter((k) => k.kid === kid), ...this.opts.keys.filter((k) => k.kid !== kid)];
    if (keys.length === 0) throw new AuthenticationError('invalid signature, no keys found');
    const errs: string[] = [];
    for (const k of keys) {
      try {
        return (await compactVerify(token, k.key, { algorithms: [k.alg] })).payload;
      } catch (err) {
        if (err instanceof joseErrors.JWSSignatureVerificationFailed) errs.push(CRYPTO_ERROR);
        else if (err instanceof joseErrors.JOSEAlgNotAllowed || err instanceof joseErrors.JOSENotSupported) errs.push(ALG_ERROR);
        else if (err instanceof joseErrors.JOSEError) errs.push(`square/go-jose: ${err.message}`);
        else throw err;
      }
    }
    throw new AggregateAuthenticationError(errs);
  }
}

/** Several failures as one (kube's utilerrors.Aggregate): an enclosing aggregate lists its parts flat. */
export class AggregateAuthenticationError extends AuthenticationError {
  readonly parts: readonly string[];
  constructor(parts: readonly string[]) {
    const flat = parts.length === 1 ? parts : [...new Set(parts)];
    super(aggregateErrors(flat));
    this.parts = flat;
  }
}

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === 'string');
  return [];
}

/** Go's %q of a string. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's %q of a []string: ["a" "b"]. */
export function goQuoteList(xs: readonly string[]): string {
  return `[${xs.map(goQuote).join(' ')}]`;
}

