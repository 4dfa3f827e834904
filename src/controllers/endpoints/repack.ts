// kube's RepackSubsets (pkg/api/v1/endpoints): subsets rebuilt so that each
// set of addresses (with their readiness) appears once, with every port they
// all serve. An address is one (IP, target uid); ready for a port if any
// subset says so. Addresses sort by IP then uid, as kube's; ports and subsets
// sort by a hash of their content (kube hashes Go's printed structs with md5,
// so its order is as arbitrary as ours, only different).
import { createHash } from 'node:crypto';
import { clone } from '../../registry/object.js';
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../endpointslice/types.js';

const addrKey = (a: EndpointAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
const portKey = (p: EndpointPort | null) => (p ? JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? null]) : 'sentinel');
const hash = (v: unknown) => createHash('md5').update(JSON.stringify(v)).digest('hex');

export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const all = new Map<string, EndpointAddress>();
  /** port key → the port (null: subsets without ports) and its addresses with readiness. */
  const byPort = new Map<string, { port: EndpointPort | null; addrs: Map<string, boolean> }>();
  const mapAddress = (addr: EndpointAddress, port: EndpointPort | null, ready: boolean) => {
    const k = addrKey(addr);
    if (!all.has(k)) all.set(k, clone(addr));
    const pk = portKey(port);
    let entry = byPort.get(pk);
    if (!entry) byPort.set(pk, (entry = { port, addrs: new Map() }));
    if (!entry.addrs.get(k)) entry.addrs.set(k, ready); // ready wins
  };
  for (const s of subsets) {
    const ports: (EndpointPort | null)[] = s.ports && s.ports.length > 0 ? s.ports : [null];
    for (const port of ports) {
      for (const a of s.addresses ?? []) mapAddress(a, port, true);
      for (const a of s.notReadyAddresses ?? []) mapAddress(a, port, false);
    }
  }
  // the sets of addresses → the ports they serve
  const groups = new Map<string, { addrs: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, addrs } of byPort.values()) {
    const key = JSON.stringify([...addrs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { addrs, ports: [] }));
    if (port) g.ports.push(clone(port));
  }
  const out: EndpointSubset[] = [];
  for (const { addrs, ports } of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [k, r] of addrs) (r ? ready : notReady).push(clone(all.get(k)!));
    out.push({
      ...(ready.length > 0 ? { addresses: ready } : {}),
      ...(notReady.length > 0 ? { notReadyAddresses: notReady } : {}),
      ...(ports.length > 0 ? { ports } : {}),
    });
  }
  return sortSubsets(out);
}

/** kube's LessEndpointAddress: by IP (bytes), then target uid, an address without a target first. */
export function lessAddress(a: EndpointAddress, b: EndpointAddress): boolean {
  const c = Buffer.compare(Buffer.from(a.ip), Buffer.from(b.ip));
  if (c !== 0) return c < 0;
  if (!b.targetRef) return false;
  if (!a.targetRef) return true;
  return (a.targetRef.uid ?? '') < (b.targetRef.uid ?? '');
}

const byAddress = (a: EndpointAddress, b: EndpointAddress) => (lessAddress(a, b) ? -1 : lessAddress(b, a) ? 1 : 0);
const byHash = <T>(a: T, b: T) => { const ha = hash(a), hb = hash(b); return ha < hb ? -1 : ha > hb ? 1 : 0; };

export function sortSubsets(subsets: EndpointSubset[]): EndpointSubset[] {
  for (const s of subsets) {
    s.addresses?.sort(byAddress);
    s.notReadyAddresses?.sort(byAddress);
    s.ports?.sort(byHash);
  }
  return subsets.sort(byHash);
}
