// DefaultPreemption (kube's PostFilter): when no node fits, find nodes where
// evicting pods of lower priority would let the pod in. A node refused as
// UnschedulableAndUnresolvable cannot be helped; on the others every lower-
// priority pod is removed in a copy of the node, the filters run again, and
// as many victims as possible are reprieved, the most important first. The
// best candidate (fewest PodDisruptionBudget violations, then the least
// important most-important victim, then lowest priority sum, then fewest
// victims, then the latest-started) is chosen; victims a budget protects
// are reprieved first. When there is none, the
// message says why per node, as a FitError of its own.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import type { CycleState, Status } from './framework.js';
import { unresolvable } from './framework.js';
import { fitErrorMessage } from './fiterror.js';
import type { NodeInfo } from './nodeinfo.js';
import type { Nominated, Profile } from './profile.js';
import { podKey, priorityOf, spec } from './pods.js';
import { labelSelector } from './spreading.js';

export const NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const NO_VICTIMS = 'No preemption victims found for incoming pod';

export interface Candidate {
  readonly node: string;
  /** The pods to evict, most important first. */
  readonly victims: readonly ApiObject[];
  /** Victims whose eviction a PodDisruptionBudget does not allow. */
  readonly pdbViolations?: number;
}

/** The PodDisruptionBudgets of a namespace. */
export type Budgets = (namespace: string) => readonly ApiObject[];

/** kube's filterPodsWithPDBViolation: the pods whose eviction a budget with no disruptions left forbids, and the others. */
export function splitByBudgets(pods: readonly ApiObject[], budgets: Budgets | undefined): { violating: ApiObject[]; ok: ApiObject[] } {
  const allowed = new Map<ApiObject, number>();
  const violating: ApiObject[] = [];
  const ok: ApiObject[] = [];
  for (const pod of pods) {
    let violates = false;
    for (const pdb of budgets?.(pod.metadata.namespace ?? '') ?? []) {
      const spec = isObject(pdb.spec) ? pdb.spec : {};
      const selector = labelSelector(spec.selector);
      if (selector.empty || !selector.matches(pod.metadata.labels ?? {})) continue;
      const status = isObject(pdb.status) ? pdb.status : {};
      if (isObject(status.disruptedPods) && pod.metadata.name! in status.disruptedPods) continue;
      const left = allowed.get(pdb) ?? (typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0);
      allowed.set(pdb, left - 1);
      if (left <= 0) violates = true;
    }
    (violates ? violating : ok).push(pod);
  }
  return { violating, ok };
}

export type PreemptionResult =
  | { readonly kind: 'candidate'; readonly candidate: Candidate }
  | { readonly kind: 'none'; readonly message: string };

function startTime(pod: ApiObject): string {
  const s = isObject(pod.status) ? pod.status : {};
  return typeof s.startTime === 'string' ? s.startTime : (pod.metadata.creationTimestamp ?? '');
}

/** kube's MoreImportantPod: higher priority, then started earlier. */
export function moreImportant(a: ApiObject, b: ApiObject): number {
  const d = priorityOf(b) - priorityOf(a);
  if (d !== 0) return d;
  return startTime(a) < startTime(b) ? -1 : startTime(a) > startTime(b) ? 1 : 0;
}

/** Whether the pod may preempt: not with preemptionPolicy Never, nor while a lower-priority pod on its nominated node is terminating. */
export function eligibleToPreempt(pod: ApiObject, nominated: NodeInfo | undefined, nominatedStatus: Status | undefined): string | undefined {
  if (spec(pod).preemptionPolicy === 'Never') return 'not eligible due to preemptionPolicy=Never.';
  if (nominated && nominatedStatus?.code !== 'UnschedulableAndUnresolvable') {
    const prio = priorityOf(pod);
    for (const p of nominated.pods.values()) {
      if (p.pod.metadata.deletionTimestamp && priorityOf(p.pod) < prio) return 'not eligible due to a terminating pod on the nominated node.';
    }
  }
  return undefined;
}

