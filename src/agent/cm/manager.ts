// The node's cgroups for pods (kube's container manager on the cgroupfs
// driver, cgroup v1):
//
//   <cgroup-root>/kubepods                     node allocatable: cpu.shares and memory limit of
//   │                                          capacity − reserved (when "pods" is enforced)
//   ├── pod<uid>                               Guaranteed pods
//   ├── burstable          cpu.shares = Σ cpu requests of burstable pods
//   │   └── pod<uid>
//   └── besteffort         cpu.shares = 2
//       └── pod<uid>
//
// A pod's cgroup is its sandbox's cgroupParent (what kuberuntime passes to CRI),
// made with the pod's resource values before the sandbox starts and removed
// after the pod is gone. Without --cgroups-per-qos every pod's parent is the
// cgroup root and no pod cgroups are made. The reserved cgroups
// (--system-reserved-cgroup, --svc-reserved-cgroup) get their limits when
// --enforce-node-allocatable names them.
import { posix } from 'node:path';
import type { Quantity } from '../../api/meta/quantity.js';
import { podRequests } from '../../quota/evaluators/podresources.js';
import { parseResourceList } from '../../quota/resources.js';
import type { ApiObject } from '../../registry/object.js';
import { CgroupError, type CgroupFs, type ResourceConfig } from './cgroupfs.js';
import { hugePageFileSize, milliCPUToShares, milliValue, MIN_SHARES, podResourceConfig, qosClassOf, value, type PodResourceOptions } from './resources.js';

export const KUBEPODS = 'kubepods';
const QOS_DIRS = { Burstable: 'burstable', BestEffort: 'besteffort', Guaranteed: '' } as const;
const ENFORCEMENTS = ['none', 'pods', 'system-reserved', 'svc-reserved'] as const;

export class CgroupConfigError extends Error {
  override readonly name = 'CgroupConfigError';
}

export interface ContainerManagerOptions extends PodResourceOptions {
  readonly fs: CgroupFs;
  /** `--cgroup-root` (default '/'). */
  readonly cgroupRoot?: string;
  /** `--cgroups-per-qos` (default true). */
  readonly cgroupsPerQOS?: boolean;
  /** `--enforce-node-allocatable` (default ['pods']). */
  readonly enforceNodeAllocatable?: readonly string[];
  /** The node's capacity (cpu, memory, hugepages-*); `pid` is pid_max. */
  readonly capacity: Readonly<Record<string, Quantity>>;
  readonly svcReserved?: Readonly<Record<string, string>>;
  readonly systemReserved?: Readonly<Record<string, string>>;
  readonly svcReservedCgroup?: string;
  readonly systemReservedCgroup?: string;
}

/** The cgroup values of a resource list (kube's getCgroupConfig). */
export function cgroupConfigOf(l: Readonly<Record<string, Quantity>>): ResourceConfig {
  const huge: Record<string, number> = {};
  for (const [k, q] of Object.entries(l)) {
    const size = hugePageFileSize(k);
    if (size) huge[size] = value(q);
  }
  return {
    ...(l.cpu ? { cpuShares: milliCPUToShares(milliValue(l.cpu)) } : {}),
    ...(l.memory ? { memory: value(l.memory) } : {}),
    ...(l.pid ? { pidsLimit: value(l.pid) } : {}),
    ...(Object.keys(huge).length > 0 ? { hugePageLimits: huge } : {}),
  };
}

export class ContainerManager {
  private readonly root: string;
  private readonly perQOS: boolean;
  private readonly enforce: ReadonlySet<string>;

  constructor(private readonly o: ContainerManagerOptions) {
    this.root = posix.normalize(`/${o.cgroupRoot ?? '/'}`);
    this.perQOS = o.cgroupsPerQOS ?? true;
    this.enforce = new Set(o.enforceNodeAllocatable ?? ['pods']);
    this.validate();
  }

  private validate(): void {
    for (const e of this.enforce) {
      if (!(ENFORCEMENTS as readonly string[]).includes(e)) {
        throw new CgroupConfigError(`invalid configuration: option ${JSON.stringify(e)} specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "svc-reserved", or "none"`);
      }
    }
    if (this.enforce.has('none') && this.enforce.size > 1) {
      throw new CgroupConfigError('invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified');
    }
    if (this.enforce.has('system-reserved') && !this.o.systemReservedCgroup) {
      throw new CgroupConfigError('invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)');
    }
    if (this.enforce.has('svc-reserved') && !this.o.svcReservedCgroup) {
      throw new CgroupConfigError('invalid configuration: svcReservedCgroup (--svc-reserved-cgroup) must be specified when "svc-reserved" contained in enforceNodeAllocatable (--enforce-node-allocatable)');
    }
  }

  private path(...parts: string[]): string {
    return posix.join(this.root, ...parts.filter(Boolean));
  }

  /** `<root>/kubepods` (or the root without --cgroups-per-qos). */
  get podsCgroup(): string {
    return this.perQOS ? this.path(KUBEPODS) : this.root;
  }

