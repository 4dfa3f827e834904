// One pass of a StatefulSet over its pods (kube's updateStatefulSet in
// stateful_set_control.go), written against a StatefulPodControl so the
// ordering can be tested without a server:
//
//   pods ─► replicas[start..end] (missing ones planned at their revision)
//        └► condemned (ordinal out of range), highest ordinal first
//   1. each replica: failed or succeeded → deleted (made again once gone); missing → create (claims first);
//      OrderedReady stops at the first not Running+Ready+Available one
//   2. condemned claims' owner references fixed (retention policy)
//   3. condemned deleted, highest first; OrderedReady waits for each to go
//      and deletes an unhealthy one only if it is the first unhealthy pod
//   4. RollingUpdate: from the highest ordinal down to the partition, the
//      first pod not at the update revision is deleted (recreated next pass);
//      an unhealthy updated pod blocks. OnDelete: nothing.
//
// OrderedReady ("monotonic") runs the steps one pod at a time and stops at
// the first that blocks; Parallel runs them in growing parallel batches.
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { scaledValue } from '../deployment/replicas.js';
import {
  newVersionedPod, ordinalOf, ordinalRange, podRevision, specOf, identityMatches, storageMatches, type SetStatus,
} from './identity.js';
import {
  countReplicas, isCreated, isFailed, isHealthy, isSucceeded, isPending, isRunningAndAvailable, isRunningAndReady, isTerminating,
} from './status.js';

export interface StatefulPodControl {
  /** Claims first (events per claim), then the pod; the claims' owner references per the retention policy. */
  createPod(set: ApiObject, pod: ApiObject): Promise<void>;
  /** Writes the pod's identity, storage and claim references where they differ from the set's. */
  updatePod(set: ApiObject, pod: ApiObject): Promise<void>;
  deletePod(set: ApiObject, pod: ApiObject): Promise<void>;
  createMissingClaims(set: ApiObject, pod: ApiObject): Promise<void>;
  claimsMatchRetentionPolicy(set: ApiObject, pod: ApiObject): boolean;
  updateClaimsForRetentionPolicy(set: ApiObject, pod: ApiObject): Promise<void>;
  podClaimIsStale(set: ApiObject, pod: ApiObject): boolean;
  event(set: ApiObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export interface UpdateInput {
  readonly set: ApiObject;
  /** The set at the current and at the update revision (kube's ApplyRevision). */
  readonly currentSet: ApiObject;
  readonly updateSet: ApiObject;
  readonly currentRevision: string;
  readonly updateRevision: string;
  readonly collisionCount: number;
  readonly pods: readonly ApiObject[];
  readonly ref: OwnerReference;
  readonly now: number;
  readonly gates: { readonly startOrdinal: boolean; readonly autoDeletePVC: boolean; readonly maxUnavailable?: boolean };
}

export interface UpdateResult {
  readonly status: SetStatus;
  readonly error?: unknown;
}

type Step = (i: number) => Promise<boolean>;

/** kube's runForAll: in order, stopping at the first that blocks (monotonic), or in parallel batches of 1, 2, 4… (stopping at an error). */
async function runForAll(count: number, fn: Step, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (let i = 0; i < count; i++) if (await fn(i)) return true;
    return false;
  }
  let next = 0;
  for (let batch = Math.min(1, count); batch > 0; batch = Math.min(2 * batch, count - next)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, (_, k) => fn(next + k)));
    next += batch;
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
  return false;
}

