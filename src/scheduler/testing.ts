// Small builders for the scheduler's table tests: nodes and pods as the API
// holds them, and a snapshot of NodeInfos with pods placed.
import type { ApiObject } from '../registry/object.js';
import type { Snapshot } from './framework.js';
import { NodeInfo, podInfo } from './nodeinfo.js';
import { SchedulerCache } from './cache.js';
import { NO_SELECTORS } from './spreading.js';
import { NO_VOLUMES } from './volumes.js';

export interface NodeSpec {
  readonly cpu?: string;
  readonly memory?: string;
  readonly pods?: string;
  readonly extra?: Record<string, string>;
  readonly labels?: Record<string, string>;
  readonly taints?: readonly { key: string; value?: string; effect: string }[];
  readonly unschedulable?: boolean;
  readonly images?: readonly { names: string[]; sizeBytes: number }[];
}

export function testNode(name: string, o: NodeSpec = {}): ApiObject {
  const alloc = { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110', ...(o.extra ?? {}) };
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) } },
    spec: { ...(o.taints ? { taints: o.taints.map((t) => ({ ...t })) } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable: alloc, capacity: alloc, ...(o.images ? { images: o.images.map((i) => ({ ...i })) } : {}) },
  };
}

export interface PodSpec {
  readonly namespace?: string;
  readonly requests?: Record<string, string>;
  readonly containers?: readonly { image?: string; requests?: Record<string, string>; hostPort?: number; hostIP?: string; protocol?: string }[];
  readonly initRequests?: Record<string, string>;
  readonly labels?: Record<string, string>;
  readonly priority?: number;
  readonly spec?: Record<string, unknown>;
  readonly nodeName?: string;
  readonly created?: string;
}

export function testPod(name: string, o: PodSpec = {}): ApiObject {
  const containers = o.containers ?? [{ ...(o.requests ? { requests: o.requests } : {}) }];
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default', uid: `uid-${name}`, labels: { ...(o.labels ?? {}) }, creationTimestamp: o.created ?? '2026-01-01T00:00:00Z' },
    spec: {
      containers: containers.map((c, i) => ({
        name: `c${i}`, image: c.image ?? 'busybox',
        ...(c.requests ? { resources: { requests: c.requests } } : {}),
        ...(c.hostPort ? { ports: [{ containerPort: c.hostPort, hostPort: c.hostPort, ...(c.hostIP ? { hostIP: c.hostIP } : {}), ...(c.protocol ? { protocol: c.protocol } : {}) }] } : {}),
      })),
      ...(o.initRequests ? { initContainers: [{ name: 'init', image: 'busybox', resources: { requests: o.initRequests } }] } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
      ...(o.spec ?? {}),
    },
    status: { phase: o.nodeName ? 'Running' : 'Pending' },
  };
}

/** A NodeInfo with these pods on it. */
export function nodeInfoWith(node: ApiObject, pods: readonly ApiObject[] = []): NodeInfo {
  const n = new NodeInfo(node);
  for (const p of pods) n.addPod(podInfo(p));
  return n;
}

/** A snapshot of nodes with pods placed by their spec.nodeName (image states computed as the cache does). */
export function snapshotOf(nodes: readonly ApiObject[], pods: readonly ApiObject[] = []): Snapshot {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addOrUpdateNode(n);
  for (const p of pods) cache.addOrUpdatePod(p, (p.spec as { nodeName: string }).nodeName);
  return cache.snapshot();
}

/** What plugins read beyond the snapshot: nothing (no services, controllers or namespace labels). */
export const TEST_HANDLE = { selectors: NO_SELECTORS, namespaceLabels: () => undefined, volumes: { ...NO_VOLUMES, volumes: () => [], csiNode: () => undefined } };
