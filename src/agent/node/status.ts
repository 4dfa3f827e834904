// The Node object and status the agent registers and reports, assembled from
// the machine, the runtime and the configuration (kube's initialNode and the
// nodestatus setters: MachineInfo, NodeAddress, DaemonEndpoints, VersionInfo,
// Images, the conditions). Pure: manager.ts reads the inputs and writes the result.
import type { Image, VersionInfo } from '../cri/types.js';
import type { ApiObject } from '../../registry/object.js';
import { deepEqual, isObject } from '../../registry/object.js';
import { allocatable, formatList, machineCapacity, type AllocatableOptions } from './capacity.js';
import type { NodeCondition } from './conditions.js';
import { ATTACH_DETACH_ANNOTATION, DEFAULT_LABEL_KEYS, NODE_TTL_ANNOTATION, registrationAnnotations, registrationLabels, type AnnotationFacts } from './labels.js';
import { KUBELET_VERSION } from './version.js';
import type { MachineReader } from './machine.js';

/** kube's nodeStatusMaxImages and MaxNamesPerImageInNodeStatus. */
export const NODE_STATUS_MAX_IMAGES = 50;
export const MAX_NAMES_PER_IMAGE = 5;

export interface NodeSpecOptions extends AnnotationFacts {
  readonly name: string;
  /** The host's name (lowercased), kubernetes.io/hostname. */
  readonly hostname: string;
  /** `--node-labels`. */
  readonly labels?: Readonly<Record<string, string>>;
  /** `--register-with-taints`. */
  readonly taints?: readonly { readonly key: string; readonly value?: string; readonly effect: string }[];
  /** `--register-schedulable=false`: spec.unschedulable with its taint. */
  readonly unschedulable?: boolean;
}

/** The Node a kubelet creates at registration, without its status (manager.ts adds the first one). */
export function initialNode(o: NodeSpecOptions, m: Pick<MachineReader, 'architecture'>): ApiObject {
  const taints = (o.taints ?? []).map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect }));
  if (o.unschedulable && !taints.some((t) => t.key === 'node.kubernetes.io/unschedulable' && t.effect === 'NoSchedule')) {
    taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  }
  const spec: Record<string, unknown> = {};
  if (o.unschedulable) spec.unschedulable = true;
  if (taints.length > 0) spec.taints = taints;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: o.name,
      labels: registrationLabels({ hostname: o.hostname, os: 'linux', arch: m.architecture() }, o.labels),
      annotations: registrationAnnotations(o),
    },
    spec,
  };
}

/**
 * An existing Node adopted at registration (kube's tryRegisterWithAPIServer):
 * the kubelet's default labels set to this machine's values and the attach/
 * detach annotation reconciled; `--node-labels`, taints and the rest stay as
 * they are. undefined when nothing needs to change.
 */
export function reconcileExisting(existing: ApiObject, wanted: ApiObject): ApiObject | undefined {
  const labels = { ...(existing.metadata.labels ?? {}) };
  const annotations = { ...(existing.metadata.annotations ?? {}) };
  let changed = false;
  const wantedLabels = wanted.metadata.labels ?? {};
  const wantedAnnotations = wanted.metadata.annotations ?? {};
  // only the kubelet's own labels (both spellings) are reconciled, never --node-labels
  for (const k of DEFAULT_LABEL_KEYS) {
    const v = wantedLabels[k];
    if (v === undefined || labels[k] === v) continue;
    labels[k] = v;
    changed = true;
  }
  // the attach/detach annotation follows the flag; the TTL is only filled in (kube's TTL controller owns it)
  const attach = wantedAnnotations[ATTACH_DETACH_ANNOTATION];
  if (attach === undefined && ATTACH_DETACH_ANNOTATION in annotations) {
    delete annotations[ATTACH_DETACH_ANNOTATION];
    changed = true;
  } else if (attach !== undefined && annotations[ATTACH_DETACH_ANNOTATION] !== attach) {
    annotations[ATTACH_DETACH_ANNOTATION] = attach;
    changed = true;
  }
  const ttl = wantedAnnotations[NODE_TTL_ANNOTATION];
  if (ttl !== undefined && annotations[NODE_TTL_ANNOTATION] === undefined) {
    annotations[NODE_TTL_ANNOTATION] = ttl;
    changed = true;
  }
  if (!changed) return undefined;
  return { ...existing, metadata: { ...existing.metadata, labels, annotations } };
}

export interface StatusInputs {
  readonly capacity: ReturnType<typeof machineCapacity>;
  readonly allocatable: AllocatableOptions;
  readonly conditions: readonly NodeCondition[];
  /** InternalIPs (`--node-ip`, or the default route's). */
  readonly nodeIPs: readonly string[];
  readonly hostname: string;
  readonly kubeletPort: number;
  readonly machine: Pick<MachineReader, 'machineID' | 'systemUUID' | 'bootID' | 'kernelVersion' | 'osImage' | 'architecture'>;
  /** CRI version(); undefined before the runtime answered. */
  readonly runtimeVersion?: VersionInfo;
  readonly images: readonly Image[];
}

/** The images a kubelet lists in status.images: the largest first, at most 50, up to 5 names each (digests, then tags). */
export function statusImages(images: readonly Image[], max = NODE_STATUS_MAX_IMAGES): { names: string[]; sizeBytes: number }[] {
  return [...images]
    .sort((a, b) => b.size - a.size)
    .slice(0, max < 0 ? undefined : max)
    .map((i) => ({ names: [...i.repoDigests, ...i.repoTags].slice(0, MAX_NAMES_PER_IMAGE), sizeBytes: i.size }));
}

export function nodeStatus(s: StatusInputs): Record<string, unknown> {
  const m = s.machine;
  return {
    capacity: formatList(s.capacity),
    allocatable: formatList(allocatable(s.capacity, s.allocatable)),
    conditions: s.conditions.map((c) => ({ ...c })),
    addresses: [...s.nodeIPs.map((address) => ({ type: 'InternalIP', address })), { type: 'Hostname', address: s.hostname }],
    daemonEndpoints: { kubeletEndpoint: { Port: s.kubeletPort } },
    nodeInfo: {
      machineID: m.machineID(),
      systemUUID: m.systemUUID(),
      bootID: m.bootID(),
      kernelVersion: m.kernelVersion(),
      osImage: m.osImage(),
      containerRuntimeVersion: s.runtimeVersion ? `${s.runtimeVersion.runtimeName}://${s.runtimeVersion.runtimeVersion}` : '',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: m.architecture(),
    },
    images: statusImages(s.images),
  };
}

/** Whether `desired` differs from the server's status other than by heartbeat times (kube's nodeStatusHasChanged). */
export function statusChanged(server: unknown, desired: Record<string, unknown>): boolean {
  if (!isObject(server)) return true;
  return Object.keys(desired).some((k) => !deepEqual(withoutHeartbeats(server[k]), withoutHeartbeats(desired[k])));
}

function withoutHeartbeats(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutHeartbeats);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'lastHeartbeatTime') out[k] = withoutHeartbeats(x);
  return out;
}
