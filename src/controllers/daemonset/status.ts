// A DaemonSet's status from its nodes and pods (kube's
// updateDaemonSetStatus): on each node that should run the daemon
// (desiredNumberScheduled) with a pod (currentNumberScheduled) the oldest pod
// counts as ready, available (Ready for minReadySeconds) and updated (current
// hash or template generation); a pod on a node that should not run it is
// misscheduled; numberUnavailable = desired − available. observedGeneration
// rises only when the sync managed pods (its expectations were met).
import type { ApiObject } from '../../registry/object.js';
import { isPodAvailable, isPodReady } from '../replicaset/pods.js';
import { compareByCreation } from './nodepods.js';
import { isPodUpdated } from './podtemplate.js';

export interface DaemonCounts {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
}

export interface StatusInput {
  readonly shouldRun: ReadonlyMap<string, boolean>;
  readonly podsByNode: ReadonlyMap<string, readonly ApiObject[]>;
  readonly hash: string;
  readonly generation: bigint | undefined;
  readonly minReadySeconds: number;
  readonly now: number;
}

export function daemonCounts(input: StatusInput): DaemonCounts {
  const c: DaemonCounts = {
    desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0,
    updatedNumberScheduled: 0, numberAvailable: 0, numberUnavailable: 0,
  };
  for (const [node, run] of input.shouldRun) {
    const pods = input.podsByNode.get(node) ?? [];
    if (!run) {
      if (pods.length > 0) c.numberMisscheduled++;
      continue;
    }
    c.desiredNumberScheduled++;
    if (pods.length === 0) continue;
    c.currentNumberScheduled++;
    const pod = [...pods].sort(compareByCreation)[0]!;
    if (isPodReady(pod)) {
      c.numberReady++;
      if (isPodAvailable(pod, input.minReadySeconds, input.now)) c.numberAvailable++;
    }
    if (isPodUpdated(pod, input.hash, input.generation)) c.updatedNumberScheduled++;
  }
  c.numberUnavailable = c.desiredNumberScheduled - c.numberAvailable;
  return c;
}

/** Whether the stored status already says this (kube's storeDaemonSetStatus short cut). */
export function statusUpToDate(ds: ApiObject, counts: DaemonCounts): boolean {
  const s = (ds.status ?? {}) as Partial<DaemonCounts> & { observedGeneration?: number };
  const same = (Object.keys(counts) as (keyof DaemonCounts)[]).every((k) => (s[k] ?? 0) === counts[k]);
  return same && (s.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0);
}
