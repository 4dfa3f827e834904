// Kept-alive connections to callback servers, one entry per (address, port,
// server name, CA, client credentials). The first connection of an entry
// offers `h2` and `http/1.1` over ALPN: a server that picks h2 gets one
// HTTP/2 session carrying every call of the entry (re-opened when it ends);
// any other answer makes the entry HTTP/1.1 for good, over a keep-alive
// agent whose first socket is that very connection. TLS is always verified:
// against the CA given, else the system roots; the name checked is the server
// name (the service's DNS name), else the host. Nothing here blocks: TLS
// contexts are built once per entry, bodies read as they stream in.
//
// kube-apiserver 1.27 pins webhook clients to HTTP/1.1 (kubernetes#75791: one
// h2 connection to a service's virtual IP sends every call to one backend).
// Here a service is resolved to an endpoint per call and each endpoint has
// its own entry, so calls still spread over a service's endpoints on h2.
//
//   unknown ──ALPN h2──▶ h2 (session; closed/goaway ─▶ reconnect with ALPN)
//      └─────other─────▶ h1 (https.Agent, keepAlive)
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { Cancel } from './deadline.js';

/** Where and how to connect. */
export interface Endpoint {
  /** Address dialled: a host name or IP. */
  readonly host: string;
  readonly port: number;
  /** SNI and the name verified; the host when absent. */
  readonly servername?: string;
  /** PEM roots; the system roots when absent. */
  readonly ca?: string;
  /** PEM client certificate and key. */
  readonly clientCert?: string;
  readonly clientKey?: string;
}

export interface Exchange {
  /** Path with query. */
  readonly path: string;
  /** Host header / :authority. */
  readonly authority: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly maxResponseBytes: number;
  /** The call's deadline (aborting drops the exchange). */
  readonly signal: Cancel;
}

export interface Answer {
  readonly status: number;
  readonly body: Buffer;
  readonly contentType?: string;
  /** 'h2' or 'http/1.1'. */
  readonly protocol: 'h2' | 'http/1.1';
}

/** The response body passed the cap; the connection it came on was dropped. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`response body larger than ${limit} bytes`);
  }
}

export interface PoolOptions {
  /** Connect plus TLS handshake of a new connection (Go's TLSHandshakeTimeout: 10 s). */
  readonly handshakeTimeoutMs?: number;
  /** Idle connections and sessions are closed after this (Go's IdleConnTimeout: 90 s). */
  readonly idleTimeoutMs?: number;
  /** Entries kept; the least recently used idle ones go beyond it. */
  readonly maxEntries?: number;
}

export class ConnectionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly opts: Required<PoolOptions>;

  constructor(opts: PoolOptions = {}) {
    this.opts = { handshakeTimeoutMs: 10_000, idleTimeoutMs: 90_000, maxEntries: 256, ...opts };
  }

  /** One POST over the entry of `endpoint` (made on first use). */
  send(endpoint: Endpoint, x: Exchange): Promise<Answer> {
    const key = keyOf(endpoint);
    let e = this.entries.get(key);
    if (e) this.entries.delete(key); // re-inserted last: Map order is recency
    else {
      e = new Entry(endpoint, this.opts);
      this.evict();
    }
    this.entries.set(key, e);
    return e.send(x);
  }

  /** Entries and the protocol each settled on, for tests and metrics. */
  stats(): { entries: number; h2: number; h1: number } {
    let h2 = 0;
    let h1 = 0;
    for (const e of this.entries.values()) {
      if (e.mode === 'h2') h2++;
      else if (e.mode === 'h1') h1++;
    }
    return { entries: this.entries.size, h2, h1 };
  }

  close(): void {
    for (const e of this.entries.values()) e.close();
    this.entries.clear();
  }

  private evict(): void {
    if (this.entries.size < this.opts.maxEntries) return;
    for (const [key, e] of this.entries) {
      if (e.active > 0) continue;
      e.close();
      this.entries.delete(key);
      if (this.entries.size < this.opts.maxEntries) return;
    }
  }
}

