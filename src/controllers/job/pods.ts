// A Job's pods: which are active, ready, failed, succeeded (kube v1.27's
// predicates: a pod being deleted that has not succeeded counts as failed
// unless the Job has a podFailurePolicy, since an orphaned pod may never reach
// the Failed phase), and the pod a Job makes from its template (kube's
// GetPodFromTemplate plus the job-tracking finalizer, the Job's labels in both
// spellings and, for an Indexed Job, the completion index as an annotation,
// an environment variable and the hostname `<job>-<index>`).
import { isPodReady } from '../../api/core/v1/podutil.js';
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { COMPLETION_INDEX, COMPLETION_INDEX_ENV } from './indexes.js';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';

type Obj = Record<string, unknown>;
const phase = (pod: ApiObject): string | undefined => ((pod.status ?? {}) as { phase?: string }).phase;

export const isSucceeded = (pod: ApiObject): boolean => phase(pod) === 'Succeeded';
export const isTerminal = (pod: ApiObject): boolean => phase(pod) === 'Succeeded' || phase(pod) === 'Failed';
/** Pending or running and not being deleted. */
export const isActive = (pod: ApiObject): boolean => !isTerminal(pod) && !pod.metadata.deletionTimestamp;
export const hasTrackingFinalizer = (pod: ApiObject): boolean => (pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);

export { isPodReady as isReady };

/**
 * A pod being deleted that no node runs, as the job controller gets to see it:
 * kube's pod GC marks such a pod Failed with a DisruptionTarget condition
 * (PodDisruptionConditions), and no node agent will; other pods as they are.
 */
export function asMarkedByPodGC(pod: ApiObject): ApiObject {
  const st = (pod.status ?? {}) as { phase?: string; conditions?: unknown[] };
  const unscheduled = !((pod.spec ?? {}) as { nodeName?: string }).nodeName;
  if (!pod.metadata.deletionTimestamp || !unscheduled || isTerminal(pod)) return pod;
  return {
    ...pod,
    status: { ...st, phase: 'Failed', conditions: [...(st.conditions ?? []), { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' }] },
  };
}

/** kube's isPodFailed (with a podFailurePolicy only the phase counts, the pod GC having marked deleted pods). */
export function isFailed(pod: ApiObject, hasFailurePolicy: boolean): boolean {
  if (hasFailurePolicy) return phase(asMarkedByPodGC(pod)) === 'Failed';
  if (phase(pod) === 'Failed') return true;
  return Boolean(pod.metadata.deletionTimestamp) && phase(pod) !== 'Succeeded';
}

/** The controller owner reference of an object, if any. */
export function controllerOf(obj: ApiObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

/** A Job's controller reference on the objects it owns. */
export function controllerRef(owner: ApiObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

/** The longest generateName the server keeps whole (a name is 63 at most, 5 go to the random suffix). */
const MAX_GENERATED_NAME = 58;

/** The generateName of a Job's pods; an Indexed pod's keeps its `-<index>-` when the Job's name is cut (kube's podGenerateNameWithIndex). */
export function podGenerateName(jobName: string, index?: number): string {
  if (index === undefined) return `${jobName}-`.slice(0, MAX_GENERATED_NAME);
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > MAX_GENERATED_NAME ? jobName.slice(0, MAX_GENERATED_NAME - suffix.length) + suffix : prefix;
}

/** The pod a Job makes: its template with the Job's ownership, finalizer and (Indexed) index. */
export function podFromTemplate(job: ApiObject, index?: number): ApiObject {
  const spec = (job.spec ?? {}) as Obj;
  const template = structuredClone((spec.template ?? {}) as Obj);
  const meta = (template.metadata ?? {}) as Obj;
  const labels = { ...((meta.labels ?? {}) as Record<string, string>) };
  if (spec.manualSelector !== true) {
    labels[CONTROLLER_UID_LABEL] = job.metadata.uid!;
    labels[JOB_NAME_LABEL] = job.metadata.name!;
  }
  const annotations = { ...((meta.annotations ?? {}) as Record<string, string>) };
  const podSpec = (template.spec ?? {}) as Obj;
  if (index !== undefined) {
    annotations[COMPLETION_INDEX] = String(index);
    for (const field of ['containers', 'initContainers']) {
      for (const c of (Array.isArray(podSpec[field]) ? podSpec[field] : []) as Obj[]) {
        const env = (Array.isArray(c.env) ? c.env : []) as Obj[];
        if (env.some((e) => e.name === COMPLETION_INDEX_ENV)) continue;
        c.env = [...env, { name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX}']` } } }];
      }
    }
    if (!podSpec.hostname) podSpec.hostname = `${job.metadata.name}-${index}`;
  }
  const finalizers = [...((meta.finalizers ?? []) as string[])];
  if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      generateName: podGenerateName(job.metadata.name!, index),
      namespace: job.metadata.namespace!,
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      finalizers,
      ownerReferences: [controllerRef(job, 'batch/v1', 'Job')],
    },
    spec: podSpec,
  };
}

/** restartPolicy OnFailure: container restarts of pending and running pods reach backoffLimit (kube's pastBackoffLimitOnFailure). */
export function pastBackoffLimitOnFailure(restartPolicy: string | undefined, pods: readonly ApiObject[], backoffLimit: number): boolean {
  if (restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    const st = (p.status ?? {}) as { phase?: string; containerStatuses?: { restartCount?: number }[]; initContainerStatuses?: { restartCount?: number }[] };
    if (st.phase !== 'Running' && st.phase !== 'Pending') continue;
    for (const cs of [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])]) restarts += cs.restartCount ?? 0;
  }
  return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
}
