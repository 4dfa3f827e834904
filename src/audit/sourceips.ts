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

/** The peer's address (Node's socket.remoteAddress), for the fast path when no proxy header is there. */
export function sourceIPs(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string[] {
  const ips: string[] = [];
  const fwd = first(headers['x-forwarded-for']);
  if (fwd) {
    for (const part of fwd.split(',')) {
      const ip = canonicalIP(part);
      if (ip) ips.push(ip);
    }
  }
  const real = first(headers['x-real-ip']);
  if (real) {
    const ip = canonicalIP(real);
    if (ip && !ips.includes(ip)) ips.push(ip);
  }
  const peer = remoteAddress === undefined ? undefined : remoteAddress.startsWith('::ffff:') && isIP(remoteAddress.slice(7)) === 4 ? remoteAddress.slice(7) : canonicalIP(remoteAddress);
  if (peer && (ips.length === 0 || ips[ips.length - 1] !== peer)) ips.push(peer);
  return ips;
}
