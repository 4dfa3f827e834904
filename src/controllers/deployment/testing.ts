// Fixtures for the deployment tables: Deployments and ReplicaSets as plain
// objects, and a Scaler that records each write instead of calling a server.
import type { ApiObject } from '../../registry/object.js';
import type { Scaler } from './rolling.js';
import { setReplicasAnnotations } from './annotations.js';
import { desiredReplicas, maxSurge } from './replicas.js';

export interface DeploymentFixture {
  replicas: number;
  surge?: number | string;
  unavailable?: number | string;
  type?: 'RollingUpdate' | 'Recreate';
  generation?: number;
  progressDeadlineSeconds?: number;
  status?: Record<string, unknown>;
}

export function deployment(f: DeploymentFixture): ApiObject {
  const type = f.type ?? 'RollingUpdate';
  return {
    metadata: { name: 'web', namespace: 'ns', uid: 'd-uid', generation: f.generation ?? 1 },
    spec: {
      replicas: f.replicas,
      strategy: type === 'RollingUpdate' ? { type, rollingUpdate: { maxSurge: f.surge ?? '25%', maxUnavailable: f.unavailable ?? '25%' } } : { type },
      ...(f.progressDeadlineSeconds !== undefined ? { progressDeadlineSeconds: f.progressDeadlineSeconds } : {}),
    },
    status: f.status ?? {},
  };
}

export interface RSFixture {
  name: string;
  replicas: number;
  available?: number;
  /** status.replicas (default: replicas). */
  actual?: number;
  ready?: number;
  /** seconds after the epoch, for the age orders. */
  created?: number;
  annotations?: Record<string, string>;
}

export function replicaSet(f: RSFixture): ApiObject {
  return {
    metadata: {
      name: f.name, namespace: 'ns', uid: `${f.name}-uid`, creationTimestamp: new Date((f.created ?? 0) * 1000).toISOString(),
      ...(f.annotations ? { annotations: { ...f.annotations } } : {}),
    },
    spec: { replicas: f.replicas },
    status: { replicas: f.actual ?? f.replicas, availableReplicas: f.available ?? 0, readyReplicas: f.ready ?? f.available ?? 0 },
  };
}

/** A Scaler writing into copies and remembering `name=replicas` per write. */
export function recordingScaler(d: ApiObject): Scaler & { readonly writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    async scale(rs, replicas) {
      const next = structuredClone(rs);
      const resized = (next.spec as { replicas: number }).replicas !== replicas;
      (next.spec as { replicas: number }).replicas = replicas;
      setReplicasAnnotations(next, desiredReplicas(d), desiredReplicas(d) + maxSurge(d));
      writes.push(`${rs.metadata.name}=${replicas}`);
      return { scaled: resized, rs: next };
    },
  };
}
