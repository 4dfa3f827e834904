// The containers' statuses as the API shows them (kube's
// convertToAPIContainerStatuses, v1.27): every container of the spec starts
// as waiting (ContainerCreating, or PodInitializing behind init containers),
// the newest runtime instance gives the state and the one before it the
// lastState, a container whose last start failed or that waits for its
// back-off shows the reason of the failure (ErrImagePull, CrashLoopBackOff,
// CreateContainerConfigError, …) from the reason cache, and a container seen
// running that the runtime lost is terminated with 137 ContainerStatusUnknown.
import { isObject, type ApiObject } from '../../registry/object.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One container instance as the runtime reports it (times in ms since the epoch, 0 = not yet). */
export interface InstanceStatus {
  readonly name: string;
  readonly state: 'created' | 'running' | 'exited' | 'unknown';
  readonly containerID: string;
  readonly createdAt: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly exitCode: number;
  readonly image: string;
  readonly imageID: string;
  readonly restartCount: number;
  readonly reason: string;
  readonly message: string;
}

/** Why a container's last start failed (kube's reasonCache entry). */
export interface StartFailure {
  readonly reason: string;
  readonly message: string;
}

/** kube's ReasonCache: the last start failure of each container of each pod, cleared by a successful start. */
export class ReasonCache {
  private readonly entries = new Map<string, StartFailure>();
  private key = (uid: string, name: string) => `${uid}/${name}`;
  set(uid: string, name: string, failure: StartFailure): void {
    this.entries.set(this.key(uid, name), failure);
  }
  clear(uid: string, name: string): void {
    this.entries.delete(this.key(uid, name));
  }
  get(uid: string, name: string): StartFailure | undefined {
    return this.entries.get(this.key(uid, name));
  }
  forget(uid: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(`${uid}/`)) this.entries.delete(k);
  }
}

const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** kube's convertContainerStatus: one runtime instance as an API state. */
function stateOf(cs: InstanceStatus, old: Obj | undefined): Obj {
  switch (cs.state) {
    case 'running':
      return { running: { startedAt: rfc3339(cs.startedAt) } };
    case 'exited':
      return {
        terminated: {
          exitCode: cs.exitCode,
          ...(cs.reason ? { reason: cs.reason } : {}),
          ...(cs.message ? { message: cs.message } : {}),
          startedAt: cs.startedAt ? rfc3339(cs.startedAt) : null,
          finishedAt: cs.finishedAt ? rfc3339(cs.finishedAt) : null,
          containerID: cs.containerID,
        },
      };
    case 'unknown':
      if (old && isObject(obj(old.state).running)) return lostState();
      return { waiting: {} };
    default:
      return { waiting: {} };
  }
}

const lostState = (): Obj => ({
  terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', startedAt: null, finishedAt: null },
});

export interface ConvertOptions {
  /** Whether the runtime manager will restart this container at the next sync (kube's ShouldContainerBeRestarted). */
  readonly willRestart: (container: Obj) => boolean;
  readonly reasons: ReasonCache;
  /** The pod is stopping for good: a lost container is not waited for. */
  readonly terminal?: boolean;
}

/** The API statuses of the spec's containers (`init`: the init containers, in spec order; else sorted by name). */
export function apiContainerStatuses(pod: ApiObject, instances: readonly InstanceStatus[], init: boolean, opts: ConvertOptions): Obj[] {
  const spec = obj(pod.spec);
  const containers = list(init ? spec.initContainers : spec.containers);
  const oldStatuses = new Map(list(obj(pod.status)[init ? 'initContainerStatuses' : 'containerStatuses']).map((s) => [str(s.name), s]));
  const hasInit = list(spec.initContainers).length > 0;
  const uid = pod.metadata.uid ?? '';
  const statuses = new Map<string, Obj>();
  for (const c of containers) {
    const name = str(c.name);
    const old = oldStatuses.get(name);
    let status: Obj = { name, image: str(c.image), imageID: '', ready: false, restartCount: 0, started: false, state: { waiting: { reason: hasInit && !init ? 'PodInitializing' : 'ContainerCreating' } }, lastState: {} };
    if (old) {
      if (isObject(obj(old.state).terminated)) status = { ...old };
      else status = { ...status, restartCount: typeof old.restartCount === 'number' ? old.restartCount : 0, lastState: old.lastState ?? {} };
      if (isObject(obj(old.state).running) && opts.terminal && !instances.some((i) => i.name === name)) status = { ...status, state: lostState() };
    }
    statuses.set(name, status);
  }
  const seen = new Map<string, number>();
  for (const cs of [...instances].sort((a, b) => b.createdAt - a.createdAt)) {
    const current = statuses.get(cs.name);
    if (!current) continue;
    const n = seen.get(cs.name) ?? 0;
    if (n >= 2) continue;
    const state = stateOf(cs, oldStatuses.get(cs.name));
    if (n === 0) {
      statuses.set(cs.name, {
        name: cs.name, state, lastState: {}, ready: false, restartCount: cs.restartCount, image: cs.image || str(current.image),
        imageID: cs.imageID, containerID: cs.containerID, started: cs.state === 'running',
      });
    } else {
      statuses.set(cs.name, { ...statuses.get(cs.name)!, lastState: state });
    }
    seen.set(cs.name, n + 1);
  }
  for (const c of containers) {
    const name = str(c.name);
    if (init) {
      const newest = [...instances].filter((i) => i.name === name).sort((a, b) => b.createdAt - a.createdAt)[0];
      if (newest && newest.state === 'exited' && newest.exitCode === 0) continue;
    }
    if (!opts.willRestart(c)) continue;
    const failure = opts.reasons.get(uid, name);
    if (!failure) continue;
    const status = statuses.get(name)!;
    const lastState = isObject(obj(status.state).terminated) ? status.state : status.lastState;
    statuses.set(name, { ...status, lastState, state: { waiting: { reason: failure.reason, ...(failure.message ? { message: failure.message } : {}) } } });
  }
  const out = containers.map((c) => statuses.get(str(c.name))!);
  return init ? out : out.sort((a, b) => (str(a.name) < str(b.name) ? -1 : str(a.name) > str(b.name) ? 1 : 0));
}
