// Nominated pods (kube's PodNominator): pending pods that preemption made
// room for on a node (status.nominatedNodeName). Until they are bound, a
// scheduling cycle counts them on that node for pods of no higher priority,
// so the room is not taken by someone less important.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { podKey, priorityOf } from './pods.js';

export function nominatedNodeOf(pod: ApiObject): string {
  const s = isObject(pod.status) ? pod.status : {};
  return typeof s.nominatedNodeName === 'string' ? s.nominatedNodeName : '';
}

export class Nominator {
  private readonly byNode = new Map<string, Map<string, ApiObject>>();
  private readonly nodeOf = new Map<string, string>();

  /** Records the pod's nomination ('' removes it). */
  set(pod: ApiObject, node: string): void {
    const key = podKey(pod);
    this.delete(key);
    if (!node) return;
    let m = this.byNode.get(node);
    if (!m) this.byNode.set(node, (m = new Map()));
    m.set(key, pod);
    this.nodeOf.set(key, node);
  }

  delete(key: string): void {
    const node = this.nodeOf.get(key);
    if (node === undefined) return;
    this.nodeOf.delete(key);
    const m = this.byNode.get(node)!;
    m.delete(key);
    if (m.size === 0) this.byNode.delete(node);
  }

  nodeFor(key: string): string | undefined {
    return this.nodeOf.get(key);
  }

  /** The pods nominated to `node` that `pod` must leave room for: of equal or higher priority, not itself. */
  ahead(node: string, pod: ApiObject): ApiObject[] {
    const m = this.byNode.get(node);
    if (!m) return [];
    const key = podKey(pod);
    const prio = priorityOf(pod);
    return [...m.entries()].filter(([k, p]) => k !== key && priorityOf(p) >= prio).map(([, p]) => p);
  }
}
