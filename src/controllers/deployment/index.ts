// The deployment controller (kube-controller-manager's `deployment`):
// controller.ts runs it (events → queue → sync decisions), writes.ts makes its
// API writes; the rollout steps (rolling.ts), their arithmetic
// (replicas.ts), the annotations (annotations.ts), the pod-template-hash
// (hash.ts), conditions and status (conditions.ts, status.ts) are pure
// modules with table tests beside them.
import type { Controller, ControllerContext } from '../context.js';
import { DeploymentController, type DeploymentControllerOptions } from './controller.js';

export { DeploymentController, type DeploymentControllerOptions } from './controller.js';

/** kube's `deployment` controller. */
export function startDeploymentController(ctx: ControllerContext, opts?: DeploymentControllerOptions): Controller {
  return new DeploymentController(ctx, opts);
}
