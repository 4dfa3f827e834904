// The status a create starts from (strategies/index.ts withStatusReset):
// kube's PrepareForCreate resets the status of a kind with a status
// subresource, and its encoder writes the zero struct with the fields Go
// always writes. Each row names the Go struct and fields it pins
// (k8s.io/api v0.27 types.go: no omitempty, or a struct held by value).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strategyFor, type StrategyKey } from './index.js';
import type { ApiObject } from '../object.js';

interface Row {
  /** The Go fields the expected status pins. */
  readonly pins: string;
  readonly key: StrategyKey;
  readonly namespaced: boolean;
  /** What the client sent as status (reset by the create). */
  readonly sent: Record<string, unknown>;
  readonly status: Record<string, unknown>;
  /** Other parts of the object the kind's prepare reads. */
  readonly body?: Record<string, unknown>;
}

const apps = (resource: string, kind: string): StrategyKey => ({ group: 'apps', version: 'v1', resource, kind });
const podSpec = { containers: [{ name: 'c', image: 'x' }] };

const ROWS: readonly Row[] = [
  { pins: 'apps/v1 ReplicaSetStatus.replicas', key: apps('replicasets', 'ReplicaSet'), namespaced: true, sent: { replicas: 5, readyReplicas: 2 }, status: { replicas: 0 } },
  { pins: 'apps/v1 StatefulSetStatus.replicas, .availableReplicas', key: apps('statefulsets', 'StatefulSet'), namespaced: true, sent: { replicas: 3, currentRevision: 'r1' }, status: { replicas: 0, availableReplicas: 0 } },
  {
    pins: 'apps/v1 DaemonSetStatus.currentNumberScheduled, .numberMisscheduled, .desiredNumberScheduled, .numberReady',
    key: apps('daemonsets', 'DaemonSet'), namespaced: true, sent: { numberReady: 4, observedGeneration: 2 },
    status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  },
  { pins: 'apps/v1 DeploymentStatus (no always-written field)', key: apps('deployments', 'Deployment'), namespaced: true, sent: { replicas: 4, collisionCount: 1 }, status: {} },
  { pins: 'core/v1 ReplicationControllerStatus.replicas', key: { group: '', version: 'v1', resource: 'replicationcontrollers', kind: 'ReplicationController' }, namespaced: true, sent: { replicas: 2 }, status: { replicas: 0 } },
  {
    pins: 'autoscaling/v2 HorizontalPodAutoscalerStatus.desiredReplicas, .currentMetrics (nil slice: null)',
    key: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' }, namespaced: true,
    sent: { currentReplicas: 3, desiredReplicas: 4 }, status: { desiredReplicas: 0, currentMetrics: null },
  },
  {
    pins: 'policy/v1 PodDisruptionBudgetStatus.disruptionsAllowed, .currentHealthy, .desiredHealthy, .expectedPods',
    key: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget' }, namespaced: true,
    sent: { expectedPods: 3 }, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  },
  { pins: 'storage/v1 VolumeAttachmentStatus.attached', key: { group: 'storage.svc.io', version: 'v1', resource: 'volumeattachments', kind: 'VolumeAttachment' }, namespaced: false, sent: { attached: true }, status: { attached: false } },
  { pins: 'core/v1 ServiceStatus.loadBalancer (a struct held by value)', key: { group: '', version: 'v1', resource: 'services', kind: 'Service' }, namespaced: true, sent: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }, status: { loadBalancer: {} } },
  { pins: 'networking/v1 IngressStatus.loadBalancer (a struct held by value)', key: { group: 'networking.svc.io', version: 'v1', resource: 'ingresses', kind: 'Ingress' }, namespaced: true, sent: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }, status: { loadBalancer: {} } },
  {
    pins: 'apiextensions/v1 CustomResourceDefinitionStatus.conditions (null), .acceptedNames (struct: plural, kind), .storedVersions (null)',
    key: { group: 'apiextensions.svc.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition' }, namespaced: false,
    sent: { storedVersions: ['v9'] }, status: { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: null },
  },
  { pins: 'batch/v1 JobStatus (no always-written field)', key: { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job' }, namespaced: true, sent: { succeeded: 1 }, status: {}, body: { spec: { template: { spec: podSpec } } } },
  { pins: 'core/v1 PersistentVolumeClaimStatus.phase (default Pending after the reset)', key: { group: '', version: 'v1', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim' }, namespaced: true, sent: { phase: 'Bound' }, status: { phase: 'Pending' } },
  { pins: 'core/v1 PersistentVolumeStatus.phase (default Pending after the reset)', key: { group: '', version: 'v1', resource: 'persistentvolumes', kind: 'PersistentVolume' }, namespaced: false, sent: { phase: 'Bound' }, status: { phase: 'Pending' } },
  { pins: 'core/v1 PodStatus{Phase: Pending, QOSClass} (the pod strategy\'s own)', key: { group: '', version: 'v1', resource: 'pods', kind: 'Pod' }, namespaced: true, sent: { phase: 'Running', hostIP: '10.0.0.1' }, status: { phase: 'Pending', qosClass: 'BestEffort' }, body: { spec: podSpec } },
  { pins: 'core/v1 NamespaceStatus{Phase: Active} (the namespace strategy\'s own)', key: { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace' }, namespaced: false, sent: { phase: 'Terminating' }, status: { phase: 'Active' } },
  {
    pins: 'core/v1 NodeStatus: kept on create (kubelets register with a status)',
    key: { group: '', version: 'v1', resource: 'nodes', kind: 'Node' }, namespaced: false, sent: { capacity: { cpu: '2' } }, status: { capacity: { cpu: '2' } },
  },
];

describe('the status a create starts from', () => {
  for (const row of ROWS) {
    it(`${row.key.kind}: ${row.pins}`, () => {
      const strategy = strategyFor(row.key, row.namespaced, true);
      const obj = { apiVersion: 'x', kind: row.key.kind, metadata: { name: 'a', namespace: row.namespaced ? 'ns' : undefined }, ...(row.body ?? {}), status: structuredClone(row.sent) } as ApiObject;
      strategy.prepareForCreate(obj);
      assert.deepEqual(obj.status, row.status);
    });
  }

  it('every create gets a fresh status object', () => {
    const strategy = strategyFor(apps('replicasets', 'ReplicaSet'), true, true);
    const a = { metadata: { name: 'a' } } as ApiObject;
    const b = { metadata: { name: 'b' } } as ApiObject;
    strategy.prepareForCreate(a);
    strategy.prepareForCreate(b);
    (a.status as Record<string, unknown>).replicas = 7;
    assert.deepEqual(b.status, { replicas: 0 });
  });

  it('a kind without a status subresource keeps what it was sent', () => {
    const strategy = strategyFor({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, true, false);
    const obj = { metadata: { name: 'a' }, status: { x: 1 } } as unknown as ApiObject;
    strategy.prepareForCreate(obj);
    assert.deepEqual(obj.status, { x: 1 });
  });
});
