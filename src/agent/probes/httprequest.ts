// The request an httpGet probe sends, built as kube's NewRequestForHTTPGetAction:
//
//   URL      scheme (http/https) :// host (the pod IP when empty) : port (number
//            or container port name) path(?query) — printed as Go's url.URL
//   headers  the probe's httpHeaders (Go-canonical names, repeats kept); a Host
//            header sets the request's host (else host:port, port always
//            written as Go does); User-Agent `kube-probe/1.27` and Accept `*/*`
//            unless given (an empty Accept removes it); Accept-Encoding gzip as
//            Go's transport adds it
//
// and the request a same-host redirect leads to.
import { goQuote, joinHostPort } from './goformat.js';
import { resolveContainerPort, type ProbeHandler } from './spec.js';
import { ProbeError, type Json } from './types.js';

/** kube's User-Agent for probes: `kube-probe/<major>.<minor>`. */
export const PROBE_USER_AGENT = 'kube-probe/1.27';
/** A probe request ready to send. */
export interface HttpProbeRequest {
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly port: number;
  /** Path and query as sent on the request line ("/" when empty). */
  readonly target: string;
  /** The URL as Go prints it (error texts). */
  readonly display: string;
  /** Header lines in order, Go-canonical names, without Host. */
  readonly headers: readonly (readonly [string, string])[];
  /** The Host header value sent. */
  readonly hostHeader: string;
  /** Whether Accept-Encoding gzip was added (then a gzip body is decoded). */
  readonly gzip: boolean;
}

/** textproto.CanonicalMIMEHeaderKey: `x-forwarded-for` → `X-Forwarded-For`; names with invalid characters are kept. */
export function canonicalHeaderName(name: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
}

/** Splits a probe path as Go's url.Parse would: path, then `?query` (a `#fragment` is dropped). */
function splitPath(path: string): { pathname: string; search: string } {
  const noFrag = path.split('#', 1)[0]!;
  const q = noFrag.indexOf('?');
  const rawPath = q < 0 ? noFrag : noFrag.slice(0, q);
  const rawQuery = q < 0 ? '' : noFrag.slice(q + 1);
  const u = new URL('http://h');
  u.pathname = rawPath === '' ? '' : rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  return { pathname: rawPath === '' ? '' : u.pathname, search: rawQuery === '' ? '' : `?${rawQuery}` };
}

/** The request an httpGet handler makes for a container of a pod with `podIP`. */
export function buildHttpRequest(handler: Extract<ProbeHandler, { kind: 'httpGet' }>, container: Json, podIP: string): HttpProbeRequest {
  const lower = handler.scheme.toLowerCase();
  if (lower !== '' && lower !== 'http' && lower !== 'https') throw new ProbeError(`unsupported protocol scheme ${goQuote(lower)}`);
  const scheme = lower === 'https' ? 'https' : 'http';
  const host = handler.host !== '' ? handler.host : podIP;
  const port = resolveContainerPort(handler.port, container);
  const { pathname, search } = splitPath(handler.path);
  const hostPort = joinHostPort(host, port);
  const lines: [string, string][] = handler.headers.map((h) => [canonicalHeaderName(h.name), h.value]);
  const has = (n: string): boolean => lines.some(([k]) => k === n);
  const first = (n: string): string => lines.find(([k]) => k === n)?.[1] ?? '';
  if (!has('User-Agent')) lines.push(['User-Agent', PROBE_USER_AGENT]);
  let out = lines;
  if (!has('Accept')) out.push(['Accept', '*/*']);
  else if (first('Accept') === '') out = out.filter(([k]) => k !== 'Accept');
  const hostValue = first('Host');
  out = out.filter(([k, v]) => k !== 'Host' && !(k === 'User-Agent' && v === ''));
  const gzip = !has('Accept-Encoding') && !has('Range');
  if (gzip) out.push(['Accept-Encoding', 'gzip']);
  return {
    scheme, host, port,
    target: (pathname === '' ? '/' : pathname) + search,
    display: `${scheme}://${hostPort}${pathname}${search}`,
    headers: out,
    hostHeader: hostValue !== '' ? hostValue : hostPort,
    gzip,
  };
}

export function nextRequest(prev: HttpProbeRequest, location: string): HttpProbeRequest {
  const base = new URL(`${prev.scheme}://${joinHostPort(prev.host, prev.port)}${prev.target}`);
  const next = new URL(location, base);
  const scheme = next.protocol === 'https:' ? 'https' : 'http';
  const host = next.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = next.port !== '' ? Number(next.port) : scheme === 'https' ? 443 : 80;
  const target = (next.pathname === '' ? '/' : next.pathname) + next.search;
  const shown = next.port !== '' ? joinHostPort(host, port) : next.hostname;
  // Go keeps a custom Host header across a relative redirect only.
  const relative = !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(location) && !location.startsWith('//');
  const customHost = prev.hostHeader !== joinHostPort(prev.host, prev.port);
  return {
    ...prev, scheme, host, port, target,
    display: `${scheme}://${shown}${next.pathname}${next.search}`,
    hostHeader: relative && customHost ? prev.hostHeader : shown,
  };
}