/** Victims on one node, or the status saying why there are none. */
export function selectVictimsOnNode(profile: Profile, state: CycleState, pod: ApiObject, node: NodeInfo, nominated?: Nominated, budgets?: Budgets): { victims: ApiObject[]; pdbViolations: number } | { status: Status } {
  const copy = node.clone();
  const prio = priorityOf(pod);
  const potential = [...copy.pods.entries()].filter(([, p]) => priorityOf(p.pod) < prio);
  if (potential.length === 0) return { status: unresolvable(NO_VICTIMS) };
  for (const [key] of potential) copy.removePod(key);
  const fits = profile.filterWithNominated(state, pod, copy, nominated);
  if (fits) return { status: fits };
  potential.sort(([, a], [, b]) => moreImportant(a.pod, b.pod));
  const infos = new Map(potential.map(([, p]) => [p.pod, p]));
  const { violating, ok } = splitByBudgets(potential.map(([, p]) => p.pod), budgets);
  const victims: ApiObject[] = [];
  let pdbViolations = 0;
  // Reprieve as many as possible: those a budget protects first, the most important first.
  const reprieve = (v: ApiObject): boolean => {
    copy.addPod(infos.get(v)!);
    if (!profile.filterWithNominated(state, pod, copy, nominated)) return true;
    copy.removePod(podKey(v));
    victims.push(v);
    return false;
  };
  for (const v of violating) if (!reprieve(v)) pdbViolations++;
  for (const v of ok) reprieve(v);
  victims.sort(moreImportant);
  return { victims, pdbViolations };
}

/** kube's pickOneNodeForPreemption. */
export function pickCandidate(candidates: readonly Candidate[]): Candidate | undefined {
  const criteria: ((c: Candidate) => number | string)[] = [
    (c) => -(c.pdbViolations ?? 0), // fewest budget violations
    (c) => -priorityOf(c.victims[0]!), // lowest highest-priority victim
    (c) => -c.victims.reduce((s, v) => s + priorityOf(v) + 2147483648 + 1, 0), // lowest sum of priorities
    (c) => -c.victims.length, // fewest victims
  ];
  let left = [...candidates];
  for (const f of criteria) {
    if (left.length <= 1) break;
    const best = left.reduce((m, c) => (f(c) > m ? f(c) : m), f(left[0]!));
    left = left.filter((c) => f(c) === best);
  }
  if (left.length <= 1) return left[0];
  // The latest start time among the highest-priority victims.
  const latest = (c: Candidate) => {
    const top = priorityOf(c.victims[0]!);
    return c.victims.filter((v) => priorityOf(v) === top).map(startTime).sort()[0] ?? '';
  };
  return left.reduce((m, c) => (latest(c) > latest(m) ? c : m), left[0]!);
}

export function preempt(profile: Profile, state: CycleState, pod: ApiObject, nodes: readonly NodeInfo[], statuses: ReadonlyMap<string, Status>, nominated?: Nominated, budgets?: Budgets): PreemptionResult {
  const nominatedName = isObject(pod.status) && typeof pod.status.nominatedNodeName === 'string' ? pod.status.nominatedNodeName : '';
  const nominatedNode = nominatedName ? nodes.find((n) => n.name === nominatedName) : undefined;
  const ineligible = eligibleToPreempt(pod, nominatedNode, statuses.get(nominatedName));
  if (ineligible) return { kind: 'none', message: ineligible };
  const outcome = new Map<string, Status>();
  const candidates: Candidate[] = [];
  for (const n of nodes) {
    const st = statuses.get(n.name);
    if (st?.code === 'UnschedulableAndUnresolvable') {
      outcome.set(n.name, unresolvable(NOT_HELPFUL));
      continue;
    }
    const r = selectVictimsOnNode(profile, state, pod, n, nominated, budgets);
    if ('status' in r) outcome.set(n.name, r.status);
    else if (r.victims.length === 0) outcome.set(n.name, { code: 'Error', reasons: [`expected at least one victim pod on node "${n.name}"`] });
    else candidates.push({ node: n.name, victims: r.victims, pdbViolations: r.pdbViolations });
  }
  const chosen = pickCandidate(candidates);
  if (chosen) return { kind: 'candidate', candidate: chosen };
  return { kind: 'none', message: fitErrorMessage(outcome.size, { nodeStatuses: outcome }) };
}
