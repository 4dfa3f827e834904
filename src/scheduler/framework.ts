// The scheduling framework's seams (kube's pkg/scheduler/framework): a plugin
// implements some extension points — preFilter/filter decide where a pod may
// go, preScore/score/normalizeScore rank those nodes (0..100 each, times the
// plugin's weight). A filter answers undefined for "fits" or a Status whose
// reasons become the FailedScheduling message. Per-cycle data lives in a
// CycleState keyed by plugin name. Once a node is chosen, reserve keeps what
// the pod will take (undone by unreserve) and preBind writes it before the
// binding.
import type { ApiObject } from '../registry/object.js';
import type { NodeInfo } from './nodeinfo.js';

export const MAX_NODE_SCORE = 100;

export type Code = 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Error';

export interface Status {
  readonly code: Code;
  readonly reasons: readonly string[];
  /** The plugin that answered (set by the framework). */
  readonly plugin?: string;
}

export const unschedulable = (...reasons: string[]): Status => ({ code: 'Unschedulable', reasons });
export const unresolvable = (...reasons: string[]): Status => ({ code: 'UnschedulableAndUnresolvable', reasons });

/** The nodes of one scheduling cycle. */
export interface Snapshot {
  readonly nodes: readonly NodeInfo[];
  get(name: string): NodeInfo | undefined;
}

export class CycleState {
  private readonly data = new Map<string, unknown>();
  constructor(readonly snapshot: Snapshot) {}
  read<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  write(key: string, v: unknown): void {
    this.data.set(key, v);
  }
  /** A copy for a what-if (preemption): the same entries, a different snapshot. */
  cloneWith(snapshot: Snapshot): CycleState {
    const c = new CycleState(snapshot);
    for (const [k, v] of this.data) c.data.set(k, v);
    return c;
  }
}

export interface Plugin {
  readonly name: string;
  /** Once per cycle before filtering; a Status makes every node fail with it. */
  preFilter?(state: CycleState, pod: ApiObject): Status | undefined;
  filter?(state: CycleState, pod: ApiObject, node: NodeInfo): Status | undefined;
  /** Once per cycle before scoring, with the nodes that passed the filters. */
  preScore?(state: CycleState, pod: ApiObject, nodes: readonly NodeInfo[]): void;
  score?(state: CycleState, pod: ApiObject, node: NodeInfo): number;
  /** Rewrites the scores of all nodes (name → score) into 0..100. */
  normalizeScore?(state: CycleState, pod: ApiObject, scores: Map<string, number>): void;
  /** Once the pod is assumed on the node (kube's Reserve); a Status fails the cycle and Unreserve runs. */
  reserve?(state: CycleState, pod: ApiObject, node: string): Status | undefined;
  /** Undoes Reserve (a later plugin, PreBind or the binding failed). */
  unreserve?(state: CycleState, pod: ApiObject, node: string): void;
  /** Before the binding, off the scheduling loop (kube's PreBind); a Status fails the binding. */
  preBind?(state: CycleState, pod: ApiObject, node: string): Promise<Status | undefined>;
}

/** kube's DefaultNormalizeScore: scaled so the best is 100 (reversed: the best is 0). */
export function defaultNormalizeScore(scores: Map<string, number>, reverse: boolean, max = MAX_NODE_SCORE): void {
  let highest = 0;
  for (const s of scores.values()) if (s > highest) highest = s;
  for (const [k, s] of scores) {
    if (highest === 0) {
      scores.set(k, reverse ? max : s);
      continue;
    }
    const v = Math.trunc((max * s) / highest);
    scores.set(k, reverse ? max - v : v);
  }
}
