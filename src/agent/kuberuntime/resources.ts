// Container and sandbox resources → CRI LinuxContainerResources (kube's
// calculateLinuxResources and qos.GetContainerOOMScoreAdjust):
//   cpu shares   from the cpu request (the limit when only a limit is set), 1024 per cpu, at least 2
//   cfs quota    from the cpu limit over the period (--cpu-cfs-quota, --cpu-cfs-quota-period), at least 1000 µs
//   memory       the memory limit
//   oom_score_adj  Guaranteed -997, BestEffort 1000, Burstable 1000 - 1000·request/capacity within [3, 999]
// containerd on these machines runs with restrict_oom_score_adj: it raises a
// negative score to its own, so Guaranteed containers end up with the
// runtime's score; the kubelet still asks for -997.
import type { LinuxContainerResources } from '../cri/types.js';
import { quantityOf } from '../../api/meta/quantity.js';
import { podQOSClass } from '../../registry/strategies/podqos.js';
import type { ApiObject } from '../../registry/object.js';
import type { Container, Pod, ResourceList } from './types.js';

export const MIN_SHARES = 2;
export const MAX_SHARES = 262144;
export const SHARES_PER_CPU = 1024;
export const QUOTA_PERIOD_US = 100000;
export const MIN_QUOTA_PERIOD_US = 1000;
export const GUARANTEED_OOM_SCORE_ADJ = -997;
export const BESTEFFORT_OOM_SCORE_ADJ = 1000;
/** kube's scheduling.SystemCriticalPriority. */
export const SYSTEM_CRITICAL_PRIORITY = 2000000000;

export interface CpuQuotaOptions {
  /** --cpu-cfs-quota (default true). */
  readonly cpuCFSQuota: boolean;
  /** The CFS period in µs (--cpu-cfs-quota-period with the CPUCFSQuotaPeriod gate; 100000 otherwise). */
  readonly cpuCFSQuotaPeriodUs?: number;
}

const NANO = 1_000_000_000n;
/** A quantity's value in milli-units, rounded up (Quantity.MilliValue). */
export function milliValue(v: string | number | undefined): number {
  const q = quantityOf(v);
  if (!q) return 0;
  return Number((q.nanos + 999_999n) / 1_000_000n);
}
/** A quantity's value in units, rounded up (Quantity.Value). */
export function unitValue(v: string | number | undefined): number {
  const q = quantityOf(v);
  if (!q) return 0;
  return Number((q.nanos + NANO - 1n) / NANO);
}

export function milliCPUToShares(milliCPU: number): number {
  if (milliCPU === 0) return MIN_SHARES;
  const shares = Math.floor((milliCPU * SHARES_PER_CPU) / 1000);
  return Math.min(Math.max(shares, MIN_SHARES), MAX_SHARES);
}

export function milliCPUToQuota(milliCPU: number, periodUs: number): number {
  if (milliCPU === 0) return 0;
  return Math.max(Math.floor((milliCPU * periodUs) / 1000), MIN_QUOTA_PERIOD_US);
}

/** kube's calculateLinuxResources: `cpuRequest` undefined means no request was given. */
export function linuxResources(cpuRequest: string | number | undefined, cpuLimit: string | number | undefined, memoryLimit: string | number | undefined, opts: CpuQuotaOptions): { cpuShares: number; memoryLimitInBytes?: number; cpuQuota?: number; cpuPeriod?: number } {
  const limitMilli = milliValue(cpuLimit);
  const cpuShares = cpuRequest === undefined && limitMilli !== 0 ? milliCPUToShares(limitMilli) : milliCPUToShares(milliValue(cpuRequest));
  const out: { cpuShares: number; memoryLimitInBytes?: number; cpuQuota?: number; cpuPeriod?: number } = { cpuShares };
  const mem = unitValue(memoryLimit);
  if (mem !== 0) out.memoryLimitInBytes = mem;
  if (opts.cpuCFSQuota) {
    const period = opts.cpuCFSQuotaPeriodUs ?? QUOTA_PERIOD_US;
    out.cpuQuota = milliCPUToQuota(limitMilli, period);
    out.cpuPeriod = period;
  }
  return out;
}

