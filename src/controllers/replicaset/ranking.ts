// Which pods a controller deletes first when it scales down (kube v1.27's
// ActivePodsWithRanks with the PodDeletionCost and LogarithmicScaleDown
// gates on, their defaults): earlier in the order is deleted first.
//
//   1. unassigned < assigned            5. more pods of the family on its node < fewer
//   2. Pending < Unknown < Running      6. ready for less time < longer (log2 buckets)
//   3. not ready < ready                7. more container restarts < fewer
//   4. lower pod-deletion-cost < higher 8. newer < older (log2 buckets), then UID
import type { ApiObject } from '../../registry/object.js';
import { isPodActive, isPodReady, maxContainerRestarts, nodeNameOf, phaseOf, readySince } from './pods.js';

export const DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const phaseOrdinal = (p: ApiObject) => PHASE_ORDINAL[phaseOf(p)] ?? 0;

/** The pod-deletion-cost annotation as kube reads it (an int32; anything else counts as 0). */
export function deletionCost(pod: ApiObject): number {
  const v = pod.metadata.annotations?.[DELETION_COST_ANNOTATION];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

/** floor(log2(now - t)) in nanoseconds, -1 when t is not in the past (kube's logarithmicRankDiff terms). */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

export interface RankedPod {
  readonly pod: ApiObject;
  /** How many active pods of the controller's family share its node. */
  readonly rank: number;
}

const created = (p: ApiObject) => (p.metadata.creationTimestamp ? Date.parse(p.metadata.creationTimestamp) : undefined);

const byUid = (a: ApiObject, b: ApiObject) => {
  const ua = a.metadata.uid ?? '';
  const ub = b.metadata.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
};

/**
 * Two different times: a missing one first, then the younger (kube's
 * afterOrZero), compared in log2 buckets of age; within one bucket the UID
 * decides. Undefined when the times are equal (the next rule decides).
 */
function compareAges(a: ApiObject, ta: number | undefined, b: ApiObject, tb: number | undefined, now: number): number | undefined {
  if (ta === tb) return undefined;
  if (ta === undefined) return -1;
  if (tb === undefined) return 1;
  const diff = logRank(ta, now) - logRank(tb, now);
  return diff !== 0 ? diff : byUid(a, b);
}

/** Negative when `a` should be deleted before `b`. */
export function compareForDeletion(a: RankedPod, b: RankedPod, now: number): number {
  const pa = a.pod;
  const pb = b.pod;
  const na = nodeNameOf(pa);
  const nb = nodeNameOf(pb);
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  if (phaseOrdinal(pa) !== phaseOrdinal(pb)) return phaseOrdinal(pa) - phaseOrdinal(pb);
  if (isPodReady(pa) !== isPodReady(pb)) return isPodReady(pa) ? 1 : -1;
  if (deletionCost(pa) !== deletionCost(pb)) return deletionCost(pa) - deletionCost(pb);
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (isPodReady(pa) && isPodReady(pb)) {
    const d = compareAges(pa, readySince(pa), pb, readySince(pb), now);
    if (d !== undefined) return d;
  }
  if (maxContainerRestarts(pa) !== maxContainerRestarts(pb)) return maxContainerRestarts(pb) - maxContainerRestarts(pa);
  return compareAges(pa, created(pa), pb, created(pb), now) ?? 0;
}

/**
 * The `n` pods to delete (kube's getPodsToDelete): ranked by how many of
 * `related` (the active pods of the controller's family, itself included) share
 * their node, then ordered by compareForDeletion.
 */
export function podsToDelete(pods: readonly ApiObject[], related: readonly ApiObject[], n: number, now: number): ApiObject[] {
  if (n >= pods.length) return [...pods];
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(nodeNameOf(p), (onNode.get(nodeNameOf(p)) ?? 0) + 1);
  const ranked = pods.map((pod) => ({ pod, rank: onNode.get(nodeNameOf(pod)) ?? 0 }));
  ranked.sort((a, b) => compareForDeletion(a, b, now));
  return ranked.slice(0, n).map((r) => r.pod);
}
