// The API server's client to node agents (kube-apiserver's kubelet client):
// where a node's agent listens — the first of the node's status.addresses by
// --kubelet-preferred-address-types (default InternalIP, ExternalIP,
// Hostname, InternalDNS, ExternalDNS: an agent's hostname need not resolve,
// so svc starts as kubeadm configures kube-apiserver; kube's own default is
// Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP), at status.daemonEndpoints.kubeletEndpoint.port
// (10250 when unset) — and HTTPS GETs to it with the API server's client
// certificate (--kubelet-client-certificate/-key). The agent's serving
// certificate is verified against --kubelet-certificate-authority; without
// one it is not verified, as kube's kubelet transport. Failures carry Go's
// wording, as kube-apiserver reports them:
//   Get "https://10.0.0.1:10250/containerLogs/…": dial tcp 10.0.0.1:10250: connect: connection refused
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { isObject, type ApiObject } from '../registry/object.js';

export const DEFAULT_PREFERRED_ADDRESS_TYPES: readonly string[] = ['InternalIP', 'ExternalIP', 'Hostname', 'InternalDNS', 'ExternalDNS'];
export const DEFAULT_KUBELET_PORT = 10250;

export interface KubeletClientConfig {
  /** PEM client certificate and key the API server presents. */
  readonly cert?: string;
  readonly key?: string;
  /** PEM roots for the agents' serving certificates; absent: not verified. */
  readonly ca?: string;
  readonly preferredAddressTypes?: readonly string[];
  readonly defaultPort?: number;
  /** The dial timeout (kube: 5 s). */
  readonly dialTimeoutMs?: number;
}

export interface NodeConnection {
  readonly host: string;
  readonly port: number;
}

/** The node has no address of a preferred type (kube's NoMatchError). */
export class NoPreferredAddress extends Error {
  override readonly name = 'NoPreferredAddress';
}

/** A request that got no response (Go's *url.Error text). */
export class KubeletDialError extends Error {
  override readonly name = 'KubeletDialError';
}

export interface KubeletClient {
  connection(node: ApiObject): NodeConnection;
  /** GET; resolves with the response whatever its status; rejects with KubeletDialError. */
  get(url: URL, signal: AbortSignal): Promise<IncomingMessage>;
}

export function kubeletClient(c: KubeletClientConfig = {}): KubeletClient {
  const types = c.preferredAddressTypes ?? DEFAULT_PREFERRED_ADDRESS_TYPES;
  const agent = new https.Agent({
    keepAlive: true,
    ...(c.cert && c.key ? { cert: c.cert, key: c.key } : {}),
    ...(c.ca ? { ca: c.ca, rejectUnauthorized: true } : { rejectUnauthorized: false }),
  });
  return {
    connection(node) {
      const status = isObject(node.status) ? node.status : {};
      const addresses = (Array.isArray(status.addresses) ? status.addresses : []).filter(isObject) as { type?: unknown; address?: unknown }[];
      let host: string | undefined;
      for (const t of types) {
        const a = addresses.find((x) => x.type === t && typeof x.address === 'string');
        if (a) {
          host = a.address as string;
          break;
        }
      }
      if (host === undefined) throw new NoPreferredAddress(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${String(a.type ?? '')} ${String(a.address ?? '')}}`).join(' ')}]`);
      const endpoints = isObject(status.daemonEndpoints) && isObject(status.daemonEndpoints.kubeletEndpoint) ? status.daemonEndpoints.kubeletEndpoint : {};
      const port = typeof endpoints.Port === 'number' && endpoints.Port > 0 ? endpoints.Port : c.defaultPort ?? DEFAULT_KUBELET_PORT;
      return { host, port };
    },
    get(url, signal) {
      return new Promise((resolve, reject) => {
        const req = https.request(url, { method: 'GET', agent, signal, headers: { 'user-agent': 'svc-apiserver' } }, resolve);
        const timer = setTimeout(() => req.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), c.dialTimeoutMs ?? 5000);
        req.on('socket', (s) => (s.connecting ? s.once('connect', () => clearTimeout(timer)) : clearTimeout(timer)));
        req.on('response', () => clearTimeout(timer));
        req.on('error', (err) => {
          clearTimeout(timer);
          reject(new KubeletDialError(`Get "${url.href}": ${goDialText(url, err as NodeJS.ErrnoException)}`));
        });
        req.end();
      });
    },
  };
}

/** host:port as Go joins them (IPv6 in brackets). */
export function joinHostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connect: connection refused',
  EHOSTUNREACH: 'connect: no route to host',
  ENETUNREACH: 'connect: network is unreachable',
  ECONNRESET: 'read: connection reset by peer',
  ETIMEDOUT: 'i/o timeout',
};

function goDialText(url: URL, err: NodeJS.ErrnoException): string {
  const hostPort = `${url.hostname}:${url.port || 443}`; // WHATWG keeps IPv6 hosts in brackets, as Go prints them
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `dial tcp: lookup ${url.hostname.replace(/^\[(.*)\]$/, '$1')}: no such host`;
  const known = err.code ? CONNECT_ERRORS[err.code] : undefined;
  if (known) return `dial tcp ${hostPort}: ${known}`;
  const tls = goTlsText(url, err as NodeJS.ErrnoException & { cert?: { subjectaltname?: string } });
  return tls ?? err.message;
}

const UNKNOWN_AUTHORITY = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_SIGNATURE_FAILURE']);

/** Go's crypto/x509 texts for a serving certificate that does not verify. */
function goTlsText(url: URL, err: NodeJS.ErrnoException & { cert?: { subjectaltname?: string } }): string | undefined {
  const prefix = 'tls: failed to verify certificate: x509: ';
  if (err.code && UNKNOWN_AUTHORITY.has(err.code)) return `${prefix}certificate signed by unknown authority`;
  if (err.code === 'CERT_HAS_EXPIRED' || err.code === 'CERT_NOT_YET_VALID') return `${prefix}certificate has expired or is not yet valid`;
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const sans = (err.cert?.subjectaltname ?? '').split(', ').filter(Boolean);
    if (isIP(host)) {
      if (!sans.some((s) => s.startsWith('IP Address:'))) return `${prefix}cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
      return `${prefix}certificate is valid for ${sans.filter((s) => s.startsWith('IP Address:')).map((s) => s.slice(11)).join(', ')}, not ${host}`;
    }
    return `${prefix}certificate is valid for ${sans.filter((s) => s.startsWith('DNS:')).map((s) => s.slice(4)).join(', ')}, not ${host}`;
  }
  return undefined;
}
