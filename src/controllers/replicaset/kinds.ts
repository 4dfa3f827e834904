// The two kinds the replica-set controller manages (kube runs the
// ReplicationController through the ReplicaSet code): where each lives, its
// selector as a LabelSelector, and who acts for it.
import type { ApiObject } from '../../registry/object.js';
import type { Target } from '../client.js';

export interface ReplicaKind {
  readonly target: Target;
  readonly apiVersion: string;
  readonly kind: string;
  /** kube's service account and event source component. */
  readonly serviceAccount: string;
  readonly component: string;
  /** A LabelSelector, or undefined when the object selects nothing. */
  selector(obj: ApiObject): unknown;
}

const specOf = (o: ApiObject) => (o.spec ?? {}) as { selector?: unknown };

export const REPLICA_SET: ReplicaKind = {
  target: { group: 'apps', version: 'v1', resource: 'replicasets' },
  apiVersion: 'apps/v1', kind: 'ReplicaSet',
  serviceAccount: 'replicaset-controller', component: 'replicaset-controller',
  selector: (o) => specOf(o).selector ?? undefined,
};

export const REPLICATION_CONTROLLER: ReplicaKind = {
  target: { group: '', version: 'v1', resource: 'replicationcontrollers' },
  apiVersion: 'v1', kind: 'ReplicationController',
  serviceAccount: 'replication-controller', component: 'replication-controller',
  // a map selector; an empty one selects everything (labels.Set.AsSelector)
  selector: (o) => ({ matchLabels: (specOf(o).selector as Record<string, string> | undefined) ?? {} }),
};