/** An entry's key: the endpoint's fields (PEMs included), remembered per endpoint object. */
const keys = new WeakMap<Endpoint, string>();
function keyOf(ep: Endpoint): string {
  let key = keys.get(ep);
  if (key === undefined) {
    key = JSON.stringify([ep.host, ep.port, ep.servername ?? '', ep.ca ?? '', ep.clientCert ?? '', ep.clientKey ?? '']);
    if (Object.isFrozen(ep)) keys.set(ep, key);
  }
  return key;
}

class Entry {
  mode: 'unknown' | 'h2' | 'h1' = 'unknown';
  active = 0;
  private readonly context: tls.SecureContext;
  private session?: http2.ClientHttp2Session;
  private connecting?: Promise<void>;
  private agent?: https.Agent;
  /** The ALPN probe's socket, handed to the agent as its first connection. */
  private spare?: tls.TLSSocket;

  constructor(private readonly ep: Endpoint, private readonly opts: Required<PoolOptions>) {
    this.context = tls.createSecureContext({
      ...(ep.ca !== undefined ? { ca: ep.ca } : {}),
      ...(ep.clientCert !== undefined ? { cert: ep.clientCert, key: ep.clientKey } : {}),
    });
  }

  async send(x: Exchange): Promise<Answer> {
    this.active++;
    try {
      for (let attempt = 1; ; attempt++) {
        if (this.mode !== 'h1' && !this.usableSession()) {
          await abortable((this.connecting ??= this.connect().finally(() => (this.connecting = undefined))), x.signal);
        }
        const session = this.usableSession();
        if (!session) return await this.sendH1(x);
        try {
          return await this.sendH2(session, x);
        } catch (err) {
          // a session the server is closing refused the stream unprocessed: once more on a new one (Go does too)
          if (attempt > 1 || x.signal.aborted || !unprocessed(err)) throw err;
          if (this.session === session) this.session = undefined;
        }
      }
    } finally {
      this.active--;
    }
  }

  close(): void {
    this.session?.destroy();
    this.session = undefined;
    this.spare?.destroy();
    this.spare = undefined;
    this.agent?.destroy();
  }

  private usableSession(): http2.ClientHttp2Session | undefined {
    const s = this.session;
    return s && !s.closed && !s.destroyed ? s : undefined;
  }

