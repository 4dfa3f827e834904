// The labels and annotations the kubelet puts on CRI sandboxes and containers
// (kube's pkg/kubelet/types/labels.go and kuberuntime/labels.go), under kube's
// own keys so crictl and other tools that read them work, and the container
// hash kube compares to see a changed container spec.
import { createHash } from 'node:crypto';
import type { Container, Pod } from './types.js';

export const POD_NAME_LABEL = 'io.kubernetes.pod.name';
export const POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace';
export const POD_UID_LABEL = 'io.kubernetes.pod.uid';
export const CONTAINER_NAME_LABEL = 'io.kubernetes.container.name';
export const CONTAINER_HASH = 'io.kubernetes.container.hash';
export const CONTAINER_RESTART_COUNT = 'io.kubernetes.container.restartCount';
export const TERMINATION_MESSAGE_PATH = 'io.kubernetes.container.terminationMessagePath';
export const TERMINATION_MESSAGE_POLICY = 'io.kubernetes.container.terminationMessagePolicy';
export const PRESTOP_HANDLER = 'io.kubernetes.container.preStopHandler';
export const CONTAINER_PORTS = 'io.kubernetes.container.ports';
export const POD_DELETION_GRACE_PERIOD = 'io.kubernetes.pod.deletionGracePeriod';
export const POD_TERMINATION_GRACE_PERIOD = 'io.kubernetes.pod.terminationGracePeriod';

/** A sandbox's labels: the pod's own and the three identifying ones. */
export function sandboxLabels(pod: Pod): Record<string, string> {
  return {
    ...(pod.metadata.labels ?? {}),
    [POD_NAME_LABEL]: pod.metadata.name,
    [POD_NAMESPACE_LABEL]: pod.metadata.namespace,
    [POD_UID_LABEL]: pod.metadata.uid,
  };
}

/** A container's labels (kube's newContainerLabels). */
export function containerLabels(pod: Pod, container: Container): Record<string, string> {
  return {
    [POD_NAME_LABEL]: pod.metadata.name,
    [POD_NAMESPACE_LABEL]: pod.metadata.namespace,
    [POD_UID_LABEL]: pod.metadata.uid,
    [CONTAINER_NAME_LABEL]: container.name,
  };
}

/** A container's annotations (kube's newContainerAnnotations). */
export function containerAnnotations(pod: Pod, container: Container, restartCount: number): Record<string, string> {
  const a: Record<string, string> = {
    [CONTAINER_HASH]: hashContainer(container),
    [CONTAINER_RESTART_COUNT]: String(restartCount),
    [TERMINATION_MESSAGE_PATH]: container.terminationMessagePath ?? '/dev/termination-log',
    [TERMINATION_MESSAGE_POLICY]: container.terminationMessagePolicy ?? 'File',
  };
  if (pod.metadata.deletionGracePeriodSeconds !== undefined) a[POD_DELETION_GRACE_PERIOD] = String(pod.metadata.deletionGracePeriodSeconds);
  if (pod.spec.terminationGracePeriodSeconds !== undefined) a[POD_TERMINATION_GRACE_PERIOD] = String(pod.spec.terminationGracePeriodSeconds);
  if (container.lifecycle?.preStop) a[PRESTOP_HANDLER] = JSON.stringify(container.lifecycle.preStop);
  if (container.ports && container.ports.length > 0) a[CONTAINER_PORTS] = JSON.stringify(container.ports);
  return a;
}

/** The JSON of a value with object keys sorted at every level (the hash must not depend on key order). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The container's hash as kube writes it (hex of a 32-bit sum over the container's JSON). kube hashes Go's JSON of the
 * typed struct; ours hashes the canonical JSON of the spec as received — only ever compared with our own hashes.
 */
export function hashContainer(container: Container): string {
  return createHash('sha256').update(canonical(container)).digest().readUInt32BE(0).toString(16);
}

/** What the kubelet reads back from a CRI container's labels and annotations. */
export interface ContainerInfo {
  readonly podName: string;
  readonly podNamespace: string;
  readonly podUid: string;
  readonly containerName: string;
  readonly hash: string;
  readonly restartCount: number;
  readonly terminationMessagePath: string;
  readonly terminationMessagePolicy: string;
  readonly podDeletionGracePeriod?: number;
  readonly podTerminationGracePeriod?: number;
  readonly preStop?: unknown;
}

export function containerInfo(labels: Readonly<Record<string, string>>, annotations: Readonly<Record<string, string>>): ContainerInfo {
  const int = (s: string | undefined): number | undefined => (s !== undefined && /^-?\d+$/.test(s) ? Number(s) : undefined);
  let preStop: unknown;
  try {
    preStop = annotations[PRESTOP_HANDLER] ? JSON.parse(annotations[PRESTOP_HANDLER]) : undefined;
  } catch {
    preStop = undefined;
  }
  return {
    podName: labels[POD_NAME_LABEL] ?? '',
    podNamespace: labels[POD_NAMESPACE_LABEL] ?? '',
    podUid: labels[POD_UID_LABEL] ?? '',
    containerName: labels[CONTAINER_NAME_LABEL] ?? '',
    hash: annotations[CONTAINER_HASH] ?? '',
    restartCount: int(annotations[CONTAINER_RESTART_COUNT]) ?? 0,
    terminationMessagePath: annotations[TERMINATION_MESSAGE_PATH] ?? '',
    terminationMessagePolicy: annotations[TERMINATION_MESSAGE_POLICY] ?? '',
    podDeletionGracePeriod: int(annotations[POD_DELETION_GRACE_PERIOD]),
    podTerminationGracePeriod: int(annotations[POD_TERMINATION_GRACE_PERIOD]),
    preStop,
  };
}
