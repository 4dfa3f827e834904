// Authentication: sets ctx.user, or answers 401 for invalid credentials.
import type { TLSSocket } from 'node:tls';
import { newUnauthorized } from '../../api/meta/index.js';
import { AuthenticationError, type AuthRequest, type UnionAuthenticator } from '../../authn/authenticator.js';
import type { Handler, RequestContext } from '../context.js';

export function withAuthentication(next: Handler, authenticator: UnionAuthenticator): Handler {
  return async (ctx) => {
    try {
      ctx.user = await authenticator.authenticate(authRequest(ctx));
    } catch (err) {
      if (err instanceof AuthenticationError) throw newUnauthorized('Unauthorized');
      throw err;
    }
    await next(ctx);
  };
}

type Peer = Pick<AuthRequest, 'peerCertificate' | 'peerAuthorized' | 'peerAuthorizationError'>;

/** The TLS peer does not change during a connection: parse its certificate once per socket. */
const peers = new WeakMap<object, Peer>();

function peerOf(socket: Partial<TLSSocket>): Peer {
  const cached = peers.get(socket);
  if (cached) return cached;
  const cert = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate(false) : undefined;
  const peer: Peer = {
    peerCertificate: cert && Object.keys(cert).length > 0 ? cert : undefined,
    peerAuthorized: socket.authorized === true,
    peerAuthorizationError: socket.authorizationError === undefined ? undefined : String(socket.authorizationError),
  };
  peers.set(socket, peer);
  return peer;
}

function authRequest(ctx: RequestContext): AuthRequest {
  return { headers: ctx.req.headers, ...peerOf(ctx.req.socket as Partial<TLSSocket>) };
}
