// What a DaemonSet wants done on one node (kube's podsShouldBeOnNode), from
// the node's placement and the daemon pods there:
//
//   should run, no pod              → create one
//   may keep running                → failed pods deleted (once per back-off
//                                     step: FailedDaemonPod), succeeded ones
//                                     deleted (SucceededDaemonPod); of the
//                                     pods left, without surge all but the
//                                     oldest go; with surge an old and a new
//                                     pod may share the node until the new
//                                     one is available (or the old one is
//                                     not ready), the rest go; no pod left
//                                     and should run → create one
//   may not keep running, pods there → delete them all
//
// Pure but for the back-off it advances; the caller creates, deletes and
// records the events.
import type { ApiObject } from '../../registry/object.js';
import { isPodAvailable, isPodReady, nodeNameOf, phaseOf } from '../replicaset/pods.js';
import type { Backoff } from './backoff.js';
import type { Placement } from './placement.js';
import { REVISION_HASH_LABEL } from './podtemplate.js';

export interface NodeEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface NodeDecision {
  readonly create: boolean;
  readonly deletePods: string[];
  readonly events: NodeEvent[];
  /** Sync again after this delay: a failed pod waits out its back-off. */
  readonly retryAfterMs?: number;
}

export interface NodeInput {
  readonly nodeName: string;
  readonly placement: Placement;
  /** The DaemonSet's pods targeting the node (undefined: none). */
  readonly pods: readonly ApiObject[] | undefined;
  readonly hash: string;
  /** maxSurge > 0 (kube's AllowsSurge). */
  readonly surge: boolean;
  readonly minReadySeconds: number;
  readonly now: number;
  readonly backoff: Backoff;
  /** kube's failedPodsBackoffKey: `<uid>/<observedGeneration>/<node>`. */
  readonly backoffKey: string;
}

const created = (p: ApiObject) => (p.metadata.creationTimestamp ? Date.parse(p.metadata.creationTimestamp) : 0);

/** kube's podByCreationTimestampAndPhase: bound pods first, then the oldest, then by name. */
export function compareByCreation(a: ApiObject, b: ApiObject): number {
  const ba = nodeNameOf(a) !== '';
  const bb = nodeNameOf(b) !== '';
  if (ba !== bb) return ba ? -1 : 1;
  const d = created(a) - created(b);
  if (d !== 0) return d;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

export function podsShouldBeOnNode(n: NodeInput): NodeDecision {
  const { shouldRun, shouldContinueRunning } = n.placement;
  const deletePods: string[] = [];
  const events: NodeEvent[] = [];
  let retryAfterMs: number | undefined;
  const pods = n.pods ?? [];
  const done = (create: boolean): NodeDecision => ({ create, deletePods, events, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

  if (shouldRun && n.pods === undefined) return done(true);
  if (!shouldContinueRunning) {
    for (const p of pods) if (!p.metadata.deletionTimestamp) deletePods.push(p.metadata.name!);
    return done(false);
  }

  const running: ApiObject[] = [];
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    const ref = `${p.metadata.namespace}/${p.metadata.name}`;
    if (phaseOf(p) === 'Failed') {
      if (n.backoff.inBackoffSinceUpdate(n.backoffKey, n.now)) {
        retryAfterMs = n.backoff.get(n.backoffKey);
        continue;
      }
      n.backoff.next(n.backoffKey, n.now);
      events.push({ type: 'Warning', reason: 'FailedDaemonPod', message: `Found failed daemon pod ${ref} on node ${n.nodeName}, will try to kill it` });
      deletePods.push(p.metadata.name!);
    } else if (phaseOf(p) === 'Succeeded') {
      events.push({ type: 'Normal', reason: 'SucceededDaemonPod', message: `Found succeeded daemon pod ${ref} on node ${n.nodeName}, will try to delete it` });
      deletePods.push(p.metadata.name!);
    } else {
      running.push(p);
    }
  }
  running.sort(compareByCreation);

  if (!n.surge) {
    // more than one: all but the oldest go (none left: the next sync creates one)
    for (const p of running.slice(1)) deletePods.push(p.metadata.name!);
    return done(false);
  }
  if (running.length <= 1) return done(running.length === 0 && shouldRun);

  let oldestNew: ApiObject | undefined;
  let oldestOld: ApiObject | undefined;
  for (const p of running) {
    const isNew = p.metadata.labels?.[REVISION_HASH_LABEL] === n.hash;
    if (isNew && !oldestNew) oldestNew = p;
    else if (!isNew && !oldestOld) oldestOld = p;
    else deletePods.push(p.metadata.name!);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, n.minReadySeconds, n.now))) {
    deletePods.push(oldestOld.metadata.name!);
  }
  return done(false);
}
