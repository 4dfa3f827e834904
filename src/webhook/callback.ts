// The outbound client of admission webhooks: one POST of an AdmissionReview
// to a webhook's clientConfig, as kube-apiserver's webhook ClientManager
// makes it. A `url` is called as written; a `service` is called as
// https://<name>.<namespace>.svc:<port><path> with that name as the TLS server
// name, over the address the service resolver picks. The path carries kube's
// `?timeout=<n>s`. Credentials come from the WebhookAdmission kubeConfigFile,
// chosen by host (credentialsFor). Calls of one webhook (its key) are bounded
// (limiter.ts) and each has one deadline, queueing included, after which it
// fails as Go's client does: `Post "<url>": context deadline exceeded`.
// Connections are pooled and kept alive, HTTP/1.1 as kube's (pool.ts, h1.ts).
//
// Non-2xx answers are results, not errors: the dispatcher reads them.
// Network failures, the deadline and an oversized body throw OutboundError
// ('network' | 'timeout' | 'too-large') whose message is Go's url.Error text.
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { isStatusError } from '../api/meta/status.js';
import { credentialsFor, type Credentials, type CredentialsFile } from './connfile.js';
import { OutboundError } from './client.js';
import { KeyedLimiter } from './limiter.js';
import { Deadline, type Cancel } from './deadline.js';
import { BodyTooLargeError, ConnectionPool, abortable, authorityOf, type Endpoint, type PoolOptions } from './pool.js';
import type { ServiceResolver } from './serviceresolver.js';

/** A webhook's clientConfig as stored (caBundle: base64 of PEM). */
export interface CallbackConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

export interface CallbackCall {
  config: CallbackConfig;
  /** JSON AdmissionReview. */
  body: string;
  /** The webhook's timeoutSeconds × 1000. */
  timeoutMs: number;
  /** `<configuration>/<webhook name>`: pooling and per-webhook concurrency. */
  key: string;
}

export interface CallbackResult {
  status: number;
  body: Buffer;
  contentType?: string;
  /** The protocol the call went over. */
  protocol?: 'http/1.1';
}

export interface CallbackCaller {
  /** Throws OutboundError 'network' | 'timeout' | 'too-large'. */
  call(c: CallbackCall): Promise<CallbackResult>;
}

export interface AdmissionCallbackClientOptions extends PoolOptions {
  readonly resolveService: ServiceResolver;
  /** The WebhookAdmission configuration's kubeConfigFile, read. */
  readonly credentials?: CredentialsFile;
  /** Calls of one webhook in flight at once; more wait (default 64). */
  readonly maxInFlightPerWebhook?: number;
  /** Largest response body read (default 3 MiB, the server's own request body limit). */
  readonly maxResponseBytes?: number;
  /** Default svc-apiserver-admission (kube: kube-apiserver-admission). */
  readonly userAgent?: string;
}

export const DEFAULT_MAX_IN_FLIGHT_PER_WEBHOOK = 64;
export const DEFAULT_MAX_RESPONSE_BYTES = 3 << 20;

export class AdmissionCallbackClient implements CallbackCaller {
  private readonly pool: ConnectionPool;
  private readonly limiter: KeyedLimiter;
  private readonly maxBytes: number;
  private readonly userAgent: string;
  /** Decoded and checked caBundles. */
  private readonly roots = new Map<string, string>();
  /** Per (frozen) clientConfig and time-out: what a call to it needs (prepared()). */
  private readonly preparedBy = new WeakMap<CallbackConfig, Map<number, Prepared>>();

  constructor(private readonly opts: AdmissionCallbackClientOptions) {
    this.pool = new ConnectionPool(opts);
    this.limiter = new KeyedLimiter(opts.maxInFlightPerWebhook ?? DEFAULT_MAX_IN_FLIGHT_PER_WEBHOOK);
    this.maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.userAgent = opts.userAgent ?? 'svc-apiserver-admission';
  }

