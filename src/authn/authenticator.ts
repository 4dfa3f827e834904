// Authentication: each mechanism is an Authenticator; a Union tries them in
// order. An authenticator returns the user (and, for audience-aware tokens,
// the audiences the token was accepted for), or null when the request carries
// no credentials of its kind; invalid credentials throw AuthenticationError
// (answered 401 by the chain).
import type { IncomingHttpHeaders } from 'node:http';
import type { PeerCertificate } from 'node:tls';
import { ANONYMOUS, AUTHENTICATED, UNAUTHENTICATED, type UserInfo } from './user.js';

/** What authenticators may look at: headers and the TLS peer. */
export interface AuthRequest {
  readonly headers: IncomingHttpHeaders;
  /** The verified client certificate chain's leaf, if the client presented one. */
  readonly peerCertificate?: PeerCertificate;
  /** Whether TLS verified the client certificate against the client CA. */
  readonly peerAuthorized?: boolean;
  readonly peerAuthorizationError?: string;
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
  /**
   * Set by token authenticators that return null for tokens that are not theirs (OIDC, webhook):
   * when one is configured, a bearer token that no authenticator accepts is 401 rather than
   * anonymous (kube's bearertoken authenticator: "invalid bearer token").
   */
  readonly bearer?: boolean;
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
        if (r) return { ...r, user: withGroup(r.user, AUTHENTICATED) };
      } catch (err) {
        if (!(err instanceof AuthenticationError)) throw err;
        errors.push(err.message);
      }
    }
    if (errors.length > 0) throw new AuthenticationError(errors.join('; '));
    if (this.authenticators.some((a) => a.bearer) && bearerToken(req.headers) !== undefined) throw new AuthenticationError('invalid bearer token');
    if (!this.opts.anonymous) throw new AuthenticationError('no credentials provided');
    return { user: { name: ANONYMOUS, groups: [UNAUTHENTICATED] } };
  }
}

function withGroup(user: UserInfo, group: string): UserInfo {
  return user.groups.includes(group) ? user : { ...user, groups: [...user.groups, group] };
}

/** The bearer token of the Authorization header, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const h = headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : undefined;
}
