// The outbound HTTPS client every callback uses (token and authorization
// webhooks, admission callbacks, the image policy backend, OIDC discovery):
// one keep-alive agent per connection with its CA, client certificate and
// server name; JSON bodies; a deadline per call; response bodies capped; and
// kube's retry policy (webhook.WithExponentialBackoff + DefaultShouldRetry):
// retry a reset connection, 500, 504 and 429 answers and anything carrying
// Retry-After, with exponential backoff; everything else fails at once.
import https from 'node:https';
import http from 'node:http';
import type { Connection } from './connfile.js';

export interface Backoff {
  /** First wait; kube's --authentication-token-webhook default 500ms. */
  readonly initialMs: number;
  readonly factor: number;
  /** Each wait grows by up to this fraction at random. */
  readonly jitter: number;
  /** Attempts in all. */
  readonly steps: number;
}

/** kube's DefaultAuthWebhookRetryBackoff: 500ms × 1.5, jitter 0.2, 5 attempts. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

export interface Response {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

export type OutboundErrorKind = 'network' | 'timeout' | 'status' | 'too-large';

export class OutboundError extends Error {
  override readonly name = 'OutboundError';
  constructor(message: string, readonly kind: OutboundErrorKind, readonly status?: number, readonly retryAfter?: boolean, readonly code?: string) {
    super(message);
  }
}

export interface ClientOptions {
  /** Deadline of one call, retries included (default 30 s). */
  readonly timeoutMs?: number;
  /** Largest response body accepted (default 4 MiB). */
  readonly maxResponseBytes?: number;
  readonly backoff?: Backoff;
  /** A value for User-Agent (default svc-apiserver). */
  readonly userAgent?: string;
}

export interface CallOptions {
  readonly method?: string;
  /** Absolute URL; defaults to the connection's server URL. */
  readonly url?: URL | string;
  /** Sent as JSON; a Buffer is sent as is (a body already encoded as JSON). */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export class OutboundClient {
  private readonly agent: https.Agent | http.Agent;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  readonly backoff: Backoff;

  constructor(readonly connection: Connection, private readonly opts: ClientOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxBytes = opts.maxResponseBytes ?? 4 << 20;
    this.backoff = opts.backoff ?? DEFAULT_BACKOFF;
    const c = connection;
    this.agent = c.server.protocol === 'http:'
      ? new http.Agent({ keepAlive: true, maxSockets: 16 })
      : new https.Agent({
        keepAlive: true,
        maxSockets: 16,
        ...(c.ca ? { ca: c.ca } : {}),
        ...(c.clientCert ? { cert: c.clientCert, key: c.clientKey } : {}),
        ...(c.tlsServerName ? { servername: c.tlsServerName } : {}),
        rejectUnauthorized: !c.insecureSkipTLSVerify,
      });
  }

  /** One call with kube's retries, within the client's deadline. Non-2xx answers throw OutboundError('status'). */
  async call(opts: CallOptions = {}): Promise<Response> {
    const deadline = Date.now() + this.timeoutMs;
    return withBackoff(this.backoff, deadline, shouldRetry, () => this.once(opts, deadline));
  }

  /** A JSON call: the body is sent as JSON and the answer parsed (throws OutboundError or SyntaxError). */
  async json(opts: CallOptions = {}): Promise<unknown> {
    const r = await this.call({ ...opts, headers: { accept: 'application/json', ...opts.headers } });
    return JSON.parse(r.body.toString('utf8'));
  }

  close(): void {
    this.agent.destroy();
  }

  private once(opts: CallOptions, deadline: number): Promise<Response> {
    const url = opts.url ? new URL(opts.url) : this.connection.server;
    const payload = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(JSON.stringify(opts.body));
    const headers: Record<string, string> = { 'user-agent': this.opts.userAgent ?? 'svc-apiserver', ...opts.headers };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const c = this.connection;
    if (c.token) headers.authorization = `Bearer ${c.token}`;
    else if (c.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${c.username}:${c.password ?? ''}`).toString('base64')}`;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new OutboundError(`${url.origin}: deadline exceeded`, 'timeout'));
    const mod = url.protocol === 'http:' ? http : https;
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const fail = (err: OutboundError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(err);
      };
      const req = mod.request(url, { method: opts.method ?? (payload ? 'POST' : 'GET'), headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > this.maxBytes) fail(new OutboundError(`${url.origin}: response larger than ${this.maxBytes} bytes`, 'too-large'));
          else chunks.push(c);
        });
        res.on('error', (err) => fail(new OutboundError(`${url.origin}: ${err.message}`, 'network', undefined, false, (err as NodeJS.ErrnoException).code)));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const body = Buffer.concat(chunks);
          if (status >= 200 && status < 300) resolve({ status, headers: res.headers, body });
          else reject(new OutboundError(`${url.origin}${url.pathname}: the server answered ${status}${snippet(body)}`, 'status', status, res.headers['retry-after'] !== undefined));
        });
      });
      const timer = setTimeout(() => fail(new OutboundError(`${url.origin}: no answer within ${this.timeoutMs} ms`, 'timeout')), remaining);
      req.on('error', (err) => fail(new OutboundError(`${url.origin}: ${err.message}`, 'network', undefined, false, (err as NodeJS.ErrnoException).code)));
      req.end(payload);
    });
  }
}

/** kube's DefaultShouldRetry: a reset connection, 500, 504, 429, or an answer with Retry-After. */
export function shouldRetry(err: unknown): boolean {
  if (!(err instanceof OutboundError)) return false;
  if (err.kind === 'network') return err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'ERR_HTTP2_SESSION_ERROR';
  if (err.kind === 'status') return err.status === 500 || err.status === 504 || err.status === 429 || err.retryAfter === true;
  return false;
}

/** Runs fn until it succeeds, fails without a retryable error, runs out of steps, or the next wait would pass the deadline. */
export async function withBackoff<T>(b: Backoff, deadline: number, retry: (err: unknown) => boolean, fn: () => Promise<T>): Promise<T> {
  let wait = b.initialMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= b.steps || !retry(err)) throw err;
      const ms = wait * (1 + Math.random() * b.jitter);
      if (Date.now() + ms >= deadline) throw err;
      await new Promise((r) => setTimeout(r, ms));
      wait *= b.factor;
    }
  }
}

function snippet(body: Buffer): string {
  const text = body.subarray(0, 200).toString('utf8').trim();
  return text ? `: ${text}` : '';
}
