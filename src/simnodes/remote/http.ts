// HTTPS to an API server from a kubeconfig's connection: one keep-alive
// agent, JSON bodies, answers that are not 2xx turned into the StatusError
// the server's Status describes (so callers test reasons as in process), and
// watch streams read line by line.
import https from 'node:https';
import http from 'node:http';
import { StatusError, type Status } from '../../api/meta/index.js';
import { isObject } from '../../registry/object.js';
import type { Connection } from '../../webhook/connfile.js';

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Request headers (an array value is sent as repeated headers: Impersonate-Group). */
export type Headers = Record<string, string | string[]>;

export class ApiHttp {
  private readonly agent: http.Agent;
  private readonly auth: Headers;

  constructor(private readonly conn: Connection) {
    const tls = {
      keepAlive: true, maxSockets: 64,
      ...(conn.ca ? { ca: conn.ca } : {}),
      ...(conn.clientCert ? { cert: conn.clientCert } : {}),
      ...(conn.clientKey ? { key: conn.clientKey } : {}),
      ...(conn.tlsServerName ? { servername: conn.tlsServerName } : {}),
      ...(conn.insecureSkipTLSVerify ? { rejectUnauthorized: false } : {}),
    };
    this.agent = conn.server.protocol === 'https:' ? new https.Agent(tls) : new http.Agent({ keepAlive: true, maxSockets: 64 });
    this.auth = conn.token ? { authorization: `Bearer ${conn.token}` }
      : conn.username !== undefined ? { authorization: `Basic ${Buffer.from(`${conn.username}:${conn.password ?? ''}`).toString('base64')}` } : {};
  }

  get url(): string {
    return this.conn.server.origin;
  }

  private open(method: string, path: string, headers: Headers, onResponse: (res: http.IncomingMessage) => void): http.ClientRequest {
    const mod = this.conn.server.protocol === 'https:' ? https : http;
    const base = this.conn.server.pathname.replace(/\/$/, '');
    return mod.request(new URL(base + path, this.conn.server.origin), {
      method, agent: this.agent, headers: { accept: 'application/json', ...this.auth, ...headers },
    }, onResponse);
  }

  /** One call; the body parsed as JSON when it is. */
  call(method: string, path: string, body?: unknown, headers: Headers = {}): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const h: Headers = { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) };
      const req = this.open(method, path, h, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A call whose answer must be 2xx: the body, or the StatusError of the answer. */
  async json(method: string, path: string, body?: unknown, headers: Headers = {}): Promise<Record<string, unknown>> {
    const res = await this.call(method, path, body, headers);
    if (res.status < 200 || res.status > 299) throw statusError(res);
    return isObject(res.body) ? res.body : {};
  }

  /** A watch: `onLine` per JSON line; `onEnd` once when it ends for any reason (with the error, if one). */
  stream(path: string, onLine: (line: string) => void, onEnd: (err?: Error) => void): { close(): void } {
    let ended = false;
    const end = (err?: Error) => {
      if (ended) return;
      ended = true;
      onEnd(err);
    };
    const req = this.open('GET', path, {}, (res) => {
      if ((res.statusCode ?? 0) !== 200) {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = undefined;
          }
          end(statusError({ status: res.statusCode ?? 0, body }));
        });
        return;
      }
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line) onLine(line);
        }
      });
      res.on('end', () => end());
      res.on('error', (e) => end(e));
    });
    req.on('error', (e) => end(e));
    req.end();
    return { close: () => { ended = true; req.destroy(); } };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The StatusError an answer stands for (a Status body as it is; anything else by its code). */
export function statusError(res: HttpAnswer): StatusError {
  if (isObject(res.body) && res.body.kind === 'Status') return new StatusError(res.body as unknown as Status);
  const text = typeof res.body === 'string' && res.body ? res.body : `the server answered ${res.status}`;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text, code: res.status, reason: res.status === 404 ? 'NotFound' : res.status === 409 ? 'Conflict' : 'InternalError' });
}
