// Bearer-token authentication over several token authenticators (kube's
// token union behind its bearertoken request authenticator): each is asked
// in order; the first to accept decides; a token that none accepts is 401,
// Kubernetes reports it (kube-apiserver's log, TokenReview's status.error):
// "invalid bearer token", followed by the authenticators' errors when some
// failed — "[invalid bearer token, service account token has expired]".
// Without a bearer token it answers null, so the request union goes on.
import { AuthenticationError, bearerToken, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { AggregateAuthenticationError } from './serviceaccount/jwt.js';

export const INVALID_BEARER_TOKEN = 'invalid bearer token';

export class TokenUnionAuthenticator implements Authenticator {
  readonly name: string;

  constructor(private readonly authenticators: readonly Authenticator[], name = 'bearer-token') {
    this.name = name;
    const names = new Set<string>();
    for (const a of authenticators) {
      if (names.has(a.name)) throw new Error(`token authenticator ${a.name} registered twice`);
      names.add(a.name);
    }
  }

  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    if (bearerToken(req.headers) === undefined) return null;
    const errors: string[] = [];
    for (const a of this.authenticators) {
      try {
        const r = await a.authenticate(req);
        if (r) return r;
      } catch (err) {
        if (!(err instanceof AuthenticationError)) throw err;
        errors.push(...(err instanceof AggregateAuthenticationError ? err.parts : [err.message]));
      }
    }
    throw errors.length > 0 ? new AggregateAuthenticationError([INVALID_BEARER_TOKEN, ...errors]) : new AuthenticationError(INVALID_BEARER_TOKEN);
  }
}
