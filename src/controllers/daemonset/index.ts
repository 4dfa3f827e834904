// The daemon-set controller (kube-controller-manager's `daemonset`): one
// pod of each DaemonSet on every node that should run it. controller.ts runs
// it (events → queue → sync), podcontrol.ts creates and deletes its pods
// (expectations, slow start, Events); the decisions are pure
// modules with table tests beside them: which nodes (placement.ts, with the
// daemon tolerations of tolerations.ts), what to do on one node
// (nodepods.ts, failed-pod back-off in backoff.ts), the rolling update
// (rolling.ts), the pods' template (podtemplate.ts), the status (status.ts);
// revisions.ts keeps the ControllerRevision history kubectl rollout reads.
import type { Controller, ControllerContext } from '../context.js';
import { DaemonSetController, type DaemonSetControllerOptions } from './controller.js';

export { DaemonSetController, type DaemonSetControllerOptions } from './controller.js';

/** kube's `daemonset` controller. */
export function startDaemonSetController(ctx: ControllerContext, opts?: DaemonSetControllerOptions): Controller {
  return new DaemonSetController(ctx, opts);
}
