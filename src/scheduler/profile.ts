// A profile (kube's frameworkImpl): the plugins of one schedulerName at each
// extension point, in order, with the score weights. Filters run in order
// and a node's first refusal is its status; scores are normalized per plugin
// and summed times the weight.
import type { ApiObject } from '../registry/object.js';
import { CycleState, MAX_NODE_SCORE, type Plugin, type Snapshot, type Status } from './framework.js';
import { podInfo, type NodeInfo } from './nodeinfo.js';

export interface ScorePluginEntry {
  readonly plugin: Plugin;
  readonly weight: number;
}

export interface ProfileOptions {
  readonly schedulerName: string;
  readonly filters: readonly Plugin[];
  readonly scores: readonly ScorePluginEntry[];
  /** The PostFilter (DefaultPreemption) runs when no node fits. */
  readonly preemption: boolean;
}

/** The pods nominated to a node that the pod must leave room for. */
export type Nominated = (node: string, pod: ApiObject) => readonly ApiObject[];

export interface FilterResult {
  readonly feasible: NodeInfo[];
  readonly statuses: Map<string, Status>;
  readonly preFilterMsg?: string;
  /** How many nodes were looked at (feasible or not), for the next cycle's start. */
  readonly processed: number;
}

/** Where a cycle looks: from `start` round the list, stopping once `limit` nodes fit (kube's numFeasibleNodesToFind). */
export interface Search {
  readonly start: number;
  readonly limit: number;
}

/**
 * kube's numFeasibleNodesToFind: under 100 nodes every one; else the share
 * `percentage` gives (0: 50 % less 1 % per 125 nodes, at least 5 %), at
 * least 100.
 */
export function feasibleNodesToFind(percentage: number, nodes: number): number {
  if (nodes < 100) return nodes;
  let pct = percentage;
  if (pct === 0) pct = Math.max(5, 50 - Math.trunc(nodes / 125));
  return Math.max(100, Math.trunc((nodes * pct) / 100));
}

export class Profile {
  readonly schedulerName: string;
  readonly filters: readonly Plugin[];
  readonly scores: readonly ScorePluginEntry[];
  readonly preemption: boolean;

  constructor(o: ProfileOptions) {
    this.schedulerName = o.schedulerName;
    this.filters = o.filters;
    this.scores = o.scores;
    this.preemption = o.preemption;
  }

  newCycle(snapshot: Snapshot): CycleState {
    return new CycleState(snapshot);
  }

  /** PreFilter: a refusal applies to every node. */
  preFilter(state: CycleState, pod: ApiObject): Status | undefined {
    for (const p of this.filters) {
      const s = p.preFilter?.(state, pod);
      if (s) return { ...s, plugin: p.name };
    }
    return undefined;
  }

  /** The node's first refusal, or undefined when the pod fits. */
  filterNode(state: CycleState, pod: ApiObject, node: NodeInfo): Status | undefined {
    for (const p of this.filters) {
      const s = p.filter?.(state, pod, node);
      if (s) return { ...s, plugin: p.name };
    }
    return undefined;
  }

  /**
   * kube's RunFilterPluginsWithNominatedPods: with the pods nominated to the
   * node ahead of this one counted on it, then — when that passed — without
   * them too (a pod must fit either way).
   */
  filterWithNominated(state: CycleState, pod: ApiObject, node: NodeInfo, nominated: Nominated | undefined): Status | undefined {
    const ahead = nominated?.(node.name, pod) ?? [];
    if (ahead.length === 0) return this.filterNode(state, pod, node);
    const copy = node.clone();
    for (const p of ahead) copy.addPod(podInfo(p));
    return this.filterNode(state, pod, copy) ?? this.filterNode(state, pod, node);
  }

