// A ReplicaSet's (or ReplicationController's) status from its active pods
// (kube's calculateStatus): replicas, fullyLabeledReplicas (pods carrying
// every template label), readyReplicas, availableReplicas (Ready for
// minReadySeconds), and the ReplicaFailure condition while creating or
// deleting pods fails (reason FailedCreate or FailedDelete, the error as
// message), dropped once a sync manages its replicas again.
import type { ApiObject } from '../../registry/object.js';
import { nowTimestamp } from '../../registry/object.js';
import { hasAllLabels, isPodAvailable, isPodReady } from './pods.js';

export interface ReplicaCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicaStatus {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration?: number;
  conditions?: ReplicaCondition[];
}

/** The outcome of the sync's pod management: nothing failed, or what failed and how. */
export type ManageResult = { readonly failed: false } | { readonly failed: true; readonly creating: boolean; readonly message: string };

export function statusOf(rs: ApiObject): ReplicaStatus {
  const s = (rs.status ?? {}) as Partial<ReplicaStatus>;
  return {
    replicas: s.replicas ?? 0, fullyLabeledReplicas: s.fullyLabeledReplicas ?? 0, readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    ...(s.observedGeneration !== undefined ? { observedGeneration: s.observedGeneration } : {}),
    ...(s.conditions && s.conditions.length > 0 ? { conditions: s.conditions.map((c) => ({ ...c })) } : {}),
  };
}

export function calculateStatus(
  rs: ApiObject, pods: readonly ApiObject[], templateLabels: Record<string, string> | undefined, minReadySeconds: number,
  manage: ManageResult, now: number,
): ReplicaStatus {
  const next = statusOf(rs);
  next.replicas = pods.length;
  next.fullyLabeledReplicas = pods.filter((p) => hasAllLabels(p.metadata.labels, templateLabels)).length;
  next.readyReplicas = pods.filter(isPodReady).length;
  next.availableReplicas = pods.filter((p) => isPodAvailable(p, minReadySeconds, now)).length;
  const failure = next.conditions?.find((c) => c.type === 'ReplicaFailure');
  if (manage.failed && !failure) {
    next.conditions = [...(next.conditions ?? []), {
      type: 'ReplicaFailure', status: 'True', lastTransitionTime: nowTimestamp(now),
      reason: manage.creating ? 'FailedCreate' : 'FailedDelete', message: manage.message,
    }];
  } else if (!manage.failed && failure) {
    next.conditions = next.conditions!.filter((c) => c.type !== 'ReplicaFailure');
    if (next.conditions.length === 0) delete next.conditions;
  }
  return next;
}
