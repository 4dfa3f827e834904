// A webhook for tests: an HTTPS server in this process, with its own CA
// (generated in a temporary directory) and requiring a client certificate of
// that CA, answering JSON reviews through `handle`; and the
// connection-credentials files (kubeconfig format) that name it, with the CA
// and the client certificate as the API server would be given them. And a
// callback server for the admission callback client (startCallbackServer):
// client certificates optional, HTTP/2 on request, answers chosen per request.
import https from 'node:https';
import http2 from 'node:http2';
import type http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { stringify } from 'yaml';
import { ensurePki, type Pki } from '../server/pki.js';
import { tempDir } from './tempdir.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Review = Record<string, any>;
export type WebhookHandler = (review: Review, res: ServerResponse) => void;

export interface TestWebhook {
  /** The directory holding the webhook's PKI (`pki/`) and the connection files. */
  readonly dir: string;
  readonly pki: Pki;
  /** https://localhost:<port><path> */
  readonly url: string;
  /** Every review received, with the CommonName of the client certificate that sent it. */
  readonly seen: { body: Review; clientCN: string | undefined }[];
  /** A connection file naming the webhook (`server` instead of its URL; no client certificate with `withCert: false`). */
  connectionFile(o?: { withCert?: boolean; server?: string }): string;
  close(): Promise<void>;
}

export async function startTestWebhook(opts: { path: string; handle: WebhookHandler; seen?: TestWebhook['seen'] }): Promise<TestWebhook> {
  const dir = tempDir('svc-test-webhook-');
  const pki = await ensurePki({ dataDir: dir });
  const seen = opts.seen ?? [];
  const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Review;
      seen.push({ body, clientCN: (req.socket as TLSSocket).getPeerCertificate().subject?.CN as string | undefined });
      res.setHeader('content-type', 'application/json');
      opts.handle(body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://localhost:${(server.address() as AddressInfo).port}${opts.path}`;
  let files = 0;
  return {
    dir, pki, url, seen,
    connectionFile(o = {}) {
      const f = join(dir, `hook-${files++}.yaml`);
      writeFileSync(f, stringify({
        apiVersion: 'v1', kind: 'Config',
        clusters: [{ name: 'hook', cluster: { server: o.server ?? url, 'certificate-authority': 'pki/ca.crt' } }],
        users: [{ name: 'apiserver', user: o.withCert === false ? {} : { 'client-certificate': 'pki/admin.crt', 'client-key-data': Buffer.from(pki.admin.key).toString('base64') } }],
        contexts: [{ name: 'webhook', context: { cluster: 'hook', user: 'apiserver' } }],
        'current-context': 'webhook',
      }));
      return f;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** One request a CallbackServer received. */
export interface CallbackRequest {
  readonly httpVersion: string;
  /** Path with query. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  /** CommonName of the client certificate presented, if any. */
  readonly clientCN: string | undefined;
  /** The TLS server name (SNI) the client sent. */
  readonly servername: string | undefined;
}

/** An AdmissionReview as a callback server received it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReceivedReview = { apiVersion: string; request: Record<string, any> };
/** The AdmissionReview of a received call. */
export const reviewOf = (r: CallbackRequest): ReceivedReview => JSON.parse(r.body) as ReceivedReview;
/** A call's path without the `?timeout=` query the API server adds. */
export const pathOf = (r: CallbackRequest): string => r.url.split('?')[0]!;

/** What a CallbackServer answers: a status (200), a body and its type (application/json); a promise that never settles hangs. */
export interface CallbackAnswer {
  readonly status?: number;
  readonly body?: string | Buffer;
  readonly contentType?: string;
  /** Close the connection after answering (HTTP/2: GOAWAY; HTTP/1.1: Connection: close). */
  readonly closeConnection?: boolean;
}

export interface CallbackServer {
  readonly pki: Pki;
  readonly port: number;
  /** The CA as a clientConfig caBundle (base64 of PEM). */
  readonly caBundle: string;
  readonly seen: CallbackRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A callback server for the admission callback client: its own CA and a serving certificate for
 * localhost, 127.0.0.1 and `hosts`; HTTP/2 offered over ALPN with `http2: true` (HTTP/1.1 still
 * accepted), else HTTP/1.1 only; client certificates asked for but not required.
 */
export async function startCallbackServer(opts: { hosts?: readonly string[]; http2?: boolean; handle?: (r: CallbackRequest) => CallbackAnswer | Promise<CallbackAnswer> }): Promise<CallbackServer> {
  const dir = tempDir('svc-test-callback-');
  const pki = await ensurePki({ dataDir: dir, extraHosts: opts.hosts ?? [] });
  const seen: CallbackRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const handle = opts.handle ?? ((): CallbackAnswer => ({ body: '{}' }));
  const onRequest = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const socket = req.socket as TLSSocket;
      const peer = socket.getPeerCertificate();
      const sni = socket.servername;
      const r: CallbackRequest = { httpVersion: req.httpVersion, url: req.url ?? '', headers: req.headers, body, clientCN: peer?.subject?.CN as string | undefined, servername: typeof sni === 'string' ? sni : undefined };
      seen.push(r);
      void Promise.resolve(handle(r)).then((a) => {
        res.statusCode = a.status ?? 200;
        res.setHeader('content-type', a.contentType ?? 'application/json');
        if (a.closeConnection && !('stream' in req)) res.setHeader('connection', 'close');
        res.end(a.body ?? '');
        if (a.closeConnection && 'stream' in req) req.stream.session?.close();
      });
    });
  };
  const tlsOpts = { cert: pki.serving.cert, key: pki.serving.key, requestCert: true, rejectUnauthorized: false };
  const server = opts.http2
    ? http2.createSecureServer({ ...tlsOpts, allowHTTP1: true }, onRequest)
    : https.createServer(tlsOpts, onRequest);
  server.on('connection', (s: Socket) => {
    accepted++;
    s.on('close', () => sockets.delete(s));
    sockets.add(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    pki, seen,
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(pki.ca.cert).toString('base64'),
    connections: () => accepted,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