  async call(c: CallbackCall): Promise<CallbackResult> {
    const prepared = this.prepared(c.config, c.timeoutMs);
    const { target, headers } = prepared;
    const deadline = new Deadline(c.timeoutMs, () => new OutboundError(`Post "${target.printed}": context deadline exceeded`, 'timeout'));
    try {
      // a free slot and a URL (no service to resolve) are taken without a turn of the microtask queue each
      const release = this.limiter.tryAcquire(c.key) ?? (await this.limiter.acquire(c.key, deadline));
      try {
        const endpoint = c.config.service ? await this.serviceEndpoint(c.config.service, prepared, deadline) : (prepared.urlEndpoint ??= this.endpointAt(c.config, prepared, target.host, target.port));
        const answer = await this.pool.send(endpoint, {
          path: target.path, authority: target.authority, body: c.body,
          headers, maxResponseBytes: this.maxBytes, signal: deadline,
        });
        return answer; // status, body, contentType (when sent), protocol: a CallbackResult as it is
      } finally {
        release();
      }
    } catch (err) {
      if (deadline.aborted) throw deadline.reason;
      throw toOutboundError(err, target.printed, this.maxBytes);
    } finally {
      deadline.clear();
    }
  }

  /**
   * A clientConfig's target, credentials and headers, made once per config
   * object and time-out (the dispatcher hands the same frozen config for every
   * call of a stored webhook); a config that cannot be used throws each time.
   */
  private prepared(config: CallbackConfig, timeoutMs: number): Prepared {
    let byTimeout = this.preparedBy.get(config);
    const found = byTimeout?.get(timeoutMs);
    if (found) return found;
    const target = targetOf(config, timeoutMs);
    const creds = this.credentialsFor(target.credentialsHost);
    const made: Prepared = { config, target, creds, headers: this.headers(creds), endpoints: new Map() };
    if (Object.isFrozen(config)) {
      if (!byTimeout) this.preparedBy.set(config, (byTimeout = new Map()));
      byTimeout.set(timeoutMs, made);
    }
    return made;
  }

  /** Pool statistics (entries; how many settled on h2 / HTTP/1.1). */
  stats(): ReturnType<ConnectionPool['stats']> {
    return this.pool.stats();
  }

  /** Calls of a webhook running and waiting. */
  load(key: string): { running: number; waiting: number } {
    return this.limiter.load(key);
  }

  close(): void {
    this.pool.close();
  }

  /** Where a service's call goes: the address it resolves to now. */
  private async serviceEndpoint(s: NonNullable<CallbackConfig['service']>, p: Prepared, signal: Cancel): Promise<Endpoint> {
    const at = await abortable(this.opts.resolveService(s.namespace, s.name, p.target.port), signal);
    return this.endpointAt(p.config, p, at.host, at.port);
  }

  /** The frozen Endpoint of an address (the URL's host, or a service's resolved address), one per address. */
  private endpointAt(config: CallbackConfig, p: Prepared, host: string, port: number): Endpoint {
    const t = p.target;
    const address = `${host}\u0000${port}`;
    let ep = p.endpoints.get(address);
    if (!ep) {
      const ca = config.caBundle ? this.rootsOf(config.caBundle) : undefined;
      const creds = p.creds;
      ep = Object.freeze({
        host, port,
        ...(t.servername !== undefined ? { servername: t.servername } : {}),
        ...(ca !== undefined ? { ca } : {}),
        ...(creds?.clientCert !== undefined ? { clientCert: creds.clientCert, clientKey: creds.clientKey! } : {}),
      });
      if (p.endpoints.size >= 64) p.endpoints.clear();
      p.endpoints.set(address, ep);
    }
    return ep;
  }

