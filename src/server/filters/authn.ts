// Authentication: sets ctx.user, or answers 401 for invalid credentials
// (through `failed` when given: kube's failed handler, audited); records
// authentication_attempts/_duration_seconds, authenticated_user_requests and the filter's latency.
import type { TLSSocket } from 'node:tls';
import { peerCertificateChain } from '../pki.js';
import { newUnauthorized, type StatusError } from '../../api/meta/index.js';
import { AuthenticationError, type AuthRequest, type UnionAuthenticator } from '../../authn/authenticator.js';
import type { Handler, RequestContext } from '../context.js';
import { recordAuthentication } from '../../metrics/authn.js';
import { recordFilterLatency } from '../../metrics/apiserver.js';

export function withAuthentication(next: Handler, authenticator: UnionAuthenticator, failed?: (ctx: RequestContext, err: StatusError) => Promise<void>): Handler {
  return async (ctx) => {
    const started = performance.now();
    try {
      ctx.user = (await authenticator.authenticate(authRequest(ctx))).user;
    } catch (err) {
      if (err instanceof AuthenticationError) {
        // kube: no credentials (anonymous access off) is a failure, credentials refused an error.
        recordAuthentication(err.message === 'no credentials provided' ? 'failure' : 'error', (performance.now() - started) / 1000);
        ctx.refusedBy = 'authentication';
        if (failed) return failed(ctx, newUnauthorized('Unauthorized'));
        throw newUnauthorized('Unauthorized');
      }
      throw err;
    }
    const now = performance.now();
    recordAuthentication('success', (now - started) / 1000, ctx.user.name);
    recordFilterLatency('authentication', (now - started) / 1000);
    await next(ctx);
  };
}

type Peer = Pick<AuthRequest, 'peerCertificate' | 'peerAuthorized' | 'peerAuthorizationError' | 'peerChain'>;

/** The TLS peer does not change during a connection: parse its certificate once per socket. */
const peers = new WeakMap<object, Peer>();

function peerOf(socket: Partial<TLSSocket>, cacheKey: object): Peer {
  const cached = peers.get(cacheKey);
  if (cached) return cached;
  const cert = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate(false) : undefined;
  const present = cert !== undefined && Object.keys(cert).length > 0;
  const peer: Peer = {
    peerCertificate: present ? cert : undefined,
    peerChain: present && typeof socket.getPeerCertificate === 'function' ? peerCertificateChain(socket as TLSSocket) : undefined,
    peerAuthorized: socket.authorized === true,
    peerAuthorizationError: socket.authorizationError === undefined ? undefined : String(socket.authorizationError),
  };
  peers.set(cacheKey, peer);
  return peer;
}

function authRequest(ctx: RequestContext): AuthRequest {
  // Under HTTP/2, req.socket is a per-request proxy: cache by the session, which lives as long as the connection.
  const session = (ctx.req as { stream?: { session?: { socket?: unknown } } }).stream?.session;
  const socket = (session?.socket ?? ctx.req.socket) as Partial<TLSSocket>;
  const rawHeaders = (ctx.req as { rawHeaders?: string[] }).rawHeaders;
  return { headers: ctx.req.headers, ...(rawHeaders ? { rawHeaders } : {}), ...peerOf(socket, session ?? socket) };
}
