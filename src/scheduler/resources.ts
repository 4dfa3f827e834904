// Resource amounts as the scheduler counts them (kube's framework.Resource):
// CPU in millicores, everything else in whole units, rounded up as
// Quantity.MilliValue()/Value() round. A pod's request is the larger of its
// containers' sum and each init container's, plus its overhead (kube's
// computePodResourceRequest); the "non-zero" request counts a container that
// asks for no CPU or memory as 100m and 200 MB, so that spreading still sees it.
import { quantityOf } from '../api/meta/quantity.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';

export type Resources = Record<string, number>;

export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** A quantity as the scheduler counts it: milli-units for cpu, units (rounded up) otherwise. */
export function amount(resource: string, v: unknown): number {
  const q = quantityOf(v);
  if (!q) return 0;
  const per = resource === 'cpu' ? 1_000_000n : 1_000_000_000n;
  const whole = q.nanos / per;
  return Number(q.nanos % per > 0n ? whole + 1n : whole);
}

export function resourceList(v: unknown): Resources {
  const out: Resources = {};
  if (!isObject(v)) return out;
  for (const [k, q] of Object.entries(v)) out[k] = amount(k, q);
  return out;
}

export function addTo(into: Resources, r: Resources, sign = 1): void {
  for (const [k, v] of Object.entries(r)) into[k] = (into[k] ?? 0) + sign * v;
}

function maxInto(into: Resources, r: Resources): void {
  for (const [k, v] of Object.entries(r)) if (v > (into[k] ?? 0)) into[k] = v;
}

function containers(pod: ApiObject, key: 'containers' | 'initContainers'): Record<string, unknown>[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const list = spec[key];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

function requestsOf(c: Record<string, unknown>): Resources {
  return resourceList(isObject(c.resources) ? c.resources.requests : undefined);
}

/** A container's request with kube's non-zero defaults for cpu and memory. */
function nonZero(r: Resources): Resources {
  return { ...r, cpu: r.cpu || DEFAULT_MILLI_CPU_REQUEST, memory: r.memory || DEFAULT_MEMORY_REQUEST };
}

function podRequest(pod: ApiObject, each: (r: Resources) => Resources): Resources {
  const sum: Resources = {};
  for (const c of containers(pod, 'containers')) addTo(sum, each(requestsOf(c)));
  // Sidecars (restartPolicy Always init containers) are not in v1.27: each init container runs alone.
  for (const c of containers(pod, 'initContainers')) maxInto(sum, each(requestsOf(c)));
  const spec = isObject(pod.spec) ? pod.spec : {};
  addTo(sum, resourceList(spec.overhead));
  return sum;
}

/** What the pod asks of a node (kube's computePodResourceRequest). */
export function podRequests(pod: ApiObject): Resources {
  return podRequest(pod, (r) => r);
}

/** The same with the non-zero defaults for cpu and memory (for scoring). */
export function podNonZeroRequests(pod: ApiObject): { cpu: number; memory: number } {
  const r = podRequest(pod, nonZero);
  return { cpu: r.cpu ?? 0, memory: r.memory ?? 0 };
}

/** The node's allocatable (capacity when allocatable is missing). */
export function allocatable(node: ApiObject): Resources {
  const status = isObject(node.status) ? node.status : {};
  return resourceList(status.allocatable ?? status.capacity);
}
