// A pod's cgroup values as the kubelet computes them (cm helpers_linux.go,
// v1.27 ResourceConfigForPod), and the conversions they use:
//   cpu.shares  = requests.cpu in milliCPU × 1024 / 1000, at least 2
//   cfs quota   = limits.cpu × period / 1000 µs, at least 1000
//   Guaranteed  shares, quota, memory limit
//   Burstable   shares; quota when every container limits cpu; memory limit
//               when every container limits memory
//   BestEffort  shares 2
import type { Quantity } from '../../api/meta/quantity.js';
import { podLimits, podRequests } from '../../quota/evaluators/podresources.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { podQOSClass } from '../../registry/strategies/podqos.js';
import type { ResourceConfig } from './cgroupfs.js';

export const MIN_SHARES = 2;
export const MAX_SHARES = 262144;
export const SHARES_PER_CPU = 1024;
export const DEFAULT_QUOTA_PERIOD_US = 100_000;
export const MIN_QUOTA_PERIOD_US = 1_000;

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** Quantity.MilliValue (rounded up). */
export const milliValue = (q: Quantity | undefined): number => (q ? Number((q.nanos + 999_999n) / 1_000_000n) : 0);
/** Quantity.Value (rounded up). */
export const value = (q: Quantity | undefined): number => (q ? Number((q.nanos + 999_999_999n) / 1_000_000_000n) : 0);

export function milliCPUToShares(milli: number): number {
  if (milli === 0) return MIN_SHARES;
  const shares = Math.floor((milli * SHARES_PER_CPU) / 1000);
  return Math.min(Math.max(shares, MIN_SHARES), MAX_SHARES);
}

/** CFS quota for a milliCPU limit over `periodUs`; 0 for no limit. */
export function milliCPUToQuota(milli: number, periodUs: number): number {
  if (milli === 0) return 0;
  return Math.max(Math.floor((milli * periodUs) / 1000), MIN_QUOTA_PERIOD_US);
}

/** The pod's QoS class: status.qosClass when the server set it, else computed as the server does. */
export function qosClassOf(pod: ApiObject): QOSClass {
  const s = isObject(pod.status) ? pod.status.qosClass : undefined;
  if (s === 'Guaranteed' || s === 'Burstable' || s === 'BestEffort') return s;
  return podQOSClass(pod);
}

export interface PodResourceOptions {
  /** `--cpu-cfs-quota` (default true): false leaves quota unlimited. */
  readonly enforceCPULimits?: boolean;
  /** `--cpu-cfs-quota-period` in µs (default 100000). */
  readonly cpuPeriodUs?: number;
  /** `--pod-max-pids` (default -1: no limit written). */
  readonly podPidsLimit?: number;
}

/** kube's hugetlb file spelling of a page size resource (`hugepages-2Mi` → `2MB`). */
export function hugePageFileSize(resource: string): string | undefined {
  const m = /^hugepages-(\d+)(Ki|Mi|Gi)$/.exec(resource);
  if (!m) return undefined;
  return `${m[1]}${{ Ki: 'KB', Mi: 'MB', Gi: 'GB' }[m[2] as 'Ki' | 'Mi' | 'Gi']}`;
}

const containers = (pod: ApiObject): Record<string, unknown>[] => {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return Array.isArray(spec.containers) ? spec.containers.filter(isObject) : [];
};

const limitDeclared = (c: Record<string, unknown>, name: string): boolean => {
  const limits = isObject(c.resources) && isObject(c.resources.limits) ? c.resources.limits : {};
  const v = limits[name];
  return v !== undefined && v !== '0' && v !== 0;
};

export function podResourceConfig(pod: ApiObject, opts: PodResourceOptions = {}): ResourceConfig {
  const requests = podRequests(pod);
  const limits = podLimits(pod);
  const period = opts.cpuPeriodUs ?? DEFAULT_QUOTA_PERIOD_US;
  const shares = milliCPUToShares(milliValue(requests.cpu));
  const quota = opts.enforceCPULimits === false ? -1 : milliCPUToQuota(milliValue(limits.cpu), period);
  const memory = value(limits.memory);
  const cpuDeclared = containers(pod).every((c) => limitDeclared(c, 'cpu'));
  const memoryDeclared = containers(pod).every((c) => limitDeclared(c, 'memory'));
  const huge: Record<string, number> = {};
  for (const [k, q] of Object.entries(limits)) {
    const size = hugePageFileSize(k);
    if (size) huge[size] = value(q);
  }
  const pids = opts.podPidsLimit !== undefined && opts.podPidsLimit > 0 ? { pidsLimit: opts.podPidsLimit } : {};
  const hugePages = Object.keys(huge).length > 0 ? { hugePageLimits: huge } : {};
  switch (qosClassOf(pod)) {
    case 'Guaranteed':
      return { cpuShares: shares, cpuQuota: quota, cpuPeriod: period, memory, ...pids, ...hugePages };
    case 'Burstable':
      return {
        cpuShares: shares,
        ...(cpuDeclared ? { cpuQuota: quota, cpuPeriod: period } : {}),
        ...(memoryDeclared ? { memory } : {}),
        ...pids, ...hugePages,
      };
    case 'BestEffort':
      return { cpuShares: MIN_SHARES, ...pids, ...hugePages };
  }
}
