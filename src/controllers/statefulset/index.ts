// The StatefulSet controller (kube-controller-manager's `statefulset`):
// controller.ts runs it (events → queue → sync, revisions, status, history),
// control.ts is one pass over the pods (ordering, scaling, rolling update),
// podcontrol.ts its API writes and Events; identity.ts (pod names, labels,
// claims), retention.ts (PVC retention policy as owner references),
// revisions.ts (revision data and ApplyRevision) and status.ts are pure.
// ControllerRevision history is ../history/.
import type { Controller, ControllerContext } from '../context.js';
import { StatefulSetController, type StatefulSetControllerOptions } from './controller.js';

export { StatefulSetController, type StatefulSetControllerOptions } from './controller.js';

/** kube's `statefulset` controller. */
export function startStatefulSetController(ctx: ControllerContext, opts?: StatefulSetControllerOptions): Controller {
  return new StatefulSetController(ctx, opts);
}