  /** A TLS connection offering h2 and http/1.1; settles the entry's protocol. */
  private connect(): Promise<void> {
    const ep = this.ep;
    return new Promise<void>((resolve, reject) => {
      const socket = tls.connect({
        host: ep.host, port: ep.port, secureContext: this.context,
        ...(ep.servername !== undefined ? { servername: ep.servername } : {}),
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      socket.setTimeout(this.opts.handshakeTimeoutMs, () => socket.destroy(Object.assign(new Error('net/http: TLS handshake timeout'), { code: 'ETLSHANDSHAKETIMEOUT' })));
      socket.once('error', reject);
      socket.setNoDelay(true); // requests are written whole: no Nagle delay on the last segment (node:https does the same)
      socket.once('secureConnect', () => {
        socket.setTimeout(0);
        socket.removeListener('error', reject);
        if (socket.alpnProtocol === 'h2') {
          this.mode = 'h2';
          this.openSession(socket);
        } else {
          this.mode = 'h1';
          socket.on('error', () => socket.destroy());
          this.spare = socket;
        }
        resolve();
      });
    });
  }

  private openSession(socket: tls.TLSSocket): void {
    const ep = this.ep;
    const session = http2.connect(`https://${authorityOf(ep.servername ?? ep.host, ep.port)}`, { createConnection: () => socket });
    const drop = () => {
      if (this.session === session) this.session = undefined;
    };
    session.on('error', drop);
    session.on('goaway', drop);
    session.on('close', drop);
    session.setTimeout(this.opts.idleTimeoutMs, () => session.close());
    session.unref(); // in-flight calls are held by their callers' deadlines
    this.session = session;
  }

  private sendH2(session: http2.ClientHttp2Session, x: Exchange): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST', ':path': x.path, ':authority': x.authority,
        ...x.headers, 'content-length': String(x.body.length),
      });
      const onAbort = () => stream.destroy(x.signal.reason as Error);
      x.signal.addEventListener('abort', onAbort);
      stream.once('close', () => x.signal.removeEventListener('abort', onAbort));
      let status = 0;
      let contentType: string | undefined;
      stream.on('response', (h) => {
        status = Number(h[':status']);
        contentType = typeof h['content-type'] === 'string' ? h['content-type'] : undefined;
      });
      collect(stream, x.maxResponseBytes, () => stream.close(http2.constants.NGHTTP2_CANCEL)).then(
        (body) => {
          if (status === 0) reject(streamError(stream));
          else resolve({ status, body, ...(contentType !== undefined ? { contentType } : {}), protocol: 'h2' });
        },
        (err: NodeJS.ErrnoException) => reject(err.code === 'ERR_HTTP2_STREAM_ERROR' ? streamError(stream) : err),
      );
      stream.end(x.body);
    });
  }

  private sendH1(x: Exchange): Promise<Answer> {
    const agent = (this.agent ??= this.newAgent());
    const ep = this.ep;
    return new Promise<Answer>((resolve, reject) => {
      const req = https.request({
        host: ep.host, port: ep.port, method: 'POST', path: x.path, agent,
        ...(ep.servername !== undefined ? { servername: ep.servername } : {}),
        headers: { host: x.authority, ...x.headers, 'content-length': String(x.body.length) },
      }, (res) => {
        const contentType = res.headers['content-type'];
        collect(res, x.maxResponseBytes, () => res.destroy()).then(
          (body) => resolve({ status: res.statusCode ?? 0, body, ...(contentType !== undefined ? { contentType } : {}), protocol: 'http/1.1' }),
          reject,
        );
      });
      const onAbort = () => req.destroy(x.signal.reason as Error);
      x.signal.addEventListener('abort', onAbort);
      req.once('close', () => x.signal.removeEventListener('abort', onAbort));
      req.on('error', reject);
      req.end(x.body);
    });
  }

  private newAgent(): https.Agent {
    const agent = new https.Agent({
      keepAlive: true, timeout: this.opts.idleTimeoutMs, secureContext: this.context, ALPNProtocols: ['http/1.1'],
    });
    const dial = agent.createConnection.bind(agent);
    agent.createConnection = (options, cb): Duplex | null | undefined => {
      const s = this.spare;
      this.spare = undefined;
      if (s && !s.destroyed && s.readyState === 'open') {
        s.removeAllListeners('error');
        return s;
      }
      s?.destroy();
      return dial(options, cb);
    };
    return agent;
  }
}

/** The body of a response, refusing more than `max` bytes (then `abort` drops the exchange). */
function collect(body: NodeJS.ReadableStream, max: number, abort: () => void): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    body.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > max) {
        failed = true;
        reject(new BodyTooLargeError(max));
        abort();
      } else chunks.push(c);
    });
    body.on('error', (err) => {
      if (!failed) reject(err);
    });
    body.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** Whether an HTTP/2 failure left the request unprocessed: the session was going away, or the stream was refused. */
function unprocessed(err: unknown): boolean {
  const e = err as { code?: string; rstCode?: number };
  if (e.code === 'ERR_HTTP2_GOAWAY_SESSION' || e.code === 'ERR_HTTP2_INVALID_SESSION') return true;
  return e.code === 'ERR_HTTP2_STREAM_ERROR' && e.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM;
}

const RST_NAMES = ['NO_ERROR', 'PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT', 'STREAM_CLOSED', 'FRAME_SIZE_ERROR', 'REFUSED_STREAM', 'CANCEL', 'COMPRESSION_ERROR', 'CONNECT_ERROR', 'ENHANCE_YOUR_CALM', 'INADEQUATE_SECURITY', 'HTTP_1_1_REQUIRED'];

/** A reset stream in Go's words (`stream error: stream ID 3; REFUSED_STREAM`), keeping the code. */
function streamError(stream: http2.ClientHttp2Stream): Error {
  const code = stream.rstCode ?? http2.constants.NGHTTP2_INTERNAL_ERROR;
  return Object.assign(new Error(`stream error: stream ID ${stream.id ?? 0}; ${RST_NAMES[code] ?? `unknown error code 0x${code.toString(16)}`}`), { code: 'ERR_HTTP2_STREAM_ERROR', rstCode: code });
}

/** `p`, or the signal's reason as soon as it aborts. */
export function abortable<T>(p: Promise<T>, signal: Cancel): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** host:port as a URL authority (IPv6 in brackets). */
export function authorityOf(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
