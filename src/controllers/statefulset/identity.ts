// A StatefulSet pod's identity and storage (kube's stateful_set_utils.go):
// the pod `<set>-<ordinal>` with the labels statefulset.kubernetes.io/pod-name
// and controller-revision-hash, hostname and subdomain from serviceName, and
// one claim `<template>-<set>-<ordinal>` per volumeClaimTemplate mounted as a
// volume of the template's name. v1.27 has no apps.kubernetes.io/pod-index
// label (it came in 1.28).
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { podFromTemplate } from '../replicaset/pods.js';

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const REVISION_LABEL = 'controller-revision-hash';

export interface SetSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string> }; spec?: Record<string, unknown> } & Record<string, unknown>;
  volumeClaimTemplates?: ApiObject[];
  serviceName?: string;
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  ordinals?: { start?: number };
}

export interface SetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: unknown[];
}

export const specOf = (set: ApiObject): SetSpec => (set.spec ?? {}) as SetSpec;
export const statusOf = (set: ApiObject): Partial<SetStatus> => (set.status ?? {}) as Partial<SetStatus>;
export const replicasOf = (set: ApiObject): number => specOf(set).replicas ?? 1;

interface PodSpec {
  hostname?: string;
  subdomain?: string;
  volumes?: { name: string; persistentVolumeClaim?: { claimName?: string; readOnly?: boolean } }[];
}
const podSpec = (pod: ApiObject): PodSpec => (pod.spec ?? {}) as PodSpec;

/** The parent name and ordinal in a pod's name `<parent>-<n>` (kube's getParentNameAndOrdinal); ordinal -1 when none. */
export function parentAndOrdinal(podName: string): { parent: string; ordinal: number } {
  const m = /^(.*)-([0-9]+)$/.exec(podName);
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  return { parent: m[1]!, ordinal: n < 2 ** 31 ? n : -1 };
}

export const ordinalOf = (pod: ApiObject): number => parentAndOrdinal(pod.metadata.name ?? '').ordinal;
export const podName = (set: ApiObject, ordinal: number): string => `${set.metadata.name}-${ordinal}`;
export const claimName = (set: ApiObject, template: ApiObject, ordinal: number): string => `${template.metadata.name}-${set.metadata.name}-${ordinal}`;

/** Whether the pod's name says it belongs to the set (kube's isMemberOf). */
export const isMemberOf = (set: ApiObject, pod: ApiObject): boolean => parentAndOrdinal(pod.metadata.name ?? '').parent === set.metadata.name;

/** The first ordinal (spec.ordinals.start when StatefulSetStartOrdinal is on) and the last. */
export function ordinalRange(set: ApiObject, startOrdinalGate: boolean): { start: number; end: number } {
  const start = startOrdinalGate ? (specOf(set).ordinals?.start ?? 0) : 0;
  return { start, end: start + replicasOf(set) - 1 };
}

export function inOrdinalRange(pod: ApiObject, set: ApiObject, startOrdinalGate: boolean): boolean {
  const o = ordinalOf(pod);
  const { start, end } = ordinalRange(set, startOrdinalGate);
  return o >= start && o <= end;
}

export const podRevision = (pod: ApiObject): string => pod.metadata.labels?.[REVISION_LABEL] ?? '';

/** Name, namespace and pod-name label as the set gives them (kube's identityMatches). */
export function identityMatches(set: ApiObject, pod: ApiObject): boolean {
  const { parent, ordinal } = parentAndOrdinal(pod.metadata.name ?? '');
  return ordinal >= 0 && parent === set.metadata.name && pod.metadata.name === podName(set, ordinal)
    && pod.metadata.namespace === set.metadata.namespace && pod.metadata.labels?.[POD_NAME_LABEL] === pod.metadata.name;
}

