// A Deployment's status from its ReplicaSets (kube's calculateStatus and
// syncRolloutStatus): counts summed over the ReplicaSets, Available by
// minimum availability, and — with a progress deadline — Progressing:
// NewReplicaSetAvailable once complete, ReplicaSetUpdated while replicas
// move, ProgressDeadlineExceeded once nothing moved for
// progressDeadlineSeconds; a ReplicaSet's ReplicaFailure copied up.
import type { ApiObject } from '../../registry/object.js';
import {
  AVAILABLE, Message, PROGRESSING, REPLICA_FAILURE, Reason, getCondition, newCondition, removeCondition, setCondition,
  type DeploymentCondition,
} from './conditions.js';
import { desiredReplicas, maxUnavailable, totalAvailable, totalReady, totalSpecReplicas, totalStatusReplicas } from './replicas.js';

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

/** Go's int32 max: progressDeadlineSeconds of MaxInt32 means no deadline. */
const MAX_INT32 = 2147483647;

export const statusOf = (d: ApiObject): DeploymentStatus => (d.status ?? {}) as DeploymentStatus;
const progressDeadline = (d: ApiObject) => ((d.spec ?? {}) as { progressDeadlineSeconds?: number }).progressDeadlineSeconds;

export function hasProgressDeadline(d: ApiObject): boolean {
  const s = progressDeadline(d);
  return s !== undefined && s !== null && s !== MAX_INT32;
}

/** The status counts and Available (kube's calculateStatus); conditions copied from the current status. */
export function calculateStatus(d: ApiObject, allRSs: readonly (ApiObject | undefined)[], newRS: ApiObject | undefined, now = Date.now()): DeploymentStatus {
  const available = totalAvailable(allRSs);
  const unavailable = Math.max(0, totalSpecReplicas(allRSs) - available);
  const current = statusOf(d);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: totalStatusReplicas(allRSs),
    updatedReplicas: totalStatusReplicas([newRS]),
    readyReplicas: totalReady(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
    ...(current.collisionCount !== undefined ? { collisionCount: current.collisionCount } : {}),
    conditions: (current.conditions ?? []).map((c) => ({ ...c })),
  };
  status.conditions = available >= desiredReplicas(d) - maxUnavailable(d)
    ? setCondition(status.conditions, newCondition(AVAILABLE, 'True', Reason.MinimumReplicasAvailable, Message.minimumAvailable, now))
    : setCondition(status.conditions, newCondition(AVAILABLE, 'False', Reason.MinimumReplicasUnavailable, Message.minimumUnavailable, now));
  return status;
}

/** Every replica updated and available, and this generation observed (kube's DeploymentComplete). */
export function deploymentComplete(d: ApiObject, s: DeploymentStatus): boolean {
  const n = desiredReplicas(d);
  return (s.updatedReplicas ?? 0) === n && (s.replicas ?? 0) === n && (s.availableReplicas ?? 0) === n && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** Replicas moved since the last status (kube's DeploymentProgressing). */
export function deploymentProgressing(d: ApiObject, s: DeploymentStatus): boolean {
  const old = statusOf(d);
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld
    || (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/** No progress for progressDeadlineSeconds since the Progressing condition last changed (kube's DeploymentTimedOut). */
export function deploymentTimedOut(d: ApiObject, s: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s.conditions, PROGRESSING);
  if (!c) return false;
  if (c.reason === Reason.NewRSAvailable) return false;
  if (c.reason === Reason.TimedOut) return true;
  const from = c.lastUpdateTime ? Date.parse(c.lastUpdateTime) : NaN;
  return !Number.isNaN(from) && from + progressDeadline(d)! * 1000 < now;
}

/** The first ReplicaFailure of the new ReplicaSet, else of an old one, as a Deployment condition. */
function replicaFailure(allRSs: readonly (ApiObject | undefined)[], newRS: ApiObject | undefined): DeploymentCondition | undefined {
  const ordered = [newRS, ...allRSs.filter((rs) => rs !== newRS)];
  for (const rs of ordered) {
    const c = ((rs?.status ?? {}) as { conditions?: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[] }).conditions
      ?.find((x) => x.type === REPLICA_FAILURE);
    if (c) {
      return {
        type: REPLICA_FAILURE, status: c.status as DeploymentCondition['status'],
        ...(c.lastTransitionTime ? { lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime } : {}),
        ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}),
      };
    }
  }
  return undefined;
}

/** The status syncRolloutStatus writes: calculateStatus plus Progressing and ReplicaFailure. */
export function rolloutStatus(d: ApiObject, allRSs: readonly (ApiObject | undefined)[], newRS: ApiObject | undefined, now = Date.now()): DeploymentStatus {
  const s = calculateStatus(d, allRSs, newRS, now);
  if (!hasProgressDeadline(d)) s.conditions = removeCondition(s.conditions, PROGRESSING);
  const current = getCondition(statusOf(d).conditions, PROGRESSING);
  const complete = s.replicas === s.updatedReplicas && current?.reason === Reason.NewRSAvailable;
  if (hasProgressDeadline(d) && !complete) {
    const name = d.metadata.name!;
    if (deploymentComplete(d, s)) {
      s.conditions = setCondition(s.conditions, newCondition(PROGRESSING, 'True', Reason.NewRSAvailable, Message.available(newRS?.metadata.name ?? ''), now));
    } else if (deploymentProgressing(d, s)) {
      const c = newCondition(PROGRESSING, 'True', Reason.ReplicaSetUpdated, newRS ? Message.progressing(newRS.metadata.name!) : Message.deploymentProgressing(name), now);
      if (current) {
        if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
        s.conditions = removeCondition(s.conditions, PROGRESSING);
      }
      s.conditions = setCondition(s.conditions, c);
    } else if (deploymentTimedOut(d, s, now)) {
      const msg = newRS ? Message.timedOut(newRS.metadata.name!) : Message.deploymentTimedOut(name);
      s.conditions = setCondition(s.conditions, newCondition(PROGRESSING, 'False', Reason.TimedOut, msg, now));
    }
  }
  const failure = replicaFailure(allRSs, newRS);
  s.conditions = failure ? setCondition(s.conditions, failure) : removeCondition(s.conditions, REPLICA_FAILURE);
  return s;
}

/**
 * When to look again at a rollout that did not move (kube's
 * requeueStuckDeployment): when its deadline passes; undefined when there is
 * no deadline to watch (none set, no Progressing yet, complete, timed out).
 */
export function recheckAfterMs(d: ApiObject, next: DeploymentStatus, now: number): number | undefined {
  const current = getCondition(statusOf(d).conditions, PROGRESSING);
  if (!hasProgressDeadline(d) || !current) return undefined;
  if (deploymentComplete(d, next) || current.reason === Reason.TimedOut) return undefined;
  const from = current.lastUpdateTime ? Date.parse(current.lastUpdateTime) : now;
  const after = from + progressDeadline(d)! * 1000 - now;
  return after < 1000 ? 1000 : after + 1000;
}

/** A status without the fields Go leaves out when zero (every DeploymentStatus field is omitempty). */
export function compactStatus(s: DeploymentStatus): DeploymentStatus {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (v === undefined || v === 0 || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as DeploymentStatus;
}

