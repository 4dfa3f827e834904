// A DaemonSet's RollingUpdate step (kube's rollingUpdate and
// updatedDesiredNodeCounts), pure: which old pods to delete and on which
// nodes to start new pods, within maxUnavailable (percentages of the nodes
// that should run the daemon, rounded up) or maxSurge (likewise); both 0 →
// one unavailable.
//
//   maxSurge 0: an old pod that is not available is replaced at once (it
//     counts as unavailable); other old pods are deleted while the number
//     unavailable (nodes without a pod, with two pods, with a new pod not yet
//     available) stays under maxUnavailable. The manage step then creates the
//     new pods on the emptied nodes.
//   maxSurge > 0: a new pod is started beside an old one that is not
//     available at once, beside available old ones while fewer than maxSurge
//     new pods wait to become available; an old pod goes once the new one on
//     its node is available. Old pods on nodes that should no longer run the
//     daemon go only while more pods are available than desired.
//
// Nodes are visited in name order (kube ranges over a Go map).
import type { ApiObject } from '../../registry/object.js';
import { scaledValue, type IntOrString } from '../deployment/replicas.js';
import { isPodAvailable } from '../replicaset/pods.js';
import { isPodUpdated } from './podtemplate.js';

interface RollingSpec {
  updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
  minReadySeconds?: number;
}

const dsSpec = (ds: ApiObject) => (ds.spec ?? {}) as RollingSpec;
const rollingOf = (ds: ApiObject) => {
  const s = dsSpec(ds).updateStrategy;
  return s?.type === 'RollingUpdate' ? s.rollingUpdate : undefined;
};

/** kube's SurgeCount: 0 unless RollingUpdate with maxSurge; a percentage rounded up. Throws on a malformed value. */
export function surgeCount(ds: ApiObject, numberToSchedule: number): number {
  const r = rollingOf(ds);
  return r?.maxSurge === undefined ? 0 : scaledValue(r.maxSurge, numberToSchedule, true);
}

/** kube's UnavailableCount: 0 unless RollingUpdate; a percentage rounded up. Throws on a malformed value. */
export function unavailableCount(ds: ApiObject, numberToSchedule: number): number {
  const r = rollingOf(ds);
  return r === undefined ? 0 : scaledValue(r.maxUnavailable, numberToSchedule, true);
}

/** kube's AllowsSurge: more than one pod may share a node during an update. */
export function allowsSurge(ds: ApiObject): boolean {
  try {
    return surgeCount(ds, 1) > 0;
  } catch {
    return false;
  }
}

export interface RollingInput {
  readonly ds: ApiObject;
  /** Every node's name with whether it should run the daemon (kube's nodeShouldRunDaemonPod shouldRun). */
  readonly shouldRun: ReadonlyMap<string, boolean>;
  /** The DaemonSet's pods by target node. */
  readonly podsByNode: ReadonlyMap<string, readonly ApiObject[]>;
  readonly hash: string;
  readonly generation: bigint | undefined;
  readonly now: number;
}

export interface RollingLimits {
  readonly maxSurge: number;
  readonly maxUnavailable: number;
  readonly desired: number;
}

/** kube's updatedDesiredNodeCounts: the limits against the number of nodes that should run the daemon. */
export function rollingLimits(ds: ApiObject, shouldRun: ReadonlyMap<string, boolean>): RollingLimits {
  let desired = 0;
  for (const run of shouldRun.values()) if (run) desired++;
  let maxUnavailable: number;
  let maxSurge: number;
  try {
    maxUnavailable = unavailableCount(ds, desired);
  } catch (err) {
    throw new Error(`invalid value for MaxUnavailable: ${(err as Error).message}`);
  }
  try {
    maxSurge = surgeCount(ds, desired);
  } catch (err) {
    throw new Error(`invalid value for MaxSurge: ${(err as Error).message}`);
  }
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desired };
}

/** kube's findUpdatedPodsOnNode: the node's one new and one old pod (not being deleted); undefined when there are more of either. */
function updatedPodsOnNode(pods: readonly ApiObject[], hash: string, generation: bigint | undefined): { newPod?: ApiObject; oldPod?: ApiObject } | undefined {
  let newPod: ApiObject | undefined;
  let oldPod: ApiObject | undefined;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    if (isPodUpdated(p, hash, generation)) {
      if (newPod) return undefined;
      newPod = p;
    } else {
      if (oldPod) return undefined;
      oldPod = p;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}) };
}

export interface RollingStep {
  readonly deletePods: string[];
  readonly createOnNodes: string[];
}

export function rollingUpdateStep(input: RollingInput): RollingStep {
  const { ds, hash, generation, now } = input;
  const { maxSurge, maxUnavailable, desired } = rollingLimits(ds, input.shouldRun);
  const minReady = dsSpec(ds).minReadySeconds ?? 0;
  const available = (p: ApiObject) => isPodAvailable(p, minReady, now);
  // every node that should run the daemon is visited, with or without pods
  const nodes = new Map<string, readonly ApiObject[]>(input.podsByNode);
  for (const [name, run] of input.shouldRun) if (run && !nodes.has(name)) nodes.set(name, []);
  const names = [...nodes.keys()].sort();

  if (maxSurge === 0) {
    let numUnavailable = 0;
    const replacements: string[] = [];
    const candidates: string[] = [];
    for (const name of names) {
      const found = updatedPodsOnNode(nodes.get(name)!, hash, generation);
      if (!found) {
        numUnavailable++; // excess pods: the manage step prunes them
        continue;
      }
      const { newPod, oldPod } = found;
      if ((!oldPod && !newPod) || (oldPod && newPod)) numUnavailable++;
      else if (newPod) {
        if (!available(newPod)) numUnavailable++;
      } else if (!available(oldPod!)) {
        replacements.push(oldPod!.metadata.name!);
        numUnavailable++;
      } else if (numUnavailable < maxUnavailable) {
        candidates.push(oldPod!.metadata.name!);
      }
    }
    const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
    return { deletePods: [...replacements, ...candidates.slice(0, remaining)], createOnNodes: [] };
  }

  const deletePods: string[] = [];
  const shouldNotRun: string[] = [];
  const candidateNodes: string[] = [];
  const allowedNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const name of names) {
    const found = updatedPodsOnNode(nodes.get(name)!, hash, generation);
    if (!found) {
      numSurge++;
      continue;
    }
    const { newPod, oldPod } = found;
    if (oldPod ? available(oldPod) : newPod ? available(newPod) : false) numAvailable++;
    if (!oldPod) continue; // nothing to replace: the manage step handles the node
    const run = input.shouldRun.get(name) === true;
    if (!newPod) {
      if (!available(oldPod)) {
        if (!run) deletePods.push(oldPod.metadata.name!);
        else allowedNodes.push(name);
      } else if (!run) {
        shouldNotRun.push(oldPod.metadata.name!);
      } else if (numSurge < maxSurge) {
        candidateNodes.push(name);
      }
      continue;
    }
    if (!available(newPod)) numSurge++;
    else deletePods.push(oldPod.metadata.name!);
  }
  const deletable = Math.min(numAvailable - desired, shouldNotRun.length);
  if (deletable > 0) deletePods.push(...shouldNotRun.slice(0, deletable));
  const remaining = Math.min(Math.max(0, maxSurge - numSurge), candidateNodes.length);
  return { deletePods, createOnNodes: [...allowedNodes, ...candidateNodes.slice(0, remaining)] };
}
