// How a Deployment moves its ReplicaSets (kube's rolling.go, sync.go scale,
// recreate.go), written against a Scaler so the steps can be checked without
// a server:
//   RollingUpdate: grow the new ReplicaSet up to replicas + maxSurge pods in
//     all; shrink old ones — unhealthy replicas first — while at least
//     replicas - maxUnavailable stay available.
//   a resize mid-rollout: spread the difference over the active ReplicaSets
//     in proportion to their size (kube's scale, GetProportion).
//   Recreate: old ReplicaSets to 0, then the new one to replicas.
import type { ApiObject } from '../../registry/object.js';
import {
  activeReplicaSets, availableReplicas, byCreation, bySizeNewer, bySizeOlder, desiredReplicas, findActiveOrLatest, isRollingUpdate,
  isSaturated, maxSurge, maxUnavailable, newRSNewReplicas, proportion, specReplicas, totalAvailableWithinSpec, totalSpecReplicas,
} from './replicas.js';

export type ScalingOperation = 'up' | 'down' | '';

/** Writes a ReplicaSet's replicas (and its desired/max annotations), recording the Event when the size changed. */
export interface Scaler {
  scale(rs: ApiObject, replicas: number, operation: ScalingOperation): Promise<{ scaled: boolean; rs: ApiObject }>;
}

/** kube's scaleReplicaSetAndRecordEvent: nothing when the size is already right. */
export async function scaleTo(s: Scaler, rs: ApiObject, replicas: number): Promise<{ scaled: boolean; rs: ApiObject }> {
  if (specReplicas(rs) === replicas) return { scaled: false, rs };
  return s.scale(rs, replicas, specReplicas(rs) < replicas ? 'up' : 'down');
}

/** Grows (or shrinks to replicas) the new ReplicaSet; whether it scaled. */
export async function reconcileNewReplicaSet(s: Scaler, d: ApiObject, allRSs: readonly ApiObject[], newRS: ApiObject): Promise<boolean> {
  const desired = desiredReplicas(d);
  if (specReplicas(newRS) === desired) return false;
  if (specReplicas(newRS) > desired) return (await scaleTo(s, newRS, desired)).scaled;
  return (await scaleTo(s, newRS, newRSNewReplicas(d, allRSs, newRS))).scaled;
}

/** Shrinks old ReplicaSets as far as availability allows; whether any scaled. */
export async function reconcileOldReplicaSets(s: Scaler, d: ApiObject, allRSs: readonly ApiObject[], oldRSs: ApiObject[], newRS: ApiObject): Promise<boolean> {
  const oldPods = totalSpecReplicas(oldRSs);
  if (oldPods === 0) return false;
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const newUnavailable = specReplicas(newRS) - availableReplicas(newRS);
  const maxScaledDown = totalSpecReplicas(allRSs) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  const cleaned = await cleanupUnhealthyReplicas(s, oldRSs, maxScaledDown);
  const scaledDown = await scaleDownOldForRollingUpdate(s, d, [...oldRSs, newRS], oldRSs);
  return cleaned + scaledDown > 0;
}

/** Removes old replicas that are not available, oldest ReplicaSets first, up to `max` (updates oldRSs in place). */
export async function cleanupUnhealthyReplicas(s: Scaler, oldRSs: ApiObject[], max: number): Promise<number> {
  oldRSs.sort(byCreation);
  let total = 0;
  for (let i = 0; i < oldRSs.length && total < max; i++) {
    const rs = oldRSs[i]!;
    const unhealthy = specReplicas(rs) - availableReplicas(rs);
    if (specReplicas(rs) === 0 || unhealthy <= 0) continue;
    const n = Math.min(max - total, unhealthy);
    oldRSs[i] = (await scaleTo(s, rs, specReplicas(rs) - n)).rs;
    total += n;
  }
  return total;
}

/**
 * Shrinks old ReplicaSets, oldest first, by as many as are available beyond
 * the minimum. A ReplicaSet counts at most its replicas: right after it was
 * shrunk its status still counts the pods being removed, and kube's sum would
 * then let a second step remove them again — below replicas - maxUnavailable.
 */
export async function scaleDownOldForRollingUpdate(s: Scaler, d: ApiObject, allRSs: readonly ApiObject[], oldRSs: ApiObject[]): Promise<number> {
  const minAvailable = desiredReplicas(d) - maxUnavailable(d);
  const available = totalAvailableWithinSpec(allRSs);
  if (available <= minAvailable) return 0;
  oldRSs.sort(byCreation);
  const want = available - minAvailable;
  let total = 0;
  for (const rs of oldRSs) {
    if (total >= want) break;
    if (specReplicas(rs) === 0) continue;
    const n = Math.min(specReplicas(rs), want - total);
    await scaleTo(s, rs, specReplicas(rs) - n);
    total += n;
  }
  return total;
}

/**
 * A resize of the Deployment (kube's scale): the one active ReplicaSet (or
 * the newest) takes the new size; a saturated new ReplicaSet leaves the old
 * ones at 0; otherwise, with RollingUpdate, the difference is spread in
 * proportion over the active ReplicaSets, leftovers to the largest.
 */
export async function scaleDeployment(s: Scaler, d: ApiObject, newRS: ApiObject | undefined, oldRSs: readonly ApiObject[], deploymentStatusReplicas: number): Promise<void> {
  const desired = desiredReplicas(d);
  const only = findActiveOrLatest(newRS, oldRSs);
  if (only) {
    if (specReplicas(only) !== desired) await scaleTo(s, only, desired);
    return;
  }
  if (isSaturated(d, newRS)) {
    for (const old of activeReplicaSets(oldRSs)) await scaleTo(s, old, 0);
    return;
  }
  if (!isRollingUpdate(d)) return;
  const all = activeReplicaSets([...oldRSs, newRS]);
  const allowed = desired > 0 ? desired + maxSurge(d) : 0;
  const toAdd = allowed - totalSpecReplicas(all);
  let operation: ScalingOperation = '';
  if (toAdd > 0) {
    all.sort(bySizeNewer);
    operation = 'up';
  } else if (toAdd < 0) {
    all.sort(bySizeOlder);
    operation = 'down';
  }
  let added = 0;
  const sizes = new Map<ApiObject, number>();
  for (const rs of all) {
    const p = toAdd !== 0 ? proportion(rs, d, toAdd, added, deploymentStatusReplicas) : 0;
    sizes.set(rs, specReplicas(rs) + p);
    added += p;
  }
  for (let i = 0; i < all.length; i++) {
    const rs = all[i]!;
    if (i === 0 && toAdd !== 0) sizes.set(rs, Math.max(0, sizes.get(rs)! + toAdd - added));
    await s.scale(rs, sizes.get(rs)!, operation);
  }
}
