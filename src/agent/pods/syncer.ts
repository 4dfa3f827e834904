// One pod's lifecycle steps (kube's Kubelet.SyncPod, SyncTerminatingPod and
// SyncTerminatedPod), driven by the pod workers:
//
//   sync        status from the runtime's view (+ probes) → status manager;
//               a refused or terminal pod stops here; else the pod's cgroup,
//               its mirror pod (static pods), its volumes (a failure is a
//               FailedMount event and a retry), then the runtime's SyncPod
//   terminating probes off, containers stopped with the grace period, the
//               final status
//   terminated  volumes unmounted, the cgroup removed; the status manager
//               may now delete a pod marked for deletion
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import { rfc3339 } from '../../controllers/events/clock.js';
import type { CgroupPort, EventPort, MirrorPort, ProbePort, RuntimePort, RuntimePodView, VolumePort } from './ports.js';
import { podStatus } from './status.js';
import type { StatusManager, StatusTarget } from './statusmanager.js';
import type { PodSyncer, SyncOutcome } from './workers.js';

export interface Rejection {
  readonly reason: string;
  readonly message: string;
}

export interface SyncerDeps {
  readonly runtime: RuntimePort;
  readonly volumes: VolumePort;
  readonly probes: ProbePort;
  readonly cgroups: CgroupPort;
  readonly mirrors: MirrorPort;
  readonly events: EventPort;
  readonly status: StatusManager;
  /** The node's address (status.hostIP). */
  readonly hostIP: () => string;
  /** Why the agent refused a pod at admission, if it did. */
  readonly rejection: (uid: string) => Rejection | undefined;
  readonly now?: () => number;
  /** How soon to retry a pod whose volumes could not be mounted. */
  readonly mountRetryMs?: number;
}

const DEFAULT_GRACE_S = 30;

export class PodLifecycle implements PodSyncer {
  constructor(private readonly d: SyncerDeps) {}

  async syncPod(pod: ApiObject): Promise<SyncOutcome> {
    const uid = pod.metadata.uid ?? '';
    const rejected = this.d.rejection(uid);
    const view = rejected ? EMPTY_VIEW : await this.d.runtime.status(pod);
    const target = await this.target(pod, !rejected);
    const status = this.statusOf(pod, view, { failure: rejected });
    if (target) this.d.status.setPodStatus(uid, target.to, status, target.mirror);
    if (rejected || status.phase === 'Succeeded' || status.phase === 'Failed') return { terminal: true };
    const cgroupParent = await this.d.cgroups.ensure(pod);
    let mounts;
    try {
      mounts = await this.d.volumes.mount(pod);
    } catch (err) {
      // one event per volume that failed (kube's), else the whole message
      const texts = (err as { events?: unknown }).events;
      for (const text of Array.isArray(texts) && texts.length > 0 ? texts.map(String) : [(err as Error).message]) this.d.events.record(pod, 'Warning', 'FailedMount', text);
      return { requeueMs: this.d.mountRetryMs ?? 2000 };
    }
    const out = await this.d.runtime.sync(pod, { mounts, cgroupParent });
    this.d.probes.add(pod);
    return { requeueMs: out.requeueMs };
  }

  async syncTerminatingPod(pod: ApiObject, gracePeriodSeconds: number | undefined): Promise<void> {
    this.d.probes.remove(pod);
    await this.d.runtime.kill(pod, gracePeriodSeconds ?? graceOf(pod));
    const view = await this.d.runtime.status(pod);
    const target = await this.target(pod, false);
    const rejected = this.d.rejection(pod.metadata.uid ?? '');
    if (target) this.d.status.setPodStatus(pod.metadata.uid ?? '', target.to, this.statusOf(pod, view, { terminal: true, failure: rejected }), target.mirror);
  }

  async syncTerminatedPod(pod: ApiObject): Promise<void> {
    await this.d.volumes.unmount(pod);
    await this.d.cgroups.remove(pod);
    this.d.status.markFinished(pod.metadata.uid ?? '');
  }

  private statusOf(pod: ApiObject, view: RuntimePodView, opts: { terminal?: boolean; failure?: Rejection }): Record<string, unknown> {
    const now = rfc3339((this.d.now ?? Date.now)());
    return podStatus(pod, {
      initContainerStatuses: view.initContainerStatuses.map(initReady),
      containerStatuses: this.d.probes.apply(pod, view.containerStatuses),
      podIPs: view.podIPs,
      hostIP: this.d.hostIP(),
      terminal: opts.terminal,
      failure: opts.failure ? { reason: opts.failure.reason, message: `Pod was rejected: ${opts.failure.message}` } : undefined,
    }, now);
  }

  /** Where the status goes: the pod, or a static pod's mirror pod (made when `ensure`). */
  private async target(pod: ApiObject, ensure: boolean): Promise<{ to: StatusTarget; mirror: boolean } | undefined> {
    if (!this.d.mirrors.isStatic(pod)) {
      return { to: { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' }, mirror: false };
    }
    const mirror = ensure ? await this.d.mirrors.ensure(pod) : undefined;
    if (!mirror) return undefined;
    return { to: { namespace: mirror.metadata.namespace ?? '', name: mirror.metadata.name ?? '', uid: mirror.metadata.uid ?? '' }, mirror: true };
  }
}

/** An init container is ready once it terminated with exit code 0 (kube's prober manager UpdatePodStatus). */
function initReady(s: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const terminated = (s.state as { terminated?: { exitCode?: number } | null } | undefined)?.terminated;
  return { ...s, ready: terminated !== undefined && terminated !== null && terminated.exitCode === 0 };
}

const EMPTY_VIEW: RuntimePodView = { initContainerStatuses: [], containerStatuses: [], podIPs: [] };

/** The grace period of a kill: the deletion's, else the pod's terminationGracePeriodSeconds (default 30). */
export function graceOf(pod: ApiObject): number {
  const d = pod.metadata.deletionGracePeriodSeconds;
  if (typeof d === 'number') return d;
  const spec = isObject(pod.spec) ? pod.spec : {};
  return typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : DEFAULT_GRACE_S;
}
