// kube's EndpointSet: desired endpoints keyed by what identifies one across
// syncs — its sorted addresses, hostname and target (namespace/name) — so an
// existing slice's endpoint finds its desired version; the other fields
// (conditions, node, zone, hints, targetRef uid) are compared beyond the key.
import { deepEqual } from '../../registry/object.js';
import type { Endpoint, SlicePort } from './types.js';

export function endpointKey(ep: Endpoint): string {
  return JSON.stringify([[...ep.addresses].sort(), ep.hostname ?? '', ep.targetRef?.namespace ?? '', ep.targetRef?.name ?? '']);
}

/** Whether two endpoints with the same key are the same (kube's EndpointsEqualBeyondHash). */
export function endpointsEqualBeyondKey(a: Endpoint, b: Endpoint): boolean {
  const c1 = a.conditions ?? {};
  const c2 = b.conditions ?? {};
  return (a.nodeName ?? '') === (b.nodeName ?? '') && (a.zone ?? '') === (b.zone ?? '') &&
    c1.ready === c2.ready && c1.serving === c2.serving && c1.terminating === c2.terminating &&
    deepEqual(a.hints ?? null, b.hints ?? null) && deepEqual(a.targetRef ?? null, b.targetRef ?? null);
}

/** Endpoints by key, popped in the order they were added. */
export class EndpointSet {
  private readonly items = new Map<string, Endpoint>();

  insert(ep: Endpoint): void {
    this.items.set(endpointKey(ep), ep);
  }

  get(ep: Endpoint): Endpoint | undefined {
    return this.items.get(endpointKey(ep));
  }

  delete(ep: Endpoint): void {
    this.items.delete(endpointKey(ep));
  }

  get size(): number {
    return this.items.size;
  }

  popAny(): Endpoint {
    const [key, ep] = this.items.entries().next().value!;
    this.items.delete(key);
    return ep;
  }
}

/** The key of a port set (kube's PortMapKey): the same ports in any order give the same key. */
export function portMapKey(ports: readonly SlicePort[]): string {
  return JSON.stringify(ports.map((p) => JSON.stringify([p.name ?? '', p.protocol ?? '', p.port ?? null, p.appProtocol ?? null])).sort());
}
