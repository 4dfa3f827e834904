// The agent's HTTPS server (--enable-server on --address:--port, 10250) and its
// plain-HTTP health server (--healthz-bind-address:--healthz-port, 10248; port
// 0 disables it). Every request on the HTTPS server is authenticated
// (authn.ts) and authorized as a question about the node (authz.ts) before
// the routes (handlers.ts) see it:
//
//   no identity            401 "Unauthorized"
//   denied                 403 "Forbidden (user=…, verb=…, resource=nodes, subresource=…)"
//   the webhook failing    500 "Authorization error (user=…, …)"
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { PemKeyPair } from '../../server/pki.js';
import { AgentAuthenticator, Unauthenticated, type AuthenticationOptions } from './authn.js';
import { AgentAuthorizer, describe, nodeAttributes, type AuthorizationOptions } from './authz.js';
import { agentRoutes, healthz, notFound, writeText, type HandlerOptions } from './handlers.js';
import type { AgentHost } from './host.js';

export interface AgentServerOptions {
  readonly host: AgentHost;
  readonly nodeName: string;
  /** --address (kube: 0.0.0.0) and --port (kube: 10250; 0 picks a free port, for tests). */
  readonly address: string;
  readonly port: number;
  /** The serving pair (tls.ts servingTls). */
  readonly tls: PemKeyPair;
  readonly authentication: AuthenticationOptions;
  readonly authorization: AuthorizationOptions;
  /** --healthz-bind-address and --healthz-port; absent or port 0: no health server. */
  readonly healthz?: { readonly address: string; readonly port: number };
  readonly logCheckIntervalMs?: number;
  /** The later issue's handlers (exec, attach, portForward, run, stats, metrics) by prefix; absent: 404. */
  readonly extraRoutes?: HandlerOptions['extra'];
  /** Where unexpected errors go (the agent's log). */
  readonly onError?: (err: unknown) => void;
}

export interface RunningAgentServer {
  readonly port: number;
  readonly healthzPort: number | undefined;
  /** Log streams being served now (a follow stays open until the container stops or the client leaves). */
  openLogStreams(): number;
  close(): Promise<void>;
}

export async function startAgentServer(o: AgentServerOptions): Promise<RunningAgentServer> {
  const authn = new AgentAuthenticator(o.authentication);
  const authz = new AgentAuthorizer(o.authorization);
  let open = 0;
  const streams = { opened: () => void open++, closed: () => void open-- };
  const routes = agentRoutes({
    host: o.host, streams,
    ...(o.logCheckIntervalMs !== undefined ? { logCheckIntervalMs: o.logCheckIntervalMs } : {}),
    ...(o.extraRoutes ? { extra: o.extraRoutes } : {}),
  });
  const wantsCerts = (o.authentication.clientCAs?.length ?? 0) > 0;
  // the PKI module (and the x509 library under it) only when client certificates are checked
  const peerChain = wantsCerts ? (await import('../../server/pki.js')).peerCertificateChain : undefined;
  const server = https.createServer({
    cert: o.tls.cert,
    key: o.tls.key,
    requestCert: wantsCerts,
    rejectUnauthorized: false, // the authenticator judges the chain, so a bad one is a 401, not a TLS failure
    ...(wantsCerts ? { ca: o.authentication.clientCAs!.map((c) => c.toString()) } : {}),
  }, (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://agent');
      let user;
      try {
        user = await authn.authenticate({ headers: req.headers, peerCertificates: peerChain ? peerChain(req.socket as TLSSocket) : [] });
      } catch (err) {
        if (!(err instanceof Unauthenticated)) o.onError?.(err);
        return writeText(res, 401, 'Unauthorized');
      }
      const attrs = nodeAttributes(req.method ?? 'GET', url.pathname, o.nodeName);
      let decision;
      try {
        decision = await authz.authorize(user, attrs);
      } catch (err) {
        o.onError?.(err);
        return writeText(res, 500, describe('Authorization error', user, attrs));
      }
      if (decision !== 'allow') return writeText(res, 403, describe('Forbidden', user, attrs));
      await routes(req, res, url);
    })().catch((err) => {
      o.onError?.(err);
      if (!res.headersSent) writeText(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });
  await listen(server, o.port, o.address);
  let health: http.Server | undefined;
  if (o.healthz && o.healthz.port !== 0) {
    health = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://agent').pathname;
      if (path === '/healthz') healthz(res, o.host);
      else notFound(res);
    });
    try {
      await listen(health, o.healthz.port, o.healthz.address);
    } catch (err) {
      await closeServer(server);
      throw err;
    }
  }
  return {
    port: (server.address() as AddressInfo).port,
    healthzPort: health ? (health.address() as AddressInfo).port : undefined,
    openLogStreams: () => open,
    async close() {
      await Promise.all([closeServer(server), health ? closeServer(health) : undefined]);
    },
  };
}

function listen(server: http.Server | https.Server, port: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address.replace(/^\[(.*)\]$/, '$1'), () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: http.Server | https.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections(); // followed logs end with the server
  });
}
