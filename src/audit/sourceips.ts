// A request's source IPs as kube's utilnet.SourceIPs finds them: every valid
// address of X-Forwarded-For, then X-Real-Ip unless already listed, then the
// peer unless it is already the last one. Addresses are written as Go's
// net.IP String() writes them (an IPv4-mapped IPv6 address as IPv4, IPv6
// lower-case and compressed).
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

export function canonicalIP(raw: string): string | undefined {
  const s = raw.trim();
  const v = isIP(s);
  if (v === 4) return s;
  if (v !== 6) return undefined;
  const lower = s.toLowerCase();
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return mapped[1];
  return new URL(`http://[${lower}]/`).hostname.slice(1, -1);
}

function first(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}

/** Peers seen (a few clients, many requests each): the peer's canonical form and its one-address list. */
const peers = new Map<string, { readonly ip: string | undefined; readonly alone: readonly string[] }>();
const MAX_PEERS = 4096;

function peerOf(remoteAddress: string): { readonly ip: string | undefined; readonly alone: readonly string[] } {
  let p = peers.get(remoteAddress);
  if (p === undefined) {
    const ip = canonicalIP(remoteAddress);
    p = { ip, alone: Object.freeze(ip ? [ip] : []) };
    if (peers.size >= MAX_PEERS) peers.clear();
    peers.set(remoteAddress, p);
  }
  return p;
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * The request's source IPs from its proxy headers and its peer's address
 * (Node's socket.remoteAddress). Without proxy headers (nearly every request)
 * the answer is a shared frozen list per peer.
 */
export function sourceIPs(headers: IncomingHttpHeaders, remoteAddress: string | undefined): readonly string[] {
  const fwd = first(headers['x-forwarded-for']);
  const real = first(headers['x-real-ip']);
  if (!fwd && !real) return remoteAddress === undefined ? NONE : peerOf(remoteAddress).alone;
  const ips: string[] = [];
  if (fwd) {
    for (const part of fwd.split(',')) {
      const ip = canonicalIP(part);
      if (ip) ips.push(ip);
    }
  }
  if (real) {
    const ip = canonicalIP(real);
    if (ip && !ips.includes(ip)) ips.push(ip);
  }
  const peer = remoteAddress === undefined ? undefined : peerOf(remoteAddress).ip;
  if (peer && (ips.length === 0 || ips[ips.length - 1] !== peer)) ips.push(peer);
  return ips;
}