  /**
   * The nodes the pod fits, looked for from `search.start` round the list
   * until `search.limit` fit (every node by default); with the statuses of
   * those that did not.
   */
  findFeasible(state: CycleState, pod: ApiObject, nodes: readonly NodeInfo[], nominated?: Nominated, nominatedNode?: string, search?: Search): FilterResult {
    const statuses = new Map<string, Status>();
    const pre = this.preFilter(state, pod);
    if (pre) {
      for (const n of nodes) statuses.set(n.name, pre);
      return { feasible: [], statuses, preFilterMsg: pre.reasons.join(', '), processed: 0 };
    }
    // A nominated node (preemption made room there) is tried alone first.
    const preferred = nominatedNode ? nodes.find((n) => n.name === nominatedNode) : undefined;
    if (preferred && !this.filterWithNominated(state, pod, preferred, nominated)) return { feasible: [preferred], statuses, processed: 0 };
    const feasible: NodeInfo[] = [];
    const limit = search?.limit ?? nodes.length;
    const start = search?.start ?? 0;
    let processed = 0;
    for (; processed < nodes.length && feasible.length < limit; processed++) {
      const n = nodes[(start + processed) % nodes.length]!;
      const s = this.filterWithNominated(state, pod, n, nominated);
      if (s) statuses.set(n.name, s);
      else feasible.push(n);
    }
    return { feasible, statuses, processed };
  }

  /** Each feasible node's weighted total, and each plugin's normalized scores (for tests and logs). */
  score(state: CycleState, pod: ApiObject, nodes: readonly NodeInfo[]): { totals: Map<string, number>; byPlugin: Map<string, Map<string, number>> } {
    const totals = new Map<string, number>(nodes.map((n) => [n.name, 0]));
    const byPlugin = new Map<string, Map<string, number>>();
    for (const { plugin } of this.scores) plugin.preScore?.(state, pod, nodes);
    for (const { plugin, weight } of this.scores) {
      if (!plugin.score) continue;
      const scores = new Map<string, number>();
      for (const n of nodes) scores.set(n.name, plugin.score(state, pod, n));
      plugin.normalizeScore?.(state, pod, scores);
      for (const [name, s] of scores) {
        const bounded = Math.max(0, Math.min(MAX_NODE_SCORE, s));
        totals.set(name, totals.get(name)! + bounded * weight);
      }
      byPlugin.set(plugin.name, scores);
    }
    return { totals, byPlugin };
  }
}

/** The distinct plugins of the profile that implement `point`, in filter then score order. */
function pluginsWith(p: Profile, point: 'reserve' | 'preBind'): Plugin[] {
  const out: Plugin[] = [];
  for (const plugin of [...p.filters, ...p.scores.map((s) => s.plugin)]) if (plugin[point] && !out.includes(plugin)) out.push(plugin);
  return out;
}

/** Reserve: the first refusal (with its plugin), after which every plugin's Unreserve has run. */
export function runReserve(p: Profile, state: CycleState, pod: ApiObject, node: string): Status | undefined {
  for (const plugin of pluginsWith(p, 'reserve')) {
    const s = plugin.reserve!(state, pod, node);
    if (s) {
      runUnreserve(p, state, pod, node);
      return { ...s, plugin: plugin.name };
    }
  }
  return undefined;
}

/** Unreserve, in reverse order (kube's RunReservePluginsUnreserve). */
export function runUnreserve(p: Profile, state: CycleState, pod: ApiObject, node: string): void {
  for (const plugin of pluginsWith(p, 'reserve').reverse()) plugin.unreserve?.(state, pod, node);
}

/** PreBind: the first refusal, with its plugin. */
export async function runPreBind(p: Profile, state: CycleState, pod: ApiObject, node: string): Promise<Status | undefined> {
  for (const plugin of pluginsWith(p, 'preBind')) {
    const s = await plugin.preBind!(state, pod, node);
    if (s) return { ...s, plugin: plugin.name };
  }
  return undefined;
}

/** The highest total; ties broken at random (reservoir sampling, as kube's selectHost). */
export function selectHost(totals: ReadonlyMap<string, number>, random: () => number = Math.random): string | undefined {
  let best: string | undefined;
  let bestScore = -Infinity;
  let ties = 0;
  for (const [name, s] of totals) {
    if (s > bestScore) {
      best = name;
      bestScore = s;
      ties = 1;
    } else if (s === bestScore) {
      ties++;
      if (random() * ties < 1) best = name;
    }
  }
  return best;
}