export async function updateStatefulSet(ctl: StatefulPodControl, input: UpdateInput): Promise<UpdateResult> {
  const { set, currentSet, updateSet, currentRevision, updateRevision, now, gates } = input;
  const minReady = specOf(set).minReadySeconds ?? 0;
  const counts = (...lists: ApiObject[][]) => countReplicas({ minReadySeconds: minReady, now, currentRevision, updateRevision }, ...lists);
  const status: SetStatus = {
    observedGeneration: set.metadata.generation ?? 0, currentRevision, updateRevision, collisionCount: input.collisionCount,
    ...counts([...input.pods]),
  };
  const { start, end } = ordinalRange(set, gates.startOrdinal);
  const replicas: ApiObject[] = new Array(Math.max(0, end - start + 1));
  const condemned: ApiObject[] = [];
  for (const pod of input.pods) {
    const o = ordinalOf(pod);
    if (o >= start && o <= end) replicas[o - start] = pod;
    else if (o >= 0) condemned.push(pod);
  }
  const planned = (ord: number) => newVersionedPod({ currentSet, updateSet, currentRevision, updateRevision, ordinal: ord, ref: input.ref });
  for (let ord = start; ord <= end; ord++) replicas[ord - start] ??= planned(ord);
  condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));

  let firstUnhealthy: ApiObject | undefined;
  for (const p of replicas) if (!isHealthy(p)) firstUnhealthy ??= p;
  for (let i = condemned.length - 1; i >= 0; i--) if (!isHealthy(condemned[i]!)) firstUnhealthy ??= condemned[i];

  const finish = (error?: unknown): UpdateResult => {
    Object.assign(status, counts(replicas, condemned));
    return error === undefined ? { status } : { status, error };
  };
  if (set.metadata.deletionTimestamp) return { status };

  const monotonic = specOf(set).podManagementPolicy !== 'Parallel';
  const processReplica: Step = async (i) => {
    const pod = replicas[i]!;
    // A finished pod is deleted, Succeeded too (kube 1.27.7's fix: an evicted pod whose containers exit 0
    // ends Succeeded), and made again once it is gone. A terminating pod that ended (a kubelet makes a
    // pod's phase terminal before it lets it go) is only waited for: kube 1.27.0 deleted and re-created
    // it on every pass (RecreatingFailedPod events and AlreadyExists errors at each rolling update step,
    // fixed in kube 1.30), which we do not copy.
    if (isFailed(pod) || isSucceeded(pod)) {
      if (!isTerminating(pod)) {
        const who = `StatefulSet ${set.metadata.namespace}/${set.metadata.name}`;
        if (isFailed(pod)) ctl.event(set, 'Warning', 'RecreatingFailedPod', `${who} is recreating failed Pod ${pod.metadata.name}`);
        else ctl.event(set, 'Normal', 'RecreatingTerminatedPod', `${who} is recreating terminated Pod ${pod.metadata.name}`);
        await ctl.deletePod(set, pod);
      }
      return true;
    }
    if (!isCreated(pod)) {
      if (gates.autoDeletePVC && ctl.podClaimIsStale(set, pod)) return true;
      await ctl.createPod(set, pod);
      return monotonic;
    }
    if (isPending(pod)) await ctl.createMissingClaims(set, pod);
    if (monotonic && (isTerminating(pod) || !isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))) return true;
    const retentionMatch = gates.autoDeletePVC ? ctl.claimsMatchRetentionPolicy(updateSet, pod) : true;
    if (identityMatches(set, pod) && storageMatches(set, pod) && retentionMatch) return false;
    await ctl.updatePod(updateSet, structuredClone(pod));
    return false;
  };
  try {
    if (await runForAll(replicas.length, processReplica, monotonic)) return finish();
    if (gates.autoDeletePVC) {
      const fixClaims: Step = async (i) => {
        if (!ctl.claimsMatchRetentionPolicy(updateSet, condemned[i]!)) await ctl.updateClaimsForRetentionPolicy(updateSet, condemned[i]!);
        return false;
      };
      if (await runForAll(condemned.length, fixClaims, monotonic)) return finish();
    }
    const processCondemned: Step = async (i) => {
      const pod = condemned[i]!;
      if (isTerminating(pod)) return monotonic;
      if (monotonic && pod !== firstUnhealthy && (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))) return true;
      await ctl.deletePod(set, pod);
      return monotonic;
    };
    if (await runForAll(condemned.length, processCondemned, monotonic)) return finish();
  } catch (err) {
    return finish(err);
  }
  finish();
  const strategy = specOf(set).updateStrategy;
  if (strategy?.type === 'OnDelete') return { status };
  if (gates.maxUnavailable) return rollWithMaxUnavailable(ctl, set, replicas, updateRevision, status);
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  for (let target = replicas.length - 1; target >= partition; target--) {
    const pod = replicas[target]!;
    if (podRevision(pod) !== updateRevision && !isTerminating(pod)) {
      try {
        await ctl.deletePod(set, pod);
      } catch (err) {
        if (!isNotFound(err)) return { status, error: err };
      }
      status.currentReplicas--;
      return { status };
    }
    if (!isHealthy(pod)) return { status };
  }
  return { status };
}

/** rollingUpdate.maxUnavailable against the replicas, rounded down, at least 1 (kube's getStatefulSetMaxUnavailable). */
export function maxUnavailableOf(set: ApiObject): number {
  const v = specOf(set).updateStrategy?.rollingUpdate?.maxUnavailable ?? 1;
  return Math.max(1, scaledValue(v, specOf(set).replicas ?? 1, false));
}

/**
 * The rolling update under MaxUnavailableStatefulSet (kube's
 * updateStatefulSetAfterInvariantEstablished): with fewer than maxUnavailable
 * replicas unhealthy, up to the difference of the highest-ordinal pods not at
 * the update revision (down to the partition) are deleted at once.
 */
async function rollWithMaxUnavailable(ctl: StatefulPodControl, set: ApiObject, replicas: ApiObject[], updateRevision: string, status: SetStatus): Promise<UpdateResult> {
  const partition = specOf(set).updateStrategy?.rollingUpdate?.partition ?? 0;
  let maxUnavailable: number;
  try {
    maxUnavailable = specOf(set).updateStrategy?.rollingUpdate ? maxUnavailableOf(set) : 1;
  } catch (err) {
    return { status, error: err };
  }
  const unavailable = replicas.filter((p) => !isHealthy(p)).length;
  if (unavailable >= maxUnavailable) return { status };
  let deleted = 0;
  for (let target = replicas.length - 1; target >= partition && deleted < maxUnavailable - unavailable; target--) {
    const pod = replicas[target]!;
    if (podRevision(pod) === updateRevision || isTerminating(pod)) continue;
    try {
      await ctl.deletePod(set, pod);
    } catch (err) {
      if (!isNotFound(err)) return { status, error: err };
    }
    deleted++;
    status.currentReplicas--;
  }
  return { status };
}

const isNotFound = (err: unknown) => (err as { status?: { reason?: string } } | undefined)?.status?.reason === 'NotFound';
