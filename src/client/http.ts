// HTTPS to an API server from a svcconfig's connection: keep-alive
// connections, JSON bodies, answers that are not 2xx turned into the
// StatusError the server's Status describes (so callers test reasons as in
// process), and watch streams read line by line. Credentials come from a
// provider asked before each request (an exec plugin's are cached there); a
// 401 asks it for fresh ones and the request is sent once more with them. A
// new client certificate means new connections (a new TLS handshake).
import https from 'node:https';
import http from 'node:http';
import { StatusError, type Status } from '../api/meta/index.js';
import { isObject } from '../registry/object.js';
import type { Connection } from '../webhook/connfile.js';
import { sameCertificate, staticCredentials, type CredentialProvider, type Credentials } from './credentials.js';

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Request headers (an array value is sent as repeated headers: Impersonate-Group). */
export type Headers = Record<string, string | string[]>;

export interface ApiHttpOptions {
  /** Where credentials come from (default: the connection's own, fixed). */
  readonly credentials?: CredentialProvider;
  readonly userAgent?: string;
}

/** Getting credentials failed (an exec plugin's error, a certificate file gone). */
export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
}

export class ApiHttp {
  private agent: http.Agent | undefined;
  private agentCreds: Credentials | undefined;
  private readonly provider: CredentialProvider;

  constructor(private readonly conn: Connection, private readonly opts: ApiHttpOptions = {}) {
    this.provider = opts.credentials ?? staticCredentials(conn);
  }

  get url(): string {
    return this.conn.server.origin;
  }

  /** The keep-alive agent for these credentials: a new one (and new connections) when the certificate changes. */
  private agentFor(creds: Credentials): http.Agent {
    if (this.agent && this.agentCreds && sameCertificate(this.agentCreds, creds)) return this.agent;
    this.agent?.destroy();
    const conn = this.conn;
    this.agent = conn.server.protocol === 'https:' ? new https.Agent({
      keepAlive: true, maxSockets: 64,
      ...(conn.ca ? { ca: conn.ca } : {}),
      ...(creds.clientCert ? { cert: creds.clientCert } : {}),
      ...(creds.clientKey ? { key: creds.clientKey } : {}),
      ...(conn.tlsServerName ? { servername: conn.tlsServerName } : {}),
      ...(conn.insecureSkipTLSVerify ? { rejectUnauthorized: false } : {}),
    }) : new http.Agent({ keepAlive: true, maxSockets: 64 });
    this.agentCreds = creds;
    return this.agent;
  }

  private async credentials(): Promise<Credentials> {
    try {
      return await this.provider.get();
    } catch (err) {
      throw new CredentialsError(`getting credentials: ${(err as Error).message}`);
    }
  }

  private async fresh(used: Credentials): Promise<Credentials | undefined> {
    try {
      return await this.provider.refresh(used);
    } catch (err) {
      console.error(`refreshing credentials: ${(err as Error).message}`);
      return undefined;
    }
  }

  private open(creds: Credentials, method: string, path: string, headers: Headers, onResponse: (res: http.IncomingMessage) => void): http.ClientRequest {
    const mod = this.conn.server.protocol === 'https:' ? https : http;
    const base = this.conn.server.pathname.replace(/\/$/, '');
    const auth: Headers = creds.token ? { authorization: `Bearer ${creds.token}` }
      : creds.username !== undefined ? { authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ''}`).toString('base64')}` } : {};
    return mod.request(new URL(base + path, this.conn.server.origin), {
      method, agent: this.agentFor(creds),
      headers: { accept: 'application/json', ...(this.opts.userAgent ? { 'user-agent': this.opts.userAgent } : {}), ...auth, ...headers },
    }, onResponse);
  }

  /** One call; the body parsed as JSON when it is. A 401 is tried once more with fresh credentials, if there are any. */
  async call(method: string, path: string, body?: unknown, headers: Headers = {}): Promise<HttpAnswer> {
    const creds = await this.credentials();
    const res = await this.send(creds, method, path, body, headers);
    if (res.status !== 401) return res;
    const next = await this.fresh(creds);
    return next ? this.send(next, method, path, body, headers) : res;
  }

  private send(creds: Credentials, method: string, path: string, body: unknown, headers: Headers): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const h: Headers = { ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}), ...headers };
      const req = this.open(creds, method, path, h, (res) => {
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

  /**
   * A watch: `onLine` per JSON line; `onEnd` once when it ends for any reason
   * (with the error, if one). A 401 asks the provider for fresh credentials
   * (used by the next watch) and ends the stream with the error.
   */
  stream(path: string, onLine: (line: string) => void, onEnd: (err?: Error) => void): { close(): void } {
    let ended = false;
    let req: http.ClientRequest | undefined;
    const end = (err?: Error) => {
      if (ended) return;
      ended = true;
      onEnd(err);
    };
    void this.credentials().then((creds) => {
      if (ended) return;
      req = this.open(creds, 'GET', path, {}, (res) => {
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
            const failed = statusError({ status: res.statusCode ?? 0, body });
            if (res.statusCode === 401) void this.fresh(creds).then(() => end(failed));
            else end(failed);
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
    }, (err: Error) => end(err));
    return { close: () => { ended = true; req?.destroy(); } };
  }

  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }
}

/** The StatusError an answer stands for (a Status body as it is; anything else by its code). */
export function statusError(res: HttpAnswer): StatusError {
  if (isObject(res.body) && res.body.kind === 'Status') return new StatusError(res.body as unknown as Status);
  const text = typeof res.body === 'string' && res.body ? res.body : `the server answered ${res.status}`;
  const reason = res.status === 404 ? 'NotFound' : res.status === 409 ? 'Conflict' : res.status === 401 ? 'Unauthorized' : res.status === 403 ? 'Forbidden' : 'InternalError';
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text, code: res.status, reason });
}
