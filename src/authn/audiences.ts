// Audience-agnostic authenticators (static tokens, bootstrap tokens) under a
// request that names audiences (kube's WrapAudienceAgnosticToken): the
// credential is taken to be for the API server's own audiences, so it is
// accepted only when the request's audiences include one of them, and the
// answer carries that intersection. A request naming no audiences is served
// as is.
import type { AuthRequest, AuthResult, Authenticator } from './authenticator.js';

export class AudienceAgnostic implements Authenticator {
  readonly name: string;
  constructor(private readonly inner: Authenticator, private readonly apiAudiences: readonly string[]) {
    this.name = inner.name;
  }

  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    if (!req.audiences) return this.inner.authenticate(req);
    const auds = this.apiAudiences.filter((a) => req.audiences!.includes(a));
    if (auds.length === 0) return null;
    const r = await this.inner.authenticate(req);
    return r ? { ...r, audiences: auds } : null;
  }
}
