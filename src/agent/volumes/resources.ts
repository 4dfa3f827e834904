// Resource figures the volumes need: the node's allocatable (the limit of an
// unlimited container, the size of a memory-backed emptyDir) and the pod's
// memory limit (kube's pod cgroup limit: set only when every container has one).
import { cpus, totalmem } from 'node:os';
import { quantityOf } from '../../api/meta/quantity.js';
import type { ApiObject } from '../../registry/object.js';

export type ResourceList = Readonly<Record<string, string>>;

/** The machine's own figures, for standalone mode (no Node object). */
export function machineAllocatable(): ResourceList {
  return { cpu: String(cpus().length), memory: String(totalmem()) };
}

/** A quantity's Value() (whole units, rounded up); undefined when absent or not a quantity. */
export function quantityValue(v: unknown): bigint | undefined {
  const q = quantityOf(v);
  if (!q) return undefined;
  return q.nanos / 1_000_000_000n + (q.nanos % 1_000_000_000n > 0n ? 1n : 0n);
}

interface ContainerLike {
  name?: string;
  resources?: { limits?: Record<string, unknown>; requests?: Record<string, unknown> };
}

function containers(pod: ApiObject, field: 'containers' | 'initContainers'): ContainerLike[] {
  const spec = pod.spec as Record<string, unknown> | undefined;
  const list = spec?.[field];
  return Array.isArray(list) ? (list as ContainerLike[]) : [];
}

/** The pod's memory limit in bytes as its cgroup gets it, or undefined when some container has none. */
export function podMemoryLimit(pod: ApiObject): bigint | undefined {
  let sum = 0n;
  for (const c of containers(pod, 'containers')) {
    const v = quantityValue(c.resources?.limits?.memory);
    if (v === undefined || v === 0n) return undefined;
    sum += v;
  }
  for (const c of containers(pod, 'initContainers')) {
    const v = quantityValue(c.resources?.limits?.memory);
    if (v === undefined || v === 0n) return undefined;
    if (v > sum) sum = v;
  }
  const overhead = quantityValue(((pod.spec as Record<string, unknown> | undefined)?.overhead as Record<string, unknown> | undefined)?.memory);
  return sum + (overhead ?? 0n);
}

/** The size of a memory-backed emptyDir (kube's SizeMemoryBackedVolumes): the least positive of node allocatable, pod limit, sizeLimit. */
export function memoryVolumeSize(allocatable: ResourceList, pod: ApiObject, sizeLimit: unknown): bigint | undefined {
  let size = quantityValue(allocatable.memory);
  const pick = (v: bigint | undefined) => {
    if (v !== undefined && v > 0n && (size === undefined || v <= size)) size = v;
  };
  pick(podMemoryLimit(pod));
  pick(quantityValue(sizeLimit));
  return size;
}