/** Static and mirror pods and pods at system-critical priority (kube's IsCriticalPod). */
export function isCriticalPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
  if (source !== undefined && source !== 'api') return true;
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return true;
  return (pod.spec.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY;
}

export function oomScoreAdj(pod: Pod, container: Container, memoryCapacity: number): number {
  if (isCriticalPod(pod) && pod.spec.priorityClassName === 'system-node-critical') return GUARANTEED_OOM_SCORE_ADJ;
  const qos = podQOSClass(pod as unknown as ApiObject);
  if (qos === 'Guaranteed') return GUARANTEED_OOM_SCORE_ADJ;
  if (qos === 'BestEffort') return BESTEFFORT_OOM_SCORE_ADJ;
  const request = unitValue(container.resources?.requests?.memory);
  const adj = memoryCapacity > 0 ? 1000 - Math.floor((1000 * request) / memoryCapacity) : 1000;
  if (adj < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ;
  if (adj === BESTEFFORT_OOM_SCORE_ADJ) return adj - 1;
  return adj;
}

export interface ContainerResourceOptions extends CpuQuotaOptions {
  /** The machine's memory in bytes (for Burstable oom_score_adj). */
  readonly memoryCapacity: number;
}

/** A container's LinuxContainerResources (kube's generateLinuxContainerResources). */
export function containerResources(pod: Pod, container: Container, opts: ContainerResourceOptions): LinuxContainerResources {
  const req = container.resources?.requests ?? {};
  const lim = container.resources?.limits ?? {};
  const base = linuxResources('cpu' in req ? req.cpu : undefined, lim.cpu, lim.memory, opts);
  const hugepageLimits = Object.entries(lim)
    .filter(([k]) => k.startsWith('hugepages-'))
    .map(([k, v]) => ({ pageSize: hugePageSize(k.slice('hugepages-'.length)), limit: unitValue(v) }));
  return { ...base, oomScoreAdj: oomScoreAdj(pod, container, opts.memoryCapacity), ...(hugepageLimits.length > 0 ? { hugepageLimits } : {}) };
}

/** `2Mi` → `2MB`, `1Gi` → `1GB` (the cgroup file names CRI wants). */
function hugePageSize(q: string): string {
  const bytes = unitValue(q);
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && v % 1024 === 0 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v}${units[i]}`;
}

/** Sums of the pod's requests and limits without overhead (init containers count by their max). */
function podTotals(pod: Pod, key: 'requests' | 'limits', resource: string): { value: number; set: boolean } {
  let sum = 0;
  let set = false;
  for (const c of pod.spec.containers) {
    const v = (c.resources?.[key] as ResourceList | undefined)?.[resource];
    if (v !== undefined) {
      set = true;
      sum += resource === 'cpu' ? milliValue(v) : unitValue(v);
    }
  }
  for (const c of pod.spec.initContainers ?? []) {
    const v = (c.resources?.[key] as ResourceList | undefined)?.[resource];
    if (v !== undefined) {
      set = true;
      sum = Math.max(sum, resource === 'cpu' ? milliValue(v) : unitValue(v));
    }
  }
  return { value: sum, set };
}

/** The sandbox's resources and overhead (kube's calculateSandboxResources and convertOverheadToLinuxResources). */
export function sandboxResources(pod: Pod, opts: CpuQuotaOptions): { resources: LinuxContainerResources; overhead: LinuxContainerResources } {
  const cpuReq = podTotals(pod, 'requests', 'cpu');
  const cpuLim = podTotals(pod, 'limits', 'cpu');
  const memLim = podTotals(pod, 'limits', 'memory');
  const resources = linuxResources(`${cpuReq.value}m`, `${cpuLim.value}m`, memLim.value, opts);
  const o = pod.spec.overhead;
  const overhead = o ? linuxResources(o.cpu ?? 0, o.cpu ?? 0, o.memory ?? 0, opts) : {};
  return { resources, overhead };
}