  /** The node allocatable cgroup's values: capacity less the reservations when "pods" is enforced. */
  nodeAllocatableConfig(): ResourceConfig {
    const cap = this.o.capacity;
    if (!this.enforce.has('pods')) return cgroupConfigOf(cap);
    const reserved = [this.o.svcReserved, this.o.systemReserved].map((l) => parseResourceList(l ?? {}));
    const out: Record<string, Quantity> = {};
    for (const [k, q] of Object.entries(cap)) {
      const v = reserved.reduce((n, l) => n - (l[k]?.nanos ?? 0n), q.nanos);
      out[k] = { nanos: v < 0n ? 0n : v, format: q.format };
    }
    return cgroupConfigOf(out);
  }

  /** Creates the node allocatable and QoS cgroups, and limits the reserved cgroups that are enforced; `onEvent` hears kube's NodeAllocatableEnforced. */
  start(onEvent?: (e: { type: 'Normal'; reason: string; message: string }) => void): void {
    if (!this.o.fs.exists(this.root)) throw new CgroupConfigError(`invalid configuration: cgroup-root ${JSON.stringify(this.root)} doesn't exist`);
    if (this.perQOS) {
      this.o.fs.create(this.podsCgroup, this.nodeAllocatableConfig());
      this.o.fs.create(this.path(KUBEPODS, QOS_DIRS.Burstable), { cpuShares: MIN_SHARES });
      this.o.fs.create(this.path(KUBEPODS, QOS_DIRS.BestEffort), { cpuShares: MIN_SHARES });
    }
    const reservedCgroups: [string, string | undefined, Readonly<Record<string, string>> | undefined][] = [
      ['system-reserved', this.o.systemReservedCgroup, this.o.systemReserved],
      ['svc-reserved', this.o.svcReservedCgroup, this.o.svcReserved],
    ];
    for (const [name, cgroup, list] of reservedCgroups) {
      if (!this.enforce.has(name) || !cgroup) continue;
      if (!this.o.fs.exists(cgroup)) throw new CgroupConfigError(`${JSON.stringify(cgroup)} cgroup does not exist`);
      this.o.fs.update(cgroup, cgroupConfigOf(parseResourceList(list ?? {})));
    }
    if (this.perQOS && this.enforce.has('pods')) onEvent?.({ type: 'Normal', reason: 'NodeAllocatableEnforced', message: 'Updated Node Allocatable limit across pods' });
  }

  /** The pod's cgroup: the sandbox's cgroupParent. */
  podCgroup(pod: ApiObject): string {
    if (!this.perQOS) return this.root;
    return this.path(KUBEPODS, QOS_DIRS[qosClassOf(pod)], `pod${pod.metadata.uid ?? ''}`);
  }

  /** Makes the pod's cgroup with its resource values when missing (kube's EnsureExists); returns the cgroupParent. */
  ensurePod(pod: ApiObject): string {
    const cgroup = this.podCgroup(pod);
    if (!this.perQOS) return cgroup;
    if (!pod.metadata.uid) throw new CgroupError('a pod without a UID has no cgroup');
    if (!this.o.fs.exists(cgroup)) this.o.fs.create(cgroup, podResourceConfig(pod, this.o));
    return cgroup;
  }

  /** Sets the QoS cgroups from the pods that are active (kube's UpdateCgroups): burstable shares = their cpu requests. */
  updateQOSCgroups(activePods: readonly ApiObject[]): void {
    if (!this.perQOS) return;
    let milli = 0;
    for (const p of activePods) {
      if (qosClassOf(p) !== 'Burstable') continue;
      milli += milliValue(podRequests(p).cpu);
    }
    this.o.fs.update(this.path(KUBEPODS, QOS_DIRS.Burstable), { cpuShares: milliCPUToShares(milli) });
    this.o.fs.update(this.path(KUBEPODS, QOS_DIRS.BestEffort), { cpuShares: MIN_SHARES });
  }

  /** Pod cgroups on disk: UID → cgroup. */
  podCgroups(): Map<string, string> {
    const out = new Map<string, string>();
    if (!this.perQOS) return out;
    for (const qos of ['', QOS_DIRS.Burstable, QOS_DIRS.BestEffort]) {
      const parent = this.path(KUBEPODS, qos);
      for (const name of this.o.fs.children(parent)) if (name.startsWith('pod')) out.set(name.slice(3), posix.join(parent, name));
    }
    return out;
  }

  /** Removes a pod's cgroup (its containers must be gone); false when it had none. */
  removePod(uid: string): boolean {
    const cgroup = this.podCgroups().get(uid);
    if (!cgroup) return false;
    this.o.fs.destroy(cgroup);
    return true;
  }

  /** Removes the cgroups of pods no longer active that hold no process (kube's cleanupOrphanedPodCgroups); the UIDs removed. */
  cleanupOrphans(activeUIDs: ReadonlySet<string>): string[] {
    const removed: string[] = [];
    for (const [uid, cgroup] of this.podCgroups()) {
      if (activeUIDs.has(uid) || this.o.fs.pids(cgroup).length > 0) continue;
      this.o.fs.destroy(cgroup);
      removed.push(uid);
    }
    return removed;
  }
}
