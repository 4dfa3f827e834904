// A StatefulSet's status from its pods (kube's updateStatus /
// computeReplicaStatus / completeRollingUpdate / inconsistentStatus).
import type { ApiObject } from '../../registry/object.js';
import { isPodReady } from '../../api/core/v1/podutil.js';
import { isPodAvailable } from '../replicaset/pods.js';
import { podRevision, specOf, statusOf, type SetStatus } from './identity.js';

const phase = (pod: ApiObject) => ((pod.status ?? {}) as { phase?: string }).phase ?? '';
/** Written by the API server (its phase is set at creation); a pod we only plan has none. */
export const isCreated = (pod: ApiObject): boolean => phase(pod) !== '';
export const isFailed = (pod: ApiObject): boolean => phase(pod) === 'Failed';
export const isSucceeded = (pod: ApiObject): boolean => phase(pod) === 'Succeeded';
export const isPending = (pod: ApiObject): boolean => phase(pod) === 'Pending';
export const isTerminating = (pod: ApiObject): boolean => !!pod.metadata.deletionTimestamp;
export const isRunningAndReady = (pod: ApiObject): boolean => phase(pod) === 'Running' && isPodReady(pod);
export const isRunningAndAvailable = (pod: ApiObject, minReadySeconds: number, now: number): boolean =>
  phase(pod) === 'Running' && isPodAvailable(pod, minReadySeconds, now);
export const isHealthy = (pod: ApiObject): boolean => isRunningAndReady(pod) && !isTerminating(pod);

export type ReplicaCounts = Pick<SetStatus, 'replicas' | 'readyReplicas' | 'availableReplicas' | 'currentReplicas' | 'updatedReplicas'>;

/** The counts over every list given (kube's updateStatus). */
export function countReplicas(o: { minReadySeconds: number; now: number; currentRevision: string; updateRevision: string }, ...lists: readonly ApiObject[][]): ReplicaCounts {
  const c: ReplicaCounts = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
  for (const list of lists) {
    for (const pod of list) {
      if (isCreated(pod)) c.replicas++;
      if (isRunningAndReady(pod)) {
        c.readyReplicas++;
        if (isRunningAndAvailable(pod, o.minReadySeconds, o.now)) c.availableReplicas++;
      }
      if (isCreated(pod) && !isTerminating(pod)) {
        const rev = podRevision(pod);
        if (rev === o.currentRevision) c.currentReplicas++;
        if (rev === o.updateRevision) c.updatedReplicas++;
      }
    }
  }
  return c;
}

/** A finished rolling update: every replica updated and ready, so the update revision becomes current (kube's completeRollingUpdate). */
export function completeRollingUpdate(set: ApiObject, status: SetStatus): void {
  if (specOf(set).updateStrategy?.type === 'RollingUpdate' && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** Whether the status must be written (kube's inconsistentStatus). */
export function inconsistentStatus(set: ApiObject, status: SetStatus): boolean {
  const cur = statusOf(set);
  return cur.observedGeneration === undefined || (status.observedGeneration ?? 0) > cur.observedGeneration
    || status.replicas !== (cur.replicas ?? 0) || status.currentReplicas !== (cur.currentReplicas ?? 0)
    || status.readyReplicas !== (cur.readyReplicas ?? 0) || status.updatedReplicas !== (cur.updatedReplicas ?? 0)
    || status.currentRevision !== (cur.currentRevision ?? '') || status.availableReplicas !== (cur.availableReplicas ?? 0)
    || status.updateRevision !== (cur.updateRevision ?? '');
}
