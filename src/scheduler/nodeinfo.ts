// NodeInfo (kube's framework.NodeInfo): a node with what its pods — bound or
// assumed — hold: requested resources (and the non-zero requests scoring
// uses), host ports in use, and the pods themselves. Images come from the
// node's status with how many nodes hold each (for ImageLocality's spread).
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { addTo, allocatable, podNonZeroRequests, podRequests, type Resources } from './resources.js';
import { hostPorts, podKey, type HostPort } from './pods.js';

export interface PodInfo {
  readonly pod: ApiObject;
  readonly requests: Resources;
  readonly nonZero: { readonly cpu: number; readonly memory: number };
  readonly ports: readonly HostPort[];
  /** The pod has podAffinity or podAntiAffinity (kube's NodeInfo.PodsWithAffinity). */
  readonly withAffinity: boolean;
}

export function podInfo(pod: ApiObject): PodInfo {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const affinity = isObject(spec.affinity) ? spec.affinity : {};
  const withAffinity = isObject(affinity.podAffinity) || isObject(affinity.podAntiAffinity);
  return { pod, requests: podRequests(pod), nonZero: podNonZeroRequests(pod), ports: hostPorts(pod), withAffinity };
}

export interface ImageState {
  readonly size: number;
  /** How many nodes hold the image. */
  numNodes: number;
}

export class NodeInfo {
  readonly pods = new Map<string, PodInfo>();
  readonly requested: Resources = {};
  readonly nonZeroRequested = { cpu: 0, memory: 0 };
  /** How many of its pods have pod (anti-)affinity. */
  podsWithAffinity = 0;
  readonly allocatable: Resources;
  /** image name → state, filled by the snapshot. */
  readonly images = new Map<string, ImageState>();

  constructor(readonly node: ApiObject) {
    this.allocatable = allocatable(node);
  }

  get name(): string {
    return this.node.metadata.name!;
  }

  addPod(info: PodInfo): void {
    const key = podKey(info.pod);
    if (this.pods.has(key)) this.removePod(key);
    this.pods.set(key, info);
    addTo(this.requested, info.requests);
    this.nonZeroRequested.cpu += info.nonZero.cpu;
    this.nonZeroRequested.memory += info.nonZero.memory;
    if (info.withAffinity) this.podsWithAffinity++;
  }

  removePod(key: string): PodInfo | undefined {
    const info = this.pods.get(key);
    if (!info) return undefined;
    this.pods.delete(key);
    addTo(this.requested, info.requests, -1);
    this.nonZeroRequested.cpu -= info.nonZero.cpu;
    this.nonZeroRequested.memory -= info.nonZero.memory;
    if (info.withAffinity) this.podsWithAffinity--;
    return info;
  }

  /** Whether `port` conflicts with a host port in use (0.0.0.0 conflicts with every address). */
  portInUse(port: HostPort): boolean {
    for (const p of this.pods.values()) {
      for (const used of p.ports) {
        if (used.port !== port.port || used.protocol !== port.protocol) continue;
        if (used.ip === port.ip || used.ip === '0.0.0.0' || port.ip === '0.0.0.0') return true;
      }
    }
    return false;
  }

  /** A copy whose pods can be changed (preemption's what-if). */
  clone(): NodeInfo {
    const c = new NodeInfo(this.node);
    for (const p of this.pods.values()) c.addPod(p);
    for (const [k, v] of this.images) c.images.set(k, v);
    return c;
  }
}

/** The images a node's status lists: name → size in bytes. */
export function nodeImages(node: ApiObject): Map<string, number> {
  const out = new Map<string, number>();
  const status = isObject(node.status) ? node.status : {};
  if (!Array.isArray(status.images)) return out;
  for (const img of status.images) {
    if (!isObject(img) || !Array.isArray(img.names)) continue;
    const size = typeof img.sizeBytes === 'number' ? img.sizeBytes : 0;
    for (const n of img.names) if (typeof n === 'string') out.set(n, size);
  }
  return out;
}

/** kube's normalizedImageName: a container's image without a tag means ":latest". */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}
