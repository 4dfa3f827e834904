// A simulated node's Node object as a kubelet registers and reports it:
// kubelet labels (both spellings), the kubelet's annotations, capacity and
// allocatable of a typical machine, the four conditions with the kubelet's
// reasons and messages, nodeInfo, addresses and the kubelet endpoint. Pure:
// the runtime (index.ts) writes what these return.
import { parseResourceList, formatResourceList, subtractLists, type ResourceList } from '../quota/resources.js';
import type { ApiObject } from '../registry/object.js';
import { deepEqual, isObject } from '../registry/object.js';
import { rfc3339 } from './clock.js';
import { kubeletLabels } from '../agent/node/labels.js';

/** The label kwok's nodes carry as `type=kwok`; ours say `type=simulated`. */
export const SIMULATED_LABEL = { key: 'type', value: 'simulated' } as const;
/** Marks a Node as one of ours (kwok: kwok.x-k8s.io/node=fake). */
export const SIMULATED_NODE_ANNOTATION = 'simulated.svc.io/node';

export const DEFAULT_CAPACITY: Readonly<Record<string, string>> = {
  cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0',
};

export interface NodeIdentity {
  readonly name: string;
  readonly internalIP: string;
}

export interface NodeSettings {
  readonly capacity: Readonly<Record<string, string>>;
  /** Default: capacity less the kubelet's hard eviction thresholds (memory.available 100Mi, nodefs.available 10%). */
  readonly allocatable?: Readonly<Record<string, string>>;
  readonly kubeletVersion: string;
  readonly instanceType: string;
  readonly kubeletPort: number;
}

export const DEFAULT_SETTINGS: NodeSettings = {
  capacity: DEFAULT_CAPACITY, kubeletVersion: 'v1.27.3', instanceType: 'simulated', kubeletPort: 10250,
};

/** Allocatable as a kubelet without reservations computes it: capacity less the default hard eviction thresholds. */
export function defaultAllocatable(capacity: Readonly<Record<string, string>>): Record<string, string> {
  const cap: ResourceList = parseResourceList(capacity);
  const minus: ResourceList = {};
  const mem = parseResourceList({ memory: '100Mi' }).memory!;
  if (cap.memory) minus.memory = cap.memory.nanos > mem.nanos ? mem : cap.memory;
  const disk = cap['ephemeral-storage'];
  // 10% of the disk, rounded down to whole bytes
  if (disk) minus['ephemeral-storage'] = { nanos: ((disk.nanos / 10n) / 1_000_000_000n) * 1_000_000_000n, format: disk.format };
  return formatResourceList(subtractLists(cap, minus));
}

/** The labels a kubelet sets on its Node, in the kubernetes.io and svc.io spellings, and kwok's `type` label. */
export function nodeLabels(id: NodeIdentity, s: NodeSettings): Record<string, string> {
  const labels = { ...kubeletLabels({ hostname: id.name, os: 'linux', arch: 'amd64', instanceType: s.instanceType }), [SIMULATED_LABEL.key]: SIMULATED_LABEL.value };
  return Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The annotations a kubelet writes at registration, and ours. */
export function nodeAnnotations(): Record<string, string> {
  return {
    'node.alpha.kubernetes.io/ttl': '0',
    [SIMULATED_NODE_ANNOTATION]: 'true',
    'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
  };
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

/** The kubelet's conditions of a healthy node, in its order. */
const HEALTHY: readonly Omit<Condition, 'lastHeartbeatTime' | 'lastTransitionTime'>[] = [
  { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
  { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
];

/** A stable hex id of `bytes` bytes from a seed (machineID, systemUUID, bootID). */
export function stableHex(seed: string, bytes: number): string {
  // FNV-1a, stretched: enough for ids that must only be stable and distinct
  let out = '';
  let h = 0x811c9dc5;
  for (let round = 0; out.length < bytes * 2; round++) {
    for (const ch of `${seed}#${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, bytes * 2);
}

const uuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

/**
 * The node's status at `now`: conditions keep their lastTransitionTime while
 * their status stays (from `previous`, the status on the server), and take
 * `now` as heartbeat.
 */
export function nodeStatus(id: NodeIdentity, s: NodeSettings, now: number, previous?: unknown): Record<string, unknown> {
  const prevConditions = isObject(previous) && Array.isArray(previous.conditions) ? previous.conditions.filter(isObject) : [];
  const t = rfc3339(now);
  const conditions: Condition[] = HEALTHY.map((c) => {
    const prev = prevConditions.find((p) => p.type === c.type);
    const kept = prev && prev.status === c.status && typeof prev.lastTransitionTime === 'string';
    return { ...c, lastHeartbeatTime: t, lastTransitionTime: kept ? (prev.lastTransitionTime as string) : t };
  });
  const machine = stableHex(`machine:${id.name}`, 16);
  return {
    capacity: { ...s.capacity },
    allocatable: { ...(s.allocatable ?? defaultAllocatable(s.capacity)) },
    conditions,
    addresses: [{ type: 'InternalIP', address: id.internalIP }, { type: 'Hostname', address: id.name }],
    daemonEndpoints: { kubeletEndpoint: { Port: s.kubeletPort } },
    nodeInfo: {
      machineID: machine,
      systemUUID: uuid(stableHex(`system:${id.name}`, 16)),
      bootID: uuid(stableHex(`boot:${id.name}`, 16)),
      kernelVersion: '6.1.0-simulated',
      osImage: 'Simulated Linux (svc simulated node)',
      containerRuntimeVersion: 'containerd://1.7.2',
      kubeletVersion: s.kubeletVersion,
      kubeProxyVersion: s.kubeletVersion,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

/** The Node a simulated kubelet registers. */
export function nodeObject(id: NodeIdentity, s: NodeSettings, now: number): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: id.name, labels: nodeLabels(id, s), annotations: nodeAnnotations() },
    spec: {},
    status: nodeStatus(id, s, now),
  };
}

/**
 * Whether the server's status differs from what the kubelet would report
 * (other than heartbeats): a condition another writer changed (the node
 * lifecycle controller's Unknown), capacity, addresses, nodeInfo.
 */
export function nodeStatusDiffers(server: unknown, desired: Record<string, unknown>): boolean {
  if (!isObject(server)) return true;
  return ['capacity', 'allocatable', 'conditions', 'addresses', 'daemonEndpoints', 'nodeInfo'].some((k) => !deepEqual(withoutTimes(server[k]), withoutTimes(desired[k])));
}

/** A copy without the conditions' times. */
function withoutTimes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutTimes);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'lastHeartbeatTime' && k !== 'lastTransitionTime') out[k] = withoutTimes(x);
  return out;
}
