// Who is calling the agent, as the kubelet's delegating authenticator decides:
//
//   client certificate  verified against --client-ca-file (CommonName → user,
//                       Organizations → groups); a certificate that fails → 401
//   bearer token        --authentication-token-webhook: a TokenReview through
//                       the API server, answers (yes and no) cached for
//                       --authentication-token-webhook-cache-ttl; refused → 401
//   neither             --anonymous-auth: system:anonymous in
//                       system:unauthenticated; otherwise 401
// Authenticated users get the group system:authenticated added.
import type { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AgentApi } from '../api.js';
import { isObject } from '../../registry/object.js';
import { TtlCache } from './ttlcache.js';

export interface AgentUser {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The reviews the agent asks the API server for (AgentApi.create is enough). */
export type ReviewApi = Pick<AgentApi, 'create'>;

export interface AuthenticationOptions {
  /** The roots of --client-ca-file; none: client certificates are not looked at. */
  readonly clientCAs?: readonly X509Certificate[];
  /** --authentication-token-webhook with its cache TTL (kube: 2m). */
  readonly tokenWebhook?: { readonly api: ReviewApi; readonly cacheTtlMs: number };
  /** --anonymous-auth (kube: true). */
  readonly anonymous: boolean;
  readonly now?: () => number;
}

export interface AuthnRequest {
  readonly headers: IncomingHttpHeaders;
  /** The peer's chain, leaf first (empty without a client certificate). */
  readonly peerCertificates: readonly X509Certificate[];
}

/** A refusal (answered 401 "Unauthorized"); the reason is for the agent's log. */
export class Unauthenticated extends Error {
  override readonly name = 'Unauthenticated';
}

export const ANONYMOUS: AgentUser = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

// the PKI module (and the x509 library under it) is loaded with the first client certificate
let pkiLoading: Promise<typeof import('../../server/pki.js')> | undefined;
const pki = () => (pkiLoading ??= import('../../server/pki.js'));

export class AgentAuthenticator {
  private readonly cache: TtlCache<AgentUser | null>;
  constructor(private readonly o: AuthenticationOptions) {
    this.cache = new TtlCache(4096, o.now);
  }

  async authenticate(req: AuthnRequest): Promise<AgentUser> {
    if (this.o.clientCAs && this.o.clientCAs.length > 0 && req.peerCertificates.length > 0) {
      const r = (await pki()).verifyClientCertificate(req.peerCertificates, this.o.clientCAs);
      if (!r.ok) throw new Unauthenticated(`verifying certificate: ${r.reason}`);
      return authenticated({ name: r.user.name, groups: r.user.groups });
    }
    const token = bearer(req.headers.authorization);
    if (token !== undefined && this.o.tokenWebhook) {
      const user = await this.review(token, this.o.tokenWebhook);
      if (!user) throw new Unauthenticated('invalid bearer token');
      return authenticated(user);
    }
    if (this.o.anonymous) return ANONYMOUS;
    throw new Unauthenticated('no credentials');
  }

  private async review(token: string, hook: NonNullable<AuthenticationOptions['tokenWebhook']>): Promise<AgentUser | null> {
    const key = TtlCache.key(['token', token]);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const answer = await hook.api.create({ group: 'authentication.svc.io', version: 'v1', resource: 'tokenreviews' }, '', {
      apiVersion: 'authentication.svc.io/v1', kind: 'TokenReview', metadata: {}, spec: { token },
    });
    const status = isObject(answer.status) ? answer.status : {};
    const u = isObject(status.user) ? status.user : {};
    const user: AgentUser | null = status.authenticated === true && typeof u.username === 'string'
      ? {
        name: u.username,
        ...(typeof u.uid === 'string' && u.uid ? { uid: u.uid } : {}),
        groups: Array.isArray(u.groups) ? u.groups.filter((g): g is string => typeof g === 'string') : [],
        ...(isObject(u.extra) ? { extra: u.extra as Record<string, string[]> } : {}),
      }
      : null;
    this.cache.set(key, user, hook.cacheTtlMs);
    return user;
  }
}

function bearer(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m ? m[1] : undefined;
}

function authenticated(u: AgentUser): AgentUser {
  return u.groups.includes('system:authenticated') ? u : { ...u, groups: [...u.groups, 'system:authenticated'] };
}
