// Which nodes run a DaemonSet's pod (kube's NodeShouldRunDaemonPod): the pod
// the DaemonSet would make for the node — its template with the daemon
// tolerations — is checked as the scheduler's filters would:
//
//   template nodeName set to another node  → neither run nor keep running
//   nodeSelector / required node affinity  → neither, when they do not match
//   an untolerated NoSchedule or NoExecute taint
//                                          → do not start a pod there; keep a
//                                            running one unless a NoExecute
//                                            taint is untolerated
//   otherwise                              → run, and keep running
//
// Taints in either spelling (node.kubernetes.io/, node.svc.io/) are matched
// alike (src/api/core/v1/taints.ts); node selection is the scheduler's
// (src/scheduler/nodeselector.ts).
import { isObject, type ApiObject } from '../../registry/object.js';
import { taintsOf, toleratesTaint, type Taint } from '../../api/core/v1/taints.js';
import { podMatchesNodeSelectorAndAffinity } from '../../scheduler/nodeselector.js';
import { addDaemonPodTolerations, type Toleration } from './tolerations.js';

export interface Placement {
  /** A daemon pod should be started on the node if none is there. */
  readonly shouldRun: boolean;
  /** A daemon pod already on the node may stay. */
  readonly shouldContinueRunning: boolean;
}

type Obj = Record<string, unknown>;

const templateOf = (ds: ApiObject): Obj => {
  const spec = isObject(ds.spec) ? ds.spec : {};
  return isObject(spec.template) ? spec.template : {};
};

/** kube's NewPod: the DaemonSet's pod for the node, with the daemon tolerations (not the node-name affinity). */
export function newDaemonPod(ds: ApiObject, nodeName: string): ApiObject {
  const template = templateOf(ds);
  const meta = (isObject(template.metadata) ? template.metadata : {}) as ApiObject['metadata'];
  const spec = structuredClone(isObject(template.spec) ? template.spec : {}) as Obj;
  spec.nodeName = nodeName;
  addDaemonPodTolerations(spec);
  return { metadata: { ...meta, namespace: ds.metadata.namespace }, spec };
}

/** The first taint with an accepted effect that no toleration tolerates (kube's FindMatchingUntoleratedTaint). */
function untolerated(taints: readonly Taint[], tolerations: readonly Toleration[], effects: readonly string[]): Taint | undefined {
  return taints.find((t) => effects.includes(t.effect) && !tolerations.some((tol) => toleratesTaint(tol, t)));
}

export function nodeShouldRunDaemonPod(node: ApiObject, ds: ApiObject): Placement {
  const templateSpec = isObject(templateOf(ds).spec) ? templateOf(ds).spec as Obj : {};
  const wanted = typeof templateSpec.nodeName === 'string' ? templateSpec.nodeName : '';
  if (wanted !== '' && wanted !== node.metadata.name) return { shouldRun: false, shouldContinueRunning: false };
  const pod = newDaemonPod(ds, node.metadata.name!);
  if (!podMatchesNodeSelectorAndAffinity(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = ((pod.spec as Obj).tolerations ?? []) as Toleration[];
  const taints = taintsOf(node);
  if (untolerated(taints, tolerations, ['NoSchedule', 'NoExecute'])) {
    return { shouldRun: false, shouldContinueRunning: !untolerated(taints, tolerations, ['NoExecute']) };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}
