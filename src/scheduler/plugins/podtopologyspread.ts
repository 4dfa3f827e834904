// PodTopologySpread: the pod's topologySpreadConstraints — or, when it has
// none, the system defaults (3 per hostname, 5 per zone, ScheduleAnyway)
// over the pods its services and controller select. DoNotSchedule
// constraints filter: placing the pod must keep (matching pods in the node's
// domain + 1) − (the fewest in any domain) within maxSkew. ScheduleAnyway
// constraints score: fewer matching pods in the node's domains is better,
// each key weighted by log(domains + 2), normalized so the emptiest is 100.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { CycleState, Plugin } from '../framework.js';
import { MAX_NODE_SCORE, unresolvable, unschedulable } from '../framework.js';
import type { NodeInfo } from '../nodeinfo.js';
import { podMatchesNodeSelectorAndAffinity } from '../nodeselector.js';
import { firstUntolerated, spec, taintsOf, tolerationsOf } from '../pods.js';
import { labelSelector, type PodSelector, type SpreadSelectors } from '../spreading.js';

export const ERR_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
const HOSTNAME = 'kubernetes.io/hostname';

export interface Constraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: PodSelector;
  readonly minDomains: number;
  readonly honorAffinity: boolean;
  readonly honorTaints: boolean;
}

export interface SpreadArgs {
  readonly defaultingType?: 'System' | 'List';
  readonly defaultConstraints?: readonly Record<string, unknown>[];
}

