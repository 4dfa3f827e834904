// What several readers ask of a pod's status (kube's pkg/api/v1/pod
// podutil): whether it is Ready. The eviction subresource, the disruption,
// ReplicaSet and Job controllers read it the same way.
import { isObject, type ApiObject } from '../../../registry/object.js';

/** Whether the pod's Ready condition is True (kube's podutil.IsPodReady). */
export function isPodReady(pod: ApiObject): boolean {
  const status = isObject(pod.status) ? pod.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  return conditions.some((c) => isObject(c) && c.type === 'Ready' && c.status === 'True');
}
