// The API's container statuses from the runtime's (kube's
// convertToAPIContainerStatuses), for init containers and containers apart:
//   every spec container starts as waiting ContainerCreating (PodInitializing
//   when the pod has init containers), keeping the old restartCount and
//   lastState; a terminated old status is kept as is
//   the newest instance gives state, the one before it lastState
//   a container that was running and is gone: lastState terminated
//   ContainerStatusUnknown (137)
//   a container the next sync will start shows the reason of its last failed
//   start (CrashLoopBackOff, ErrImagePull, …) from the reason cache
// Times are RFC 3339 in whole seconds, as metav1.Time writes them.
import { shouldContainerBeRestarted } from './actions.js';
import type { RuntimeContainerStatus, RuntimePodStatus } from './podstatus.js';
import { findContainer } from './podstatus.js';
import type { SyncResult } from './manager.js';
import type { Container, Pod } from './types.js';
import { rfc3339 } from '../../api/meta/time.js';

type Obj = Record<string, unknown>;

export const CONTAINER_CREATING = 'ContainerCreating';
export const POD_INITIALIZING = 'PodInitializing';

/** The last failed start of each container, per pod (kube's ReasonCache, without its LRU bound: entries go with the pod). */
export class ReasonCache {
  private readonly byPod = new Map<string, Map<string, { reason: string; message: string }>>();

  /** Records a sync's start results: failures replace, successes clear. */
  update(uid: string, result: SyncResult): void {
    for (const s of result.steps) {
      if (s.action !== 'StartContainer' && s.action !== 'InitContainer') continue;
      let m = this.byPod.get(uid);
      if (s.error !== undefined) {
        if (!m) this.byPod.set(uid, (m = new Map()));
        m.set(s.target, { reason: s.error, message: s.message ?? '' });
      } else m?.delete(s.target);
    }
  }

  get(uid: string, name: string): { reason: string; message: string } | undefined {
    return this.byPod.get(uid)?.get(name);
  }

  remove(uid: string): void {
    this.byPod.delete(uid);
  }
}

export const apiTime = (ms: number): string | null => (ms > 0 ? rfc3339(ms) : null);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const stateOf = (s: Obj | undefined, k: 'running' | 'terminated' | 'waiting'): Obj | undefined => (isObj(s?.state) && isObj((s!.state as Obj)[k]) ? ((s!.state as Obj)[k] as Obj) : undefined);

function convert(cs: RuntimeContainerStatus, old: Obj | undefined): Obj {
  const status: Obj = { name: cs.name, state: {}, lastState: {}, ready: false, restartCount: cs.restartCount, image: cs.image, imageID: cs.imageID, containerID: cs.containerID };
  switch (cs.state) {
    case 'running':
      status.state = { running: { startedAt: apiTime(cs.startedAt) } };
      break;
    case 'exited':
      status.state = { terminated: { exitCode: cs.exitCode, reason: cs.reason, message: cs.message, startedAt: apiTime(cs.startedAt), finishedAt: apiTime(cs.finishedAt), containerID: cs.containerID } };
      break;
    case 'unknown':
      if (stateOf(old, 'running')) {
        status.state = { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137, startedAt: null, finishedAt: null } };
        status.restartCount = Number(old!.restartCount ?? 0) + 1;
        break;
      }
      status.state = { waiting: {} };
      break;
    default:
      status.state = { waiting: {} };
  }
  return status;
}

export interface ConvertArgs {
  readonly pod: Pod;
  readonly runtime: RuntimePodStatus;
  /** The statuses the API has now (pod.status.containerStatuses or initContainerStatuses). */
  readonly old: readonly Obj[];
  readonly init: boolean;
  readonly reasons: ReasonCache;
}

export function apiContainerStatuses(a: ConvertArgs): Obj[] {
  const { pod, runtime } = a;
  const containers: readonly Container[] = a.init ? pod.spec.initContainers ?? [] : pod.spec.containers;
  const hasInit = (pod.spec.initContainers ?? []).length > 0;
  const defaultReason = hasInit ? POD_INITIALIZING : CONTAINER_CREATING;
  const olds = new Map(a.old.filter((s) => typeof s.name === 'string').map((s) => [s.name as string, s]));
  const statuses = new Map<string, Obj>();
  for (const c of containers) {
    let status: Obj = { name: c.name, state: { waiting: { reason: defaultReason } }, lastState: {}, ready: false, restartCount: 0, image: c.image ?? '', imageID: '' };
    const old = olds.get(c.name);
    if (old) {
      if (stateOf(old, 'terminated')) status = structuredClone(old);
      else status = { ...status, restartCount: old.restartCount ?? 0, lastState: structuredClone(old.lastState ?? {}) };
    }
    statuses.set(c.name, status);
  }
  for (const c of containers) {
    if (runtime.containers.some((s) => s.name === c.name && s.state === 'created')) continue;
    const old = olds.get(c.name);
    if (!old || stateOf(old, 'terminated') || !stateOf(old, 'running')) continue;
    const status = statuses.get(c.name)!;
    if (stateOf(status, 'waiting')?.reason !== defaultReason) continue;
    if (stateOf(status as Obj & { state: unknown }, 'terminated') || (isObj(status.lastState) && isObj(status.lastState.terminated))) continue;
    status.lastState = { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was deleted.  The container used to be Running', exitCode: 137, startedAt: null, finishedAt: null } };
    if (!pod.metadata.deletionTimestamp) status.restartCount = Number(status.restartCount ?? 0) + 1;
  }
  const seen = new Map<string, number>();
  for (const cs of runtime.containers) {
    if (!statuses.has(cs.name)) continue;
    const n = seen.get(cs.name) ?? 0;
    if (n >= 2) continue;
    const converted = convert(cs, olds.get(cs.name));
    if (n === 0) statuses.set(cs.name, converted);
    else statuses.get(cs.name)!.lastState = converted.state;
    seen.set(cs.name, n + 1);
  }
  for (const c of containers) {
    if (a.init) {
      const s = findContainer(runtime, c.name);
      if (s && s.state === 'exited' && s.exitCode === 0) continue;
    }
    if (!shouldContainerBeRestarted(c, pod, runtime)) continue;
    const reason = a.reasons.get(pod.metadata.uid, c.name);
    if (!reason) continue;
    const status = statuses.get(c.name)!;
    if (isObj(status.state) && isObj(status.state.terminated)) status.lastState = status.state;
    status.state = { waiting: { reason: reason.reason, message: reason.message } };
  }
  if (a.init) return containers.map((c) => statuses.get(c.name)!);
  return [...statuses.values()].sort((x, y) => (String(x.name) < String(y.name) ? -1 : String(x.name) > String(y.name) ? 1 : 0));
}