const SYSTEM_DEFAULTS = [
  { maxSkew: 3, topologyKey: HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway' },
  { maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
];

/** A constraint's selector with matchLabelKeys folded in (the pod's values for those keys). */
function constraintSelector(c: Record<string, unknown>, pod: ApiObject): PodSelector {
  const base = isObject(c.labelSelector) ? c.labelSelector : {};
  const keys = Array.isArray(c.matchLabelKeys) ? c.matchLabelKeys.map(String) : [];
  const labels = pod.metadata.labels ?? {};
  const extra = keys.filter((k) => k in labels).map((k) => ({ key: k, operator: 'In', values: [labels[k]] }));
  if (extra.length === 0) return labelSelector(base);
  return labelSelector({ ...base, matchExpressions: [...(Array.isArray(base.matchExpressions) ? base.matchExpressions : []), ...extra] });
}

function toConstraint(c: Record<string, unknown>, selector: PodSelector): Constraint {
  return {
    maxSkew: typeof c.maxSkew === 'number' ? c.maxSkew : 1,
    topologyKey: String(c.topologyKey ?? ''),
    selector,
    minDomains: typeof c.minDomains === 'number' ? c.minDomains : 1,
    honorAffinity: c.nodeAffinityPolicy !== 'Ignore',
    honorTaints: c.nodeTaintsPolicy === 'Honor',
  };
}

/** The pod's constraints with `when` (DoNotSchedule or ScheduleAnyway); the defaults when it has none. */
export function constraintsOf(pod: ApiObject, when: string, defaults: readonly Record<string, unknown>[], selectors: SpreadSelectors): Constraint[] {
  const own = Array.isArray(spec(pod).topologySpreadConstraints) ? (spec(pod).topologySpreadConstraints as unknown[]).filter(isObject) : [];
  if (own.length > 0) return own.filter((c) => c.whenUnsatisfiable === when).map((c) => toConstraint(c, constraintSelector(c, pod)));
  const matching = defaults.filter((c) => c.whenUnsatisfiable === when);
  if (matching.length === 0) return [];
  const selector = selectors.defaultSelector(pod);
  if (selector.empty) return [];
  return matching.map((c) => toConstraint(c, selector));
}

function nodeCounts(pod: ApiObject, node: NodeInfo, c: Constraint): boolean {
  if (c.honorAffinity && !podMatchesNodeSelectorAndAffinity(pod, node.node)) return false;
  if (c.honorTaints && firstUntolerated(taintsOf(node.node), tolerationsOf(pod), (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')) return false;
  return true;
}

function matchingPods(pod: ApiObject, node: NodeInfo, selector: PodSelector): number {
  const ns = pod.metadata.namespace ?? '';
  let n = 0;
  for (const p of node.pods.values()) {
    if (p.pod.metadata.namespace !== ns || p.pod.metadata.deletionTimestamp) continue;
    if (selector.matches(p.pod.metadata.labels ?? {})) n++;
  }
  return n;
}

const hasAllKeys = (node: NodeInfo, cs: readonly Constraint[]) => cs.every((c) => c.topologyKey in (node.node.metadata.labels ?? {}));

interface FilterState {
  readonly constraints: Constraint[];
  /** Per constraint: domain value → matching pods. */
  readonly counts: Map<string, number>[];
}

interface ScoreState {
  readonly constraints: Constraint[];
  readonly counts: Map<string, number>[];
  readonly weights: number[];
  readonly ignored: Set<string>;
}

const FILTER_KEY = 'PodTopologySpread/filter';
const SCORE_KEY = 'PodTopologySpread/score';

export function podTopologySpread(args: SpreadArgs, selectors: SpreadSelectors): Plugin {
  const defaults = args.defaultingType === 'List' ? (args.defaultConstraints ?? []) : SYSTEM_DEFAULTS;
  const systemDefaulted = args.defaultingType !== 'List';
  return {
    name: 'PodTopologySpread',
    preFilter(state: CycleState, pod) {
      const constraints = constraintsOf(pod, 'DoNotSchedule', defaults, selectors);
      const counts = constraints.map(() => new Map<string, number>());
      for (const node of state.snapshot.nodes) {
        if (!hasAllKeys(node, constraints)) continue;
        constraints.forEach((c, i) => {
          if (!nodeCounts(pod, node, c)) return;
          const value = node.node.metadata.labels![c.topologyKey]!;
          counts[i]!.set(value, (counts[i]!.get(value) ?? 0) + matchingPods(pod, node, c.selector));
        });
      }
      state.write(FILTER_KEY, { constraints, counts } satisfies FilterState);
      return undefined;
    },
    filter(state, pod, node) {
      const s = state.read<FilterState>(FILTER_KEY);
      if (!s || s.constraints.length === 0) return undefined;
      const labels = node.node.metadata.labels ?? {};
      for (let i = 0; i < s.constraints.length; i++) {
        const c = s.constraints[i]!;
        const value = labels[c.topologyKey];
        if (value === undefined) return unresolvable(ERR_MISSING_LABEL);
        const counts = s.counts[i]!;
        let min = counts.size === 0 ? 0 : Math.min(...counts.values());
        if (counts.size < c.minDomains) min = 0;
        const self = c.selector.matches(pod.metadata.labels ?? {}) ? 1 : 0;
        if ((counts.get(value) ?? 0) + self - min > c.maxSkew) return unschedulable(ERR_CONSTRAINTS_NOT_MATCH);
      }
      return undefined;
    },
    preScore(state, pod, feasible) {
      const constraints = constraintsOf(pod, 'ScheduleAnyway', defaults, selectors);
      if (constraints.length === 0) {
        state.write(SCORE_KEY, undefined);
        return;
      }
      const requireAll = (Array.isArray(spec(pod).topologySpreadConstraints) && (spec(pod).topologySpreadConstraints as unknown[]).length > 0) || !systemDefaulted;
      const ignored = new Set<string>();
      const counts = constraints.map(() => new Map<string, number>());
      const domains = constraints.map(() => new Set<string>());
      for (const node of feasible) {
        if (requireAll && !hasAllKeys(node, constraints)) {
          ignored.add(node.name);
          continue;
        }
        constraints.forEach((c, i) => {
          const value = node.node.metadata.labels?.[c.topologyKey];
          if (value === undefined) return;
          domains[i]!.add(value);
          if (c.topologyKey !== HOSTNAME) counts[i]!.set(value, 0);
        });
      }
      const weights = constraints.map((c, i) => Math.log((c.topologyKey === HOSTNAME ? feasible.length - ignored.size : domains[i]!.size) + 2));
      for (const node of state.snapshot.nodes) {
        if (requireAll && !hasAllKeys(node, constraints)) continue;
        constraints.forEach((c, i) => {
          if (c.topologyKey === HOSTNAME || !nodeCounts(pod, node, c)) return;
          const value = node.node.metadata.labels?.[c.topologyKey];
          if (value === undefined || !counts[i]!.has(value)) return;
          counts[i]!.set(value, counts[i]!.get(value)! + matchingPods(pod, node, c.selector));
        });
      }
      state.write(SCORE_KEY, { constraints, counts, weights, ignored } satisfies ScoreState);
    },
    score(state, pod, node) {
      const s = state.read<ScoreState>(SCORE_KEY);
      if (!s || s.ignored.has(node.name)) return 0;
      const labels = node.node.metadata.labels ?? {};
      let score = 0;
      s.constraints.forEach((c, i) => {
        const value = labels[c.topologyKey];
        if (value === undefined) return;
        const cnt = c.topologyKey === HOSTNAME ? matchingPods(pod, node, c.selector) : (s.counts[i]!.get(value) ?? 0);
        score += cnt * s.weights[i]! + (c.maxSkew - 1);
      });
      return Math.round(score);
    },
    normalizeScore(state, _pod, scores) {
      const s = state.read<ScoreState>(SCORE_KEY);
      if (!s) {
        for (const k of scores.keys()) scores.set(k, 0); // skipped: no soft constraints
        return;
      }
      let min = Infinity;
      let max = 0;
      for (const [name, v] of scores) {
        if (s.ignored.has(name)) continue;
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      for (const [name, v] of scores) {
        if (s.ignored.has(name)) scores.set(name, 0);
        else if (max === 0) scores.set(name, MAX_NODE_SCORE);
        else scores.set(name, Math.trunc((MAX_NODE_SCORE * (max + min - v)) / max));
      }
    },
  };
}
