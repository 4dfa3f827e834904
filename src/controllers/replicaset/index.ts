// ReplicaSet and ReplicationController controllers (kube-controller-manager's
// `replicaset` and `replicationcontroller`): one implementation
// (controller.ts) over two kinds (kinds.ts). The pieces — expectations,
// slow-start batches, deletion ranking, status, ControllerRef claims — are
// one module each; the deployment controller reuses the claims and the pod
// helpers.
import type { Controller, ControllerContext } from '../context.js';
import { ReplicaSetController, type ReplicaSetControllerOptions } from './controller.js';
import { REPLICATION_CONTROLLER, REPLICA_SET } from './kinds.js';

export { ReplicaSetController, type ReplicaSetControllerOptions } from './controller.js';

/** kube's `replicaset` controller. */
export function startReplicaSetController(ctx: ControllerContext, opts?: ReplicaSetControllerOptions): Controller {
  return new ReplicaSetController(ctx, REPLICA_SET, opts);
}

/** kube's `replicationcontroller` controller. */
export function startReplicationController(ctx: ControllerContext, opts?: ReplicaSetControllerOptions): Controller {
  return new ReplicaSetController(ctx, REPLICATION_CONTROLLER, opts);
}
