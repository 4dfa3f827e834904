// Addresses of the simulated nodes and their pods. A node's InternalIP comes
// from 198.18.0.0/15 (RFC 2544's benchmarking range: never a real network),
// node i taking the (i+1)-th address. Pods get addresses from their node's
// /24: the Node's spec.podCIDR when an IPAM controller gave it one, else
// 10.(244 + i/256).(i%256).0/24 — kube's usual 10.244.0.0/16 pod range,
// extended — handing out .2 … .254 (.1 is the bridge, as with kubenet).

const NODE_RANGE_BASE = (198 << 24) | (18 << 16);
const NODE_RANGE_SIZE = 1 << 17;

const dotted = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** The InternalIP of node `index` (0-based). */
export function nodeInternalIP(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index + 1 >= NODE_RANGE_SIZE - 1) throw new RangeError(`simulated node index ${index} is outside 198.18.0.0/15`);
  return dotted((NODE_RANGE_BASE + index + 1) >>> 0);
}

/** The default pod /24 of node `index` (up to 3,072 nodes: 10.244.0.0 … 10.255.255.0). */
export function defaultPodCIDR(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= 12 * 256) throw new RangeError(`simulated node index ${index} has no default pod range (at most 3072 nodes)`);
  return `10.${244 + (index >> 8)}.${index & 255}.0/24`;
}

const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** The pod addresses one node hands out, from an IPv4 CIDR (the first 253 hosts past .1 at most). */
export class PodAddresses {
  private readonly base: number;
  private readonly size: number;
  private readonly used = new Set<string>();
  private next = 0;

  constructor(cidr: string) {
    const m = IPV4_CIDR.exec(cidr);
    const octets = m ? m.slice(1, 5).map(Number) : [];
    const bits = m ? Number(m[5]) : -1;
    if (!m || octets.some((o) => o > 255) || bits < 8 || bits > 30) throw new RangeError(`pod CIDR ${JSON.stringify(cidr)} is not an IPv4 range of /8 to /30`);
    const addr = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    this.base = (addr & mask) >>> 0;
    // hosts .2 … (broadcast − 1), at most 253 of them
    this.size = Math.min(2 ** (32 - bits) - 3, 253);
  }

  /** Marks an address as taken (a pod found running at start). */
  reserve(ip: string): void {
    this.used.add(ip);
  }

  /** A free address, or undefined when every one is taken. */
  allocate(): string | undefined {
    for (let i = 0; i < this.size; i++) {
      const ip = dotted((this.base + 2 + ((this.next + i) % this.size)) >>> 0);
      if (!this.used.has(ip)) {
        this.used.add(ip);
        this.next = (this.next + i + 1) % this.size;
        return ip;
      }
    }
    return undefined;
  }

  release(ip: string): void {
    this.used.delete(ip);
  }

  get inUse(): number {
    return this.used.size;
  }
}
