// Authentication: sets ctx.user, or answers 401 for invalid credentials.
import type { TLSSocket } from 'node:tls';
import { newUnauthorized } from '../../api/meta/index.js';
import { AuthenticationError, type UnionAuthenticator } from '../../authn/authenticator.js';
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

function authRequest(ctx: RequestContext) {
  const socket = ctx.req.socket as Partial<TLSSocket>;
  const cert = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate(false) : undefined;
  return {
    headers: ctx.req.headers,
    peerCertificate: cert && Object.keys(cert).length > 0 ? cert : undefined,
    peerAuthorized: socket.authorized === true,
    peerAuthorizationError: socket.authorizationError === undefined ? undefined : String(socket.authorizationError),
  };
}
