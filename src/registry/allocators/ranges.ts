// The two ranges Services allocate from, as the flags give them:
// --service-cluster-ip-range (an IPv4 CIDR) and --service-node-port-range
// ("30000-32767", "30000+2767" or a single port). Both are turned into a
// pool of numbered offsets, and into the order in which Kubernetes v1.27
// tries free offsets:
//
// - cluster IPs: the network address and the IPv4 broadcast address are never
//   part of the pool (10.0.0.0/24 hands out 10.0.0.1 … 10.0.0.254). Dynamic
//   allocation prefers the upper part of the range and only falls back to a
//   small lower band kept for static (requested) IPs, the band being
//   min(max(16, size/16), 256) addresses, none for ranges of 16 addresses or
//   fewer (ServiceIPStaticSubrange, GA in v1.26). Within each part it starts
//   at a random offset and scans forward, wrapping.
// - node ports: the whole range, random start, linear scan, wrapping (v1.27's
//   node port static subrange is an alpha gate, off by default).
//
// IPv4 only; dual-stack and IPv6 ranges are refused with a clear error.
import { ipFamily } from '../../api/meta/checks.js';

/** A pool of `size` items numbered 0…size-1; values are what callers see (an IP as a number, a port). */
export interface Pool {
  /** Storage prefix of the claim keys, ending in '/'. */
  readonly prefix: string;
  readonly size: number;
  /** Items [0, staticBand) are tried last by dynamic allocation. */
  readonly staticBand: number;
  valueAt(offset: number): number;
  /** The offset of a value, or undefined when the value is not in the pool. */
  offsetOf(value: number): number | undefined;
  /** The value as it appears in keys and messages. */
  format(value: number): string;
  /** Parses a claim key's last segment back to a value (undefined when foreign). */
  parse(text: string): number | undefined;
  /** The range as the flag gave it, canonical ("10.0.0.0/24", "30000-32767"). */
  readonly text: string;
}

export interface ClusterIPRange {
  readonly family: 'IPv4';
  /** Canonical CIDR, the network address masked: "10.0.0.0/24". */
  readonly cidr: string;
  /** The network address as an unsigned 32-bit number. */
  readonly network: number;
  readonly prefixLength: number;
  /** Allocatable addresses (network and broadcast excluded). */
  readonly size: number;
}

export interface NodePortRange {
  readonly base: number;
  readonly size: number;
}

/** Kubernetes refuses service CIDRs with more than 20 host bits (cmd/kube-apiserver validation). */
const MAX_HOST_BITS = 20;

