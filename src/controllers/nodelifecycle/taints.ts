// Taints as the node lifecycle controller and its taint manager read them:
// the well-known node taints (this repo's node.svc.io/ spelling), what a
// node's conditions call for, and a pod's smallest tolerationSeconds. Whether
// a toleration tolerates a taint is src/api/core/v1/taints.ts (both spellings
// of node taint keys alike).
import { isObject } from '../../registry/object.js';
import { canonicalTaintKey, taintsOf, toleratesTaint, type Taint } from '../../api/core/v1/taints.js';

export { canonicalTaintKey, taintsOf, toleratesTaint, type Taint };

type Json = Record<string, unknown>;

export const NODE_TAINT = {
  notReady: 'node.svc.io/not-ready',
  unreachable: 'node.svc.io/unreachable',
  unschedulable: 'node.svc.io/unschedulable',
  memoryPressure: 'node.svc.io/memory-pressure',
  diskPressure: 'node.svc.io/disk-pressure',
  pidPressure: 'node.svc.io/pid-pressure',
  networkUnavailable: 'node.svc.io/network-unavailable',
} as const;

/**
 * For a pod's tolerations and a node's NoExecute taints: -1 when every taint
 * is tolerated forever, the smallest tolerationSeconds (0 or more) when every
 * taint is tolerated for a while, undefined when some taint is not tolerated
 * (kube's getMinTolerationTime / GetMatchingTolerations).
 */
export function minTolerationSeconds(tolerations: readonly Json[], taints: readonly Taint[]): number | undefined {
  let min = -1;
  for (const taint of taints) {
    const matching = tolerations.filter((t) => toleratesTaint(t, taint));
    if (matching.length === 0) return undefined;
    for (const t of matching) {
      if (typeof t.tolerationSeconds !== 'number') continue;
      const s = Math.max(0, t.tolerationSeconds);
      if (min < 0 || s < min) min = s;
    }
  }
  return min;
}

/** The NoSchedule taints a node's conditions and spec call for (kube's nodeConditionToTaintKeyStatusMap + unschedulable). */
export function wantedNoScheduleTaints(node: Json): string[] {
  const out: string[] = [];
  for (const c of conditionsOf(node)) {
    if (c.type === 'Ready' && c.status === 'False') out.push(NODE_TAINT.notReady);
    if (c.type === 'Ready' && c.status === 'Unknown') out.push(NODE_TAINT.unreachable);
    if (c.type === 'MemoryPressure' && c.status === 'True') out.push(NODE_TAINT.memoryPressure);
    if (c.type === 'DiskPressure' && c.status === 'True') out.push(NODE_TAINT.diskPressure);
    if (c.type === 'PIDPressure' && c.status === 'True') out.push(NODE_TAINT.pidPressure);
    if (c.type === 'NetworkUnavailable' && c.status === 'True') out.push(NODE_TAINT.networkUnavailable);
  }
  const spec = isObject(node.spec) ? node.spec : {};
  if (spec.unschedulable === true) out.push(NODE_TAINT.unschedulable);
  return out;
}

/** The keys the controller owns with the NoSchedule effect. */
export const MANAGED_NO_SCHEDULE = new Set<string>(Object.values(NODE_TAINT));

export function conditionsOf(node: Json): Json[] {
  const status = isObject(node.status) ? node.status : {};
  return (Array.isArray(status.conditions) ? status.conditions : []).filter(isObject);
}

/** The node's Ready condition status ('True', 'False', 'Unknown'), undefined when it has none yet. */
export function readyStatus(node: Json): string | undefined {
  const c = conditionsOf(node).find((x) => x.type === 'Ready');
  return typeof c?.status === 'string' ? c.status : undefined;
}
