// Audiences of a token authenticator's answer (kube's authenticator.Audiences
// and WrapAudienceAgnosticToken). A credential that names no audience of its
// own (a static or bootstrap token; an OIDC ID token is for a client, not for
// an API server) is valid for the API server's audiences (--api-audiences):
// when a request asks for audiences (a TokenReview's spec.audiences), they must
// meet the server's, and the answer carries the intersection. A request naming
// no audiences is served as is.
import type { AuthRequest, AuthResult, Authenticator } from './authenticator.js';

export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(b);
  return a.filter((x) => set.has(x));
}

/**
 * For audience-agnostic authenticators: undefined when the request names no audiences (no check);
 * null when it names some and none is the server's (the token is not for them); else the intersection.
 */
export function implicitAudiences(requested: readonly string[] | undefined, server: readonly string[]): string[] | null | undefined {
  if (!requested || requested.length === 0) return undefined;
  const auds = intersectAudiences(requested, server);
  return auds.length > 0 ? auds : null;
}

/** An audience-agnostic authenticator under a request that may name audiences. */
export class AudienceAgnostic implements Authenticator {
  readonly name: string;
  constructor(private readonly inner: Authenticator, private readonly apiAudiences: readonly string[]) {
    this.name = inner.name;
  }

  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    const auds = implicitAudiences(req.audiences, this.apiAudiences);
    if (auds === undefined) return this.inner.authenticate(req);
    if (auds === null) return null;
    const r = await this.inner.authenticate(req);
    return r ? { ...r, audiences: auds } : null;
  }
}