/** Every claim template mounted as a volume of its name pointing at the pod's claim (kube's storageMatches). */
export function storageMatches(set: ApiObject, pod: ApiObject): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((podSpec(pod).volumes ?? []).map((v) => [v.name, v]));
  return (specOf(set).volumeClaimTemplates ?? []).every((t) =>
    volumes.get(t.metadata.name!)?.persistentVolumeClaim?.claimName === claimName(set, t, ordinal));
}

/** The claims the pod needs, by template name (kube's getPersistentVolumeClaims): the selector's matchLabels added to the template's labels. */
export function podClaims(set: ApiObject, pod: ApiObject): Map<string, ApiObject> {
  const ordinal = ordinalOf(pod);
  const matchLabels = specOf(set).selector?.matchLabels ?? {};
  const out = new Map<string, ApiObject>();
  for (const t of specOf(set).volumeClaimTemplates ?? []) {
    const claim = structuredClone(t);
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    claim.metadata = { ...claim.metadata, name: claimName(set, t, ordinal), namespace: set.metadata.namespace! };
    const labels = { ...claim.metadata.labels, ...matchLabels };
    if (Object.keys(labels).length > 0) claim.metadata.labels = labels;
    delete claim.status;
    out.set(t.metadata.name!, claim);
  }
  return out;
}

/** Name, namespace and pod-name label set from the ordinal (kube's updateIdentity). */
export function updateIdentity(set: ApiObject, pod: ApiObject): void {
  pod.metadata.name = podName(set, ordinalOf(pod));
  pod.metadata.namespace = set.metadata.namespace!;
  pod.metadata.labels = { ...pod.metadata.labels, [POD_NAME_LABEL]: pod.metadata.name };
}

/** The claims' volumes first (in template order), then the pod's other volumes (kube's updateStorage). */
export function updateStorage(set: ApiObject, pod: ApiObject): void {
  const claims = podClaims(set, pod);
  const spec = podSpec(pod);
  const volumes: NonNullable<PodSpec['volumes']> = [...claims].map(([name, claim]) => ({ name, persistentVolumeClaim: { claimName: claim.metadata.name! } }));
  for (const v of spec.volumes ?? []) if (!claims.has(v.name)) volumes.push(v);
  if (volumes.length > 0) spec.volumes = volumes;
  pod.spec = spec as Record<string, unknown>;
}

/** kube's newStatefulSetPod: the template's pod, its identity, hostname/subdomain (set at creation only) and storage. */
export function newStatefulSetPod(set: ApiObject, ordinal: number, ref: OwnerReference): ApiObject {
  const pod = podFromTemplate(specOf(set).template ?? {}, set.metadata.namespace!, set.metadata.name!, ref);
  pod.metadata.name = podName(set, ordinal);
  updateIdentity(set, pod);
  const spec = podSpec(pod);
  spec.hostname = pod.metadata.name;
  if (specOf(set).serviceName) spec.subdomain = specOf(set).serviceName;
  updateStorage(set, pod);
  return pod;
}

export function setPodRevision(pod: ApiObject, revision: string): void {
  pod.metadata.labels = { ...pod.metadata.labels, [REVISION_LABEL]: revision };
}

/**
 * kube's newVersionedStatefulSetPod: a pod of the current revision when the
 * rolling update has not reached its ordinal (below the partition), else of
 * the update revision.
 */
export function newVersionedPod(o: {
  currentSet: ApiObject; updateSet: ApiObject; currentRevision: string; updateRevision: string; ordinal: number; ref: OwnerReference;
}): ApiObject {
  const strategy = specOf(o.currentSet).updateStrategy;
  const current = strategy?.type === 'RollingUpdate' && (
    (strategy.rollingUpdate === undefined && o.ordinal < (statusOf(o.currentSet).currentReplicas ?? 0))
    || (strategy.rollingUpdate !== undefined && o.ordinal < (strategy.rollingUpdate.partition ?? 0)));
  const pod = newStatefulSetPod(current ? o.currentSet : o.updateSet, o.ordinal, o.ref);
  setPodRevision(pod, current ? o.currentRevision : o.updateRevision);
  return pod;
}