  private headers(creds: Credentials | undefined): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': this.userAgent };
    if (creds?.token) h.authorization = `Bearer ${creds.token}`;
    else if (creds?.username !== undefined) h.authorization = `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ''}`).toString('base64')}`;
    return h;
  }

  /** The PEM of a caBundle; Go's error when it holds no certificate. */
  private rootsOf(caBundle: string): string {
    let pem = this.roots.get(caBundle);
    if (pem === undefined) {
      pem = Buffer.from(caBundle, 'base64').toString('utf8');
      if (!holdsCertificate(pem)) throw new CallbackConfigError('unable to load root certificates: unable to parse bytes as PEM block');
      this.roots.set(caBundle, pem);
    }
    return pem;
  }

  /** Credentials by host as kube's AuthenticationInfoResolver picks them (hostPort with the port always; :443 also tried without). */
  credentialsFor(hostPort: string): Credentials | undefined {
    return this.opts.credentials ? credentialsFor(this.opts.credentials, hostPort) : undefined;
  }
}

/**
 * A clientConfig the client cannot use (no url or service, a bad URL, a caBundle without
 * certificates): kube fails these before calling ("could not get REST client: …"). A 'network'
 * OutboundError, so failurePolicy applies; its message is the bare cause.
 */
export class CallbackConfigError extends OutboundError {
  constructor(message: string) {
    super(message, 'network');
  }
}

interface Prepared {
  readonly config: CallbackConfig;
  readonly target: Target;
  readonly creds: Credentials | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** The endpoints calls went to, by address (one for a URL; a service's endpoints). */
  readonly endpoints: Map<string, Endpoint>;
  /** A URL's one endpoint, once made. */
  urlEndpoint?: Endpoint;
}

interface Target {
  /** The URL as Go prints it in errors: https://host[:port]/path?timeout=Ns */
  readonly printed: string;
  readonly path: string;
  readonly authority: string;
  /** The host to dial for a URL; the service DNS name for a service (replaced by the resolved address). */
  readonly host: string;
  readonly port: number;
  readonly servername?: string;
  /** What credentials are chosen by: host:port, the port always written (kube's hostPort). */
  readonly credentialsHost: string;
}

function targetOf(config: CallbackConfig, timeoutMs: number): Target {
  const query = timeoutMs > 0 ? `?timeout=${goSeconds(timeoutMs)}` : '';
  if (config.service) {
    const s = config.service;
    const port = s.port ?? 443;
    const servername = `${s.name}.${s.namespace}.svc`;
    const authority = `${servername}:${port}`;
    const path = `${s.path || '/'}${query}`;
    return { printed: `https://${authority}${path}`, path, authority, host: servername, port, servername, credentialsHost: authority };
  }
  if (!config.url) throw new CallbackConfigError('webhook configuration must have either service or URL');
  let u: URL;
  try {
    u = new URL(config.url);
  } catch {
    throw new CallbackConfigError(`Unparsable URL: parse ${JSON.stringify(config.url)}: invalid URL`);
  }
  if (u.protocol !== 'https:') throw new CallbackConfigError(`unsupported protocol scheme ${JSON.stringify(u.protocol.slice(0, -1))}`);
  const port = u.port ? Number(u.port) : 443;
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const path = `${u.pathname || '/'}${query}`;
  return { printed: `https://${u.host}${path}`, path, authority: u.host, host, port, ...(isIP(host) ? {} : { servername: host }), credentialsHost: u.port ? u.host : `${u.host}:443` };
}

/** Go's Duration text for whole seconds, rounded up as kube's dispatcher rounds the remaining time. */
function goSeconds(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${s % 60}s` : `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m${s % 60}s`;
}

function holdsCertificate(pem: string): boolean {
  for (const m of pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)) {
    try {
      new X509Certificate(m[0]);
      return true;
    } catch {
      // Go skips blocks it cannot parse
    }
  }
  return false;
}

/** Any failure of a call as an OutboundError carrying Go's `Post "<url>": <cause>`. */
function toOutboundError(err: unknown, printed: string, maxBytes: number): OutboundError {
  if (err instanceof OutboundError) return err;
  if (err instanceof BodyTooLargeError) return new OutboundError(`Post "${printed}": response body larger than ${maxBytes} bytes`, 'too-large');
  const e = err as NodeJS.ErrnoException & { host?: string; reason?: string; cert?: { subjectaltname?: string } };
  const cause = isStatusError(err) ? err.status.message ?? err.message : goCause(e);
  return new OutboundError(`Post "${printed}": ${cause}`, 'network', undefined, false, e.code);
}

const UNKNOWN_AUTHORITY = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT']);

/** Node's error in the words Go's net/http and crypto/tls use for the same failure. */
function goCause(e: NodeJS.ErrnoException & { address?: string; port?: number; host?: string; hostname?: string; cert?: { subjectaltname?: string } }): string {
  const code = e.code ?? '';
  const addr = e.address !== undefined && e.port !== undefined ? authorityOf(e.address, e.port) : '';
  if (code === 'ECONNREFUSED') return `dial tcp ${addr}: connect: connection refused`;
  if (code === 'ENOTFOUND') return `dial tcp: lookup ${e.hostname ?? ''}: no such host`;
  if (code === 'ECONNRESET') return 'read: connection reset by peer';
  if (UNKNOWN_AUTHORITY.has(code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (e.cert?.subjectaltname ?? '').split(', ').map((n) => n.replace(/^(DNS|IP Address):/, '')).filter(Boolean);
    return `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${e.host ?? ''}`;
  }
  return e.message;
}
