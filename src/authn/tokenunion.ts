// Bearer-token authentication over several token authenticators (kube's
// token union behind its bearertoken request authenticator): each is asked
// in order; the first to accept decides; a token that none accepts is 401 —
// with the authenticators' errors when some failed ("[a, b]" as kube
// aggregates them), else "invalid bearer token". Without a bearer token it
// answers null, so the request union goes on (client certificates, anonymous).
import { AuthenticationError, bearerToken, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { aggregate } from './serviceaccount/jwt.js';

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
        errors.push(err.message);
      }
    }
    throw new AuthenticationError(errors.length > 0 ? aggregate(errors) : INVALID_BEARER_TOKEN);
  }
}