/** Parses an IPv4 address (decimal octets; leading zeros read as decimal, like Go's ParseIPSloppy). */
export function parseIPv4(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    const v = Number(p);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** --service-cluster-ip-range: one IPv4 CIDR. Throws an Error naming what is wrong. */
export function parseClusterIPRange(text: string): ClusterIPRange {
  const fail = (why: string): never => {
    throw new Error(`invalid --service-cluster-ip-range ${JSON.stringify(text)}: ${why}`);
  };
  const t = text.trim();
  if (t === '') fail('a CIDR such as 10.0.0.0/24 is required');
  if (t.includes(',')) fail('dual-stack service cluster IP ranges are not supported yet; give a single IPv4 CIDR');
  const slash = t.indexOf('/');
  if (slash < 0) fail('not a CIDR: expected an address and a prefix length, such as 10.0.0.0/24');
  const addr = t.slice(0, slash);
  const bits = t.slice(slash + 1);
  if (ipFamily(addr) === 'IPv6') fail('IPv6 service cluster IP ranges are not supported yet; give an IPv4 CIDR');
  const ip = parseIPv4(addr);
  if (ip === undefined) fail(`${JSON.stringify(addr)} is not an IPv4 address`);
  if (!/^[0-9]{1,2}$/.test(bits) || Number(bits) > 32) fail(`${JSON.stringify(bits)} is not a prefix length between 0 and 32`);
  const prefixLength = Number(bits);
  const hostBits = 32 - prefixLength;
  if (hostBits > MAX_HOST_BITS) fail(`the range is too large; for 32-bit addresses, the mask must be >= ${32 - MAX_HOST_BITS}`);
  const total = 2 ** hostBits;
  const size = total - 2;
  if (size <= 0) fail(`a /${prefixLength} has no allocatable addresses (the network and broadcast addresses are never handed out); use /30 or larger`);
  const network = ip! - (ip! % total);
  return { family: 'IPv4', cidr: `${formatIPv4(network)}/${prefixLength}`, network, prefixLength, size };
}

/** --service-node-port-range: "30000-32767", "30000+2767" (base and offset) or "30000". */
export function parseNodePortRange(text: string): NodePortRange {
  const fail = (why: string): never => {
    throw new Error(`invalid --service-node-port-range ${JSON.stringify(text)}: ${why}`);
  };
  const t = text.trim();
  if (t === '') fail('a range such as 30000-32767 is required');
  const m = /^([0-9]+)(?:([-+])([0-9]+))?$/.exec(t);
  if (!m) fail('expected <first>-<last>, <first>+<offset> or a single port, such as 30000-32767');
  const low = Number(m![1]);
  let high = low;
  if (m![2] === '-') high = Number(m![3]);
  else if (m![2] === '+') high = low + Number(m![3]);
  if (low < 1 || low > 65535) fail(`port ${low} is not between 1 and 65535`);
  if (high > 65535) fail(`port ${high} is not between 1 and 65535`);
  if (high < low) fail(`the last port ${high} is below the first port ${low}`);
  return { base: low, size: high - low + 1 };
}

/** The range as first and last port, inclusive (what Service validation takes). */
export function nodePortBounds(r: NodePortRange): { min: number; max: number } {
  return { min: r.base, max: r.base + r.size - 1 };
}

export function nodePortRangeText(r: NodePortRange): string {
  return `${r.base}-${r.base + r.size - 1}`;
}

/** The static band of a service CIDR: min(max(16, cidrSize/16), 256), none at 16 addresses or fewer. */
function staticBandOf(r: ClusterIPRange): number {
  const total = 2 ** (32 - r.prefixLength);
  if (total <= 16) return 0;
  return Math.min(Math.max(16, Math.floor(total / 16)), 256);
}

export const SERVICE_IP_PREFIX = '/registry/ranges/serviceips/';
export const NODE_PORT_PREFIX = '/registry/ranges/servicenodeports/';

export function clusterIPPool(r: ClusterIPRange): Pool {
  const first = r.network + 1;
  return {
    prefix: SERVICE_IP_PREFIX,
    size: r.size,
    staticBand: staticBandOf(r),
    text: r.cidr,
    valueAt: (o) => first + o,
    offsetOf: (v) => (v >= first && v < first + r.size ? v - first : undefined),
    format: formatIPv4,
    parse: parseIPv4,
  };
}

export function nodePortPool(r: NodePortRange): Pool {
  return {
    prefix: NODE_PORT_PREFIX,
    size: r.size,
    staticBand: 0,
    text: nodePortRangeText(r),
    valueAt: (o) => r.base + o,
    offsetOf: (v) => (Number.isInteger(v) && v >= r.base && v < r.base + r.size ? v - r.base : undefined),
    format: String,
    parse: (s) => (/^[0-9]+$/.test(s) ? Number(s) : undefined),
  };
}

/**
 * Offsets in the order dynamic allocation tries them: the part above the
 * static band from a random start, wrapping; then the static band likewise.
 */
export function* scanOrder(pool: Pick<Pool, 'size' | 'staticBand'>, random: () => number = Math.random): Generator<number> {
  const band = Math.min(pool.staticBand, pool.size);
  const upper = pool.size - band;
  if (upper > 0) {
    const start = Math.floor(random() * upper);
    for (let i = 0; i < upper; i++) yield band + ((start + i) % upper);
  }
  if (band > 0) {
    const start = Math.floor(random() * band);
    for (let i = 0; i < band; i++) yield (start + i) % band;
  }
}
