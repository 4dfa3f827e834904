// What the pod lifecycle (syncer.ts) needs from the agent's other parts —
// the runtime manager, volumes, probes, cgroups, mirror pods, events — as
// narrow ports; agent.ts joins them to the real parts.
import type { ApiObject } from '../../registry/object.js';

type Obj = Record<string, unknown>;

/** The runtime's view of one pod, in the API's shapes. */
export interface RuntimePodView {
  readonly initContainerStatuses: readonly Obj[];
  readonly containerStatuses: readonly Obj[];
  /** The sandbox's addresses; none when no sandbox is ready. */
  readonly podIPs: readonly string[];
}

/** Host paths of a pod's volumes, by volume name. */
export type VolumeMounts = ReadonlyMap<string, { readonly hostPath: string; readonly readOnly?: boolean }>;

export interface RuntimePort {
  /** The pod's containers and sandbox as the runtime reports them. */
  status(pod: ApiObject): Promise<RuntimePodView>;
  /** Brings the pod's sandbox and containers to what its spec asks (kube's SyncPod); when to look again. */
  sync(pod: ApiObject, env: { readonly mounts: VolumeMounts; readonly cgroupParent: string }): Promise<{ readonly requeueMs?: number }>;
  /** Stops every container (preStop hooks, the grace period) and the sandbox. */
  kill(pod: ApiObject, gracePeriodSeconds: number): Promise<void>;
  /** Removes the containers, sandboxes and log folders of a pod UID (the pod left the agent). */
  remove(uid: string): Promise<void>;
  /** UIDs of every pod the runtime has sandboxes or containers of. */
  podUids(): Promise<readonly string[]>;
}

export interface VolumePort {
  mount(pod: ApiObject): Promise<VolumeMounts>;
  unmount(pod: ApiObject): Promise<void>;
}

export interface ProbePort {
  add(pod: ApiObject): void;
  remove(pod: ApiObject): void;
  /** The container statuses with `ready` and `started` as the probes say. */
  apply(pod: ApiObject, statuses: readonly Obj[]): Obj[];
}

export interface CgroupPort {
  /** Makes the pod's cgroup; the cgroupParent for its sandbox. */
  ensure(pod: ApiObject): Promise<string>;
  remove(pod: ApiObject): Promise<void>;
}

/** Where a static pod's status goes: its mirror pod (made when missing). */
export interface MirrorPort {
  isStatic(pod: ApiObject): boolean;
  /** The mirror pod (created or recreated as needed); undefined while it cannot be made. */
  ensure(pod: ApiObject): Promise<ApiObject | undefined>;
  remove(pod: ApiObject): Promise<void>;
}

export type EventType = 'Normal' | 'Warning';

export interface EventPort {
  record(pod: ApiObject, type: EventType, reason: string, message: string): void;
}
