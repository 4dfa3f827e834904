// What the scheduler reads of a pod: its key, priority, host ports, images,
// tolerations, whether it is assigned, terminal or terminating.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { taintsOf, toleratesTaint, type Taint } from '../api/core/v1/taints.js';

export type Obj = Record<string, unknown>;

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export function spec(pod: ApiObject): Obj {
  return isObject(pod.spec) ? pod.spec : {};
}

export function podKey(pod: ApiObject): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name}`;
}

export function nodeName(pod: ApiObject): string {
  const n = spec(pod).nodeName;
  return typeof n === 'string' ? n : '';
}

export function priorityOf(pod: ApiObject): number {
  const p = spec(pod).priority;
  return typeof p === 'number' ? p : 0;
}

export function schedulerNameOf(pod: ApiObject): string {
  const n = spec(pod).schedulerName;
  return typeof n === 'string' && n !== '' ? n : DEFAULT_SCHEDULER_NAME;
}

export function phaseOf(pod: ApiObject): string {
  const s = isObject(pod.status) ? pod.status : {};
  return typeof s.phase === 'string' ? s.phase : '';
}

/** Succeeded or Failed: such pods hold nothing on their node (kube's scheduler does not watch them). */
export function isTerminal(pod: ApiObject): boolean {
  const p = phaseOf(pod);
  return p === 'Succeeded' || p === 'Failed';
}

export interface HostPort {
  readonly ip: string;
  readonly protocol: string;
  readonly port: number;
}

/** The host ports the pod's containers ask for (kube's GetContainerPorts, those with a hostPort). */
export function hostPorts(pod: ApiObject): HostPort[] {
  const out: HostPort[] = [];
  const s = spec(pod);
  for (const key of ['containers', 'initContainers']) {
    const list = Array.isArray(s[key]) ? (s[key] as unknown[]) : [];
    for (const c of list) {
      if (!isObject(c) || !Array.isArray(c.ports)) continue;
      for (const p of c.ports) {
        if (!isObject(p) || typeof p.hostPort !== 'number' || p.hostPort <= 0) continue;
        out.push({ ip: typeof p.hostIP === 'string' && p.hostIP ? p.hostIP : '0.0.0.0', protocol: typeof p.protocol === 'string' && p.protocol ? p.protocol : 'TCP', port: p.hostPort });
      }
    }
  }
  return out;
}

export function containerImages(pod: ApiObject): string[] {
  const list = spec(pod).containers;
  return Array.isArray(list) ? list.filter(isObject).map((c) => (typeof c.image === 'string' ? c.image : '')).filter(Boolean) : [];
}

export interface Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
}

export { taintsOf, type Taint };

const tolerationsCache = new WeakMap<ApiObject, Toleration[]>();

/** The pod's tolerations, read once per pod object (a cycle asks for them on every node). */
export function tolerationsOf(pod: ApiObject): Toleration[] {
  let out = tolerationsCache.get(pod);
  if (!out) {
    const t = spec(pod).tolerations;
    out = Array.isArray(t) ? (t.filter(isObject) as Toleration[]) : [];
    tolerationsCache.set(pod, out);
  }
  return out;
}


/** kube's Toleration.ToleratesTaint (node taint keys in either spelling alike). */
export { toleratesTaint as tolerates };

/** The first taint (among those `inScope`) no toleration tolerates. */
export function firstUntolerated(taints: readonly Taint[], tolerations: readonly Toleration[], inScope: (t: Taint) => boolean): Taint | undefined {
  return taints.find((taint) => inScope(taint) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

export function labelsOf(o: ApiObject): Record<string, string> {
  return o.metadata.labels ?? {};
}
