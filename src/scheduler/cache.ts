// The scheduler's cache (kube's internal/cache): nodes with the pods bound to
// them and the pods it assumed — placed by a scheduling cycle whose binding
// has not been seen yet — so the next cycle counts them. A bound pod seen by
// the informer confirms an assumption; a failed binding forgets it. A pod on
// a node not seen yet waits for the node.
import type { ApiObject } from '../registry/object.js';
import type { Snapshot } from './framework.js';
import { NodeInfo, nodeImages, podInfo, type PodInfo } from './nodeinfo.js';
import { podKey } from './pods.js';

interface CachedPod {
  readonly node: string;
  readonly info: PodInfo;
  assumed: boolean;
}

export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly pods = new Map<string, CachedPod>();
  /** Pods whose node the cache does not know (yet). */
  private readonly waiting = new Map<string, Map<string, PodInfo>>();
  private imagesDirty = true;

  addOrUpdateNode(node: ApiObject): void {
    const name = node.metadata.name!;
    const next = new NodeInfo(node);
    const old = this.nodes.get(name);
    for (const p of old ? old.pods.values() : (this.waiting.get(name)?.values() ?? [])) next.addPod(p);
    this.waiting.delete(name);
    this.nodes.set(name, next);
    this.imagesDirty = true;
  }

  removeNode(name: string): void {
    const old = this.nodes.get(name);
    if (!old) return;
    this.nodes.delete(name);
    if (old.pods.size > 0) this.waiting.set(name, new Map(old.pods));
    this.imagesDirty = true;
  }

  /** A pod bound to a node (informer add or update). */
  addOrUpdatePod(pod: ApiObject, node: string): void {
    const key = podKey(pod);
    this.removePod(key);
    this.place(key, node, podInfo(pod), false);
  }

  removePod(key: string): void {
    const cached = this.pods.get(key);
    if (!cached) return;
    this.pods.delete(key);
    this.nodes.get(cached.node)?.removePod(key);
    this.waiting.get(cached.node)?.delete(key);
  }

  /** The scheduling cycle placed the pod: counted at once, before the binding is seen. */
  assume(pod: ApiObject, node: string): void {
    const key = podKey(pod);
    this.removePod(key);
    this.place(key, node, podInfo({ ...pod, spec: { ...(pod.spec as object), nodeName: node } }), true);
  }

  /** The binding failed: the assumption is dropped (unless the informer confirmed the pod meanwhile). */
  forget(pod: ApiObject): void {
    const key = podKey(pod);
    if (this.pods.get(key)?.assumed) this.removePod(key);
  }

  isAssumed(key: string): boolean {
    return this.pods.get(key)?.assumed ?? false;
  }

  nodeCount(): number {
    return this.nodes.size;
  }

  /** The nodes as this cycle sees them. */
  snapshot(): Snapshot {
    if (this.imagesDirty) this.refreshImages();
    const nodes = [...this.nodes.values()];
    return { nodes, get: (name) => this.nodes.get(name) };
  }

  private place(key: string, node: string, info: PodInfo, assumed: boolean): void {
    this.pods.set(key, { node, info, assumed });
    const n = this.nodes.get(node);
    if (n) n.addPod(info);
    else {
      let m = this.waiting.get(node);
      if (!m) this.waiting.set(node, (m = new Map()));
      m.set(key, info);
    }
  }

  /** Image states: each image's size and how many nodes hold it. */
  private refreshImages(): void {
    const perNode = new Map<string, Map<string, number>>();
    const counts = new Map<string, { size: number; numNodes: number }>();
    for (const n of this.nodes.values()) {
      const images = nodeImages(n.node);
      perNode.set(n.name, images);
      for (const [name, size] of images) {
        const c = counts.get(name);
        if (c) c.numNodes++;
        else counts.set(name, { size, numNodes: 1 });
      }
    }
    for (const n of this.nodes.values()) {
      n.images.clear();
      for (const name of perNode.get(n.name)!.keys()) n.images.set(name, counts.get(name)!);
    }
    this.imagesDirty = false;
  }
}
