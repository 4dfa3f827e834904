// Fixtures for the daemon-set controller's table tests: DaemonSets and
// daemon pods in a few words.
import type { ApiObject } from '../../registry/object.js';

export const NOW = Date.parse('2026-01-01T12:00:00Z');
export const ago = (s: number) => new Date(NOW - s * 1000).toISOString();

export interface PodFixture {
  readonly name: string;
  readonly node?: string;
  /** Target node through the node-name affinity only (not yet bound). */
  readonly target?: string;
  readonly hash?: string;
  readonly generation?: string;
  readonly phase?: string;
  /** Seconds since the pod became Ready (absent: not ready). */
  readonly ready?: number;
  readonly age?: number;
  readonly deleting?: boolean;
}

export function pod(f: PodFixture): ApiObject {
  return {
    metadata: {
      name: f.name, namespace: 'ns', uid: `uid-${f.name}`, creationTimestamp: ago(f.age ?? 100),
      labels: { app: 'd', ...(f.hash ? { 'controller-revision-hash': f.hash } : {}), ...(f.generation ? { 'pod-template-generation': f.generation } : {}) },
      ...(f.deleting ? { deletionTimestamp: ago(0) } : {}),
    },
    spec: {
      ...(f.node ? { nodeName: f.node } : {}),
      ...(f.target ? { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [f.target] }] }] } } } } : {}),
    },
    status: {
      phase: f.phase ?? 'Running',
      ...(f.ready !== undefined ? { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(f.ready) }] } : {}),
    },
  };
}

export function daemonSet(strategy: Record<string, unknown> = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, minReadySeconds = 0): ApiObject {
  return {
    metadata: { name: 'd', namespace: 'ns', uid: 'ds-uid', generation: 2, annotations: { 'deprecated.daemonset.template.generation': '2' } },
    spec: { selector: { matchLabels: { app: 'd' } }, updateStrategy: strategy, minReadySeconds, template: { metadata: { labels: { app: 'd' } }, spec: {} } },
  };
}

/** Pods by their node (bound or targeted). */
export function byNode(pods: readonly ApiObject[]): Map<string, ApiObject[]> {
  const m = new Map<string, ApiObject[]>();
  for (const p of pods) {
    const spec = p.spec as { nodeName?: string; affinity?: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: { matchFields: { values: string[] }[] }[] } } } };
    const n = spec.nodeName ?? spec.affinity!.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]!.matchFields[0]!.values[0]!;
    m.set(n, [...(m.get(n) ?? []), p]);
  }
  return m;
}
