// One pass of a StatefulSet over its pods (kube's updateStatefulSet in
// stateful_set_control.go), written against a StatefulPodControl so the
// ordering can be tested without a server:
//
//   pods ─► replicas[start..end] (missing ones planned at their revision)
//        └► condemned (ordinal out of range), highest ordinal first
//   1. each replica: failed → recreate; missing → create (claims first);
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
import {
  newVersionedPod, ordinalOf, ordinalRange, podRevision, specOf, identityMatches, storageMatches, type SetStatus,
} from './identity.js';
import {
  countReplicas, isCreated, isFailed, isHealthy, isPending, isRunningAndAvailable, isRunningAndReady, isTerminating,
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
  readonly gates: { readonly startOrdinal: boolean; readonly autoDeletePVC: boolean };
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
    let pod = replicas[i]!;
    if (isFailed(pod)) {
      ctl.event(set, 'Warning', 'RecreatingFailedPod', `StatefulSet ${set.metadata.namespace}/${set.metadata.name} is recreating failed Pod ${pod.metadata.name}`);
      await ctl.deletePod(set, pod);
      pod = replicas[i] = planned(i + start);
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

const isNotFound = (err: unknown) => (err as { status?: { reason?: string } } | undefined)?.status?.reason === 'NotFound';
