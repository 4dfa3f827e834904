// Authentication: each mechanism is an Authenticator; a Union tries them in
// order. An authenticator returns the user (and, for audience-aware tokens,
// the audiences the token was accepted for), or null when the request carries
// no credentials of its kind; invalid credentials throw AuthenticationError
// (answered 401 by the chain).
import type { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { PeerCertificate } from 'node:tls';
import { ANONYMOUS, AUTHENTICATED, UNAUTHENTICATED, type UserInfo } from './user.js';
import { aggregateErrors } from '../api/meta/index.js';

/** What authenticators may look at: headers and the TLS peer. */
export interface AuthRequest {
  /** The request's headers (authenticators that consume identity headers delete them here, as kube does). */
  readonly headers: IncomingHttpHeaders;
  /** node's rawHeaders, when the request has them: repeated headers as separate values (authn/headers.ts). */
  readonly rawHeaders?: readonly string[];
  /** The verified client certificate chain's leaf, if the client presented one. */
  readonly peerCertificate?: PeerCertificate;
  /** Whether TLS verified the client certificate against the client CA. */
  readonly peerAuthorized?: boolean;
  readonly peerAuthorizationError?: string;
  /**
   * The chain the client presented, leaf first. The TLS server trusts the client CA and the
   * requestheader CA together, so an authenticator verifies the chain against its own roots
   * (server/pki.ts verifyClientCertificate) rather than trusting peerAuthorized.
   */
  readonly peerChain?: readonly X509Certificate[];
  /**
   * The audiences a token must be valid for (kube's authenticator.Audiences in the request
   * context): a TokenReview's spec.audiences; absent means the API server's own (--api-audiences).
   */
  readonly audiences?: readonly string[];
}

/** kube's authenticator.Response. */
export interface AuthResult {
  readonly user: UserInfo;
  /** The audiences (of those asked for) the credential is valid for; absent when it is not audience-aware. */
  readonly audiences?: readonly string[];
}

export interface Authenticator {
  readonly name: string;
  authenticate(req: AuthRequest): Promise<AuthResult | null> | AuthResult | null;
}

export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}

export interface UnionOptions {
  readonly anonymous: boolean;
}

/** Tries each authenticator; adds system:authenticated; falls back to anonymous when allowed. */
export class UnionAuthenticator implements Authenticator {
  readonly name = 'union';
  constructor(private readonly authenticators: readonly Authenticator[], private readonly opts: UnionOptions) {
    const names = new Set<string>();
    for (const a of authenticators) {
      if (names.has(a.name)) throw new Error(`authenticator ${a.name} registered twice`);
      names.add(a.name);
    }
  }

  async authenticate(req: AuthRequest): Promise<AuthResult> {
    const errors: string[] = [];
    for (const a of this.authenticators) {
      try {
        const r = await a.authenticate(req);
        if (r) return { ...r, user: authenticated(r.user) };
      } catch (err) {
        if (!(err instanceof AuthenticationError)) throw err;
        errors.push(err.message);
      }
    }
    // kube's bearer-token authenticator: a bearer token no token authenticator accepted is an
    // error even when none of them said why — never an anonymous request.
    if (errors.length === 0 && bearerToken(req.headers) !== undefined) errors.push('invalid bearer token');
    if (errors.length > 0) throw new AuthenticationError(aggregateErrors(errors));
    if (!this.opts.anonymous) throw new AuthenticationError('no credentials provided');
    return { user: { name: ANONYMOUS, groups: [UNAUTHENTICATED] } };
  }
}

/**
 * The user with system:authenticated added, made once per user object an
 * authenticator answers (a cached token's user is one object for as long as it
 * is cached): later stages that remember things per user object (the audit
 * event's user, its JSON) find them again.
 */
const authenticatedUsers = new WeakMap<UserInfo, UserInfo>();

function authenticated(user: UserInfo): UserInfo {
  if (user.groups.includes(AUTHENTICATED)) return user;
  let u = authenticatedUsers.get(user);
  if (u === undefined) authenticatedUsers.set(user, (u = { ...user, groups: [...user.groups, AUTHENTICATED] }));
  return u;
}

/**
 * The bearer token of the Authorization header, as kube's bearer-token authenticator reads it: the
 * trimmed header split on single spaces into at most three parts, the first `bearer` in any case,
 * the second the token (`Bearer a b` is the token `a`; `Bearer  a`, with two spaces, is none).
 */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const h = headers.authorization;
  if (!h) return undefined;
  const parts = h.trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1] === '' ? undefined : parts[1];
}
