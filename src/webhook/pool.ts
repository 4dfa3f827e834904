// Kept-alive connections to callback servers, one entry per (address, port,
// server name, CA, client credentials). Calls go over HTTP/1.1 only, as
// kube-apiserver 1.27 pins its webhook clients (kubernetes#75791: one HTTP/2
// connection to a service's virtual IP would send every call to one backend)
// — and over this transport (h1.ts) a call costs the client and the callback
// server less CPU than Node's HTTP/2 streams. TLS is always verified: against
// the CA given, else the system roots; the name checked is the server name
// (the service's DNS name), else the host. Nothing here blocks: TLS contexts
// are built once per entry, bodies read as they stream in.
import tls from 'node:tls';
import type { Cancel } from './deadline.js';
import { H1Connections, type Answer, type Exchange } from './h1.js';

export { BodyTooLargeError, type Answer, type Exchange } from './h1.js';

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
  /** The entry last in `entries` (the most recently used), if any. */
  private newest: Entry | undefined;
  private readonly opts: Required<PoolOptions>;

  constructor(opts: PoolOptions = {}) {
    this.opts = { handshakeTimeoutMs: 10_000, idleTimeoutMs: 90_000, maxEntries: 256, ...opts };
  }

  /** One POST over the entry of `endpoint` (made on first use). */
  send(endpoint: Endpoint, x: Exchange): Promise<Answer> {
    const key = keyOf(endpoint);
    let e = this.entries.get(key);
    if (e !== undefined && e === this.newest) return e.send(x); // already last: no reordering (the usual call)
    if (e) this.entries.delete(key); // re-inserted last: Map order is recency
    else {
      e = new Entry(endpoint, this.opts);
      this.evict();
    }
    this.entries.set(key, e);
    this.newest = e;
    return e.send(x);
  }

  /** Entries and their idle connections, for tests and metrics. */
  stats(): { entries: number; idle: number } {
    let idle = 0;
    for (const e of this.entries.values()) idle += e.idleCount;
    return { entries: this.entries.size, idle };
  }

  close(): void {
    for (const e of this.entries.values()) e.close();
    this.entries.clear();
    this.newest = undefined;
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

class Entry extends H1Connections {
  constructor(ep: Endpoint, opts: Required<PoolOptions>) {
    super({
      host: ep.host, port: ep.port, ...(ep.servername !== undefined ? { servername: ep.servername } : {}),
      context: tls.createSecureContext({
        ...(ep.ca !== undefined ? { ca: ep.ca } : {}),
        ...(ep.clientCert !== undefined ? { cert: ep.clientCert, key: ep.clientKey } : {}),
      }),
      handshakeTimeoutMs: opts.handshakeTimeoutMs, idleTimeoutMs: opts.idleTimeoutMs,
    });
  }
}

/** `p`, or the signal's reason when it aborts first. */
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
