// What the workload controllers read of pods and of owner references (kube's
// pkg/api/v1/pod helpers and controller_utils.go): whether a pod is active,
// Ready, available after minReadySeconds; the controller that owns an object;
// the pod a controller makes from its template.
import { isPodReady } from '../../api/core/v1/podutil.js';
import type { ApiObject, OwnerReference } from '../../registry/object.js';

export interface PodCondition {
  readonly type: string;
  readonly status: string;
  readonly lastTransitionTime?: string;
}

const status = (pod: ApiObject) => (pod.status ?? {}) as { phase?: string; conditions?: PodCondition[]; containerStatuses?: { restartCount?: number }[] };
export const phaseOf = (pod: ApiObject): string => status(pod).phase ?? '';
export const nodeNameOf = (pod: ApiObject): string => ((pod.spec ?? {}) as { nodeName?: string }).nodeName ?? '';

/** Not finished (Succeeded/Failed) and not being deleted (kube's IsPodActive). */
export function isPodActive(pod: ApiObject): boolean {
  const phase = phaseOf(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

export function readyCondition(pod: ApiObject): PodCondition | undefined {
  return (status(pod).conditions ?? []).find((c) => c.type === 'Ready');
}

export { isPodReady };

/** Ready for at least minReadySeconds at `now` (kube's IsPodAvailable). */
export function isPodAvailable(pod: ApiObject, minReadySeconds: number, now: number): boolean {
  const c = readyCondition(pod);
  if (c?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const since = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 < now;
}

/** The time the pod became Ready, when it is Ready. */
export function readySince(pod: ApiObject): number | undefined {
  const c = readyCondition(pod);
  if (c?.status !== 'True' || !c.lastTransitionTime) return undefined;
  return Date.parse(c.lastTransitionTime);
}

export function maxContainerRestarts(pod: ApiObject): number {
  return Math.max(0, ...(status(pod).containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/** The owner reference with controller: true (kube's GetControllerOf). */
export function controllerOf(obj: ApiObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

/** The reference a controller sets on what it owns (kube's NewControllerRef). */
export function controllerRef(owner: ApiObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

/** Every label of `template` present in `labels` with the same value. */
export function hasAllLabels(labels: Record<string, string> | undefined, template: Record<string, string> | undefined): boolean {
  return Object.entries(template ?? {}).every(([k, v]) => labels?.[k] === v);
}

/**
 * The pod a controller creates from its template (kube's GetPodFromTemplate):
 * the template's labels, annotations and finalizers, `generateName`
 * `<owner>-`, the owner as controller.
 */
export function podFromTemplate(template: Record<string, unknown>, namespace: string, ownerName: string, ref: OwnerReference): ApiObject {
  const meta = (template.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      generateName: `${ownerName}-`, namespace,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [ref],
    },
    spec: structuredClone(template.spec ?? {}),
  };
}
