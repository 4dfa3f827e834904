// The kubelet's resource admission of a pod bound to its node (kube v1.27
// lifecycle predicateAdmitHandler over the scheduler's noderesources fit):
// the pod count first, then cpu, memory, ephemeral-storage and other
// requested resources against allocatable less what admitted pods request.
// A refused pod is Failed with reason OutOf<resource> and "Pod was rejected: …".
import { isObject, type ApiObject } from '../registry/object.js';
import type { ResourceList } from '../quota/resources.js';
import { rfc3339 } from './clock.js';

export interface Rejection {
  readonly reason: string;
  readonly message: string;
}

const NANOS = 1_000_000_000n;

/** A quantity in the unit the kubelet prints it: millicores for cpu, whole units (bytes) otherwise. */
function amount(resource: string, list: ResourceList): bigint {
  const q = list[resource];
  if (!q) return 0n;
  const unit = resource === 'cpu' ? NANOS / 1000n : NANOS;
  return q.nanos / unit + (q.nanos % unit === 0n ? 0n : 1n);
}

const insufficient = (resource: string, requested: bigint, used: bigint, capacity: bigint): Rejection => ({
  reason: `OutOf${resource}`,
  message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
});

/** Whether a pod with `request` fits beside `podCount` admitted pods using `used`; the rejection otherwise. */
export function admitPod(request: ResourceList, used: ResourceList, podCount: number, allocatable: ResourceList): Rejection | undefined {
  const allowedPods = amount('pods', allocatable);
  if (BigInt(podCount) + 1n > allowedPods) return insufficient('pods', 1n, BigInt(podCount), allowedPods);
  const names = ['cpu', 'memory', 'ephemeral-storage', ...Object.keys(request).filter((r) => !['cpu', 'memory', 'ephemeral-storage', 'pods'].includes(r)).sort()];
  for (const r of names) {
    const want = amount(r, request);
    if (want <= 0n) continue;
    const have = amount(r, allocatable);
    const inUse = amount(r, used);
    if (want > have - inUse) return insufficient(r, want, inUse, have);
  }
  return undefined;
}

/** The status of a pod the kubelet refused (statusManager.SetPodStatus of rejectPod). */
export function rejectedStatus(pod: ApiObject, r: Rejection, now: number): Record<string, unknown> {
  const prev = isObject(pod.status) ? pod.status : {};
  return {
    ...prev,
    phase: 'Failed',
    reason: r.reason,
    message: `Pod was rejected: ${r.message}`,
    startTime: typeof prev.startTime === 'string' ? prev.startTime : rfc3339(now),
  };
}
