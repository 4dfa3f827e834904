// Deployment conditions (kube's deployment/util): Available and Progressing
// with kube's reasons and messages, set as kube sets them (an equal status
// and reason changes nothing; an equal status keeps lastTransitionTime).
import { nowTimestamp } from '../../registry/object.js';

export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export const AVAILABLE = 'Available';
export const PROGRESSING = 'Progressing';
export const REPLICA_FAILURE = 'ReplicaFailure';

/** kube's reasons (pkg/controller/deployment/util). */
export const Reason = {
  NewReplicaSet: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  NewRSAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  FailedRSCreate: 'ReplicaSetCreateError',
  Paused: 'DeploymentPaused',
  Resumed: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

export const Message = {
  created: (rs: string) => `Created new replica set "${rs}"`,
  found: (rs: string) => `Found new replica set "${rs}"`,
  progressing: (rs: string) => `ReplicaSet "${rs}" is progressing.`,
  deploymentProgressing: (d: string) => `Deployment "${d}" is progressing.`,
  available: (rs: string) => `ReplicaSet "${rs}" has successfully progressed.`,
  timedOut: (rs: string) => `ReplicaSet "${rs}" has timed out progressing.`,
  deploymentTimedOut: (d: string) => `Deployment "${d}" has timed out progressing.`,
  failedCreate: (rs: string, err: string) => `Failed to create new replica set "${rs}": ${err}`,
  paused: 'Deployment is paused',
  resumed: 'Deployment is resumed',
  minimumAvailable: 'Deployment has minimum availability.',
  minimumUnavailable: 'Deployment does not have minimum availability.',
} as const;

export function newCondition(type: string, status: DeploymentCondition['status'], reason: string, message: string, now = Date.now()): DeploymentCondition {
  const t = nowTimestamp(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getCondition(conditions: readonly DeploymentCondition[] | undefined, type: string): DeploymentCondition | undefined {
  return (conditions ?? []).find((c) => c.type === type);
}

/** kube's SetDeploymentCondition: the conditions with `c` set (a new array; the same one when nothing changes). */
export function setCondition(conditions: readonly DeploymentCondition[] | undefined, c: DeploymentCondition): DeploymentCondition[] {
  const list = [...(conditions ?? [])];
  const current = getCondition(list, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return list;
  const next = current && current.status === c.status ? { ...c, lastTransitionTime: current.lastTransitionTime } : c;
  return [...list.filter((x) => x.type !== c.type), next];
}

export function removeCondition(conditions: readonly DeploymentCondition[] | undefined, type: string): DeploymentCondition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}
