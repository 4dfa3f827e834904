// NodeResourcesFit: the pod's requests must fit the node's allocatable less
// what its pods request ("Insufficient cpu", "Too many pods"…); scored by the
// LeastAllocated strategy (or MostAllocated) over cpu and memory with their
// non-zero requests. NodeResourcesBalancedAllocation scores how evenly the
// node's cpu and memory would be used: 100 × (1 − the fractions' spread).
import type { CycleState, Plugin } from '../framework.js';
import { MAX_NODE_SCORE, unschedulable } from '../framework.js';
import type { NodeInfo } from '../nodeinfo.js';
import { podNonZeroRequests, podRequests, type Resources } from '../resources.js';
import type { ApiObject } from '../../registry/object.js';

const BASIC = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods']);

/** The reasons the pod does not fit the node's free resources, in kube's order (fitsRequest). */
export function insufficientResources(req: Resources, node: NodeInfo): string[] {
  const out: string[] = [];
  if (node.pods.size + 1 > (node.allocatable.pods ?? 0)) out.push('Too many pods');
  const free = (r: string) => (node.allocatable[r] ?? 0) - (node.requested[r] ?? 0);
  const scalars = Object.keys(req).filter((r) => !BASIC.has(r) && (req[r] ?? 0) > 0).sort();
  if (!req.cpu && !req.memory && !req['ephemeral-storage'] && scalars.length === 0) return out;
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    if ((req[r] ?? 0) > 0 && req[r]! > free(r)) out.push(`Insufficient ${r}`);
  }
  for (const r of scalars) if (req[r]! > free(r)) out.push(`Insufficient ${r}`);
  return out;
}

export type ScoringStrategy = 'LeastAllocated' | 'MostAllocated';

export interface FitArgs {
  readonly scoringStrategy?: { readonly type?: ScoringStrategy; readonly resources?: readonly { readonly name: string; readonly weight: number }[] };
}

const DEFAULT_RESOURCES = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];

function leastRequested(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

function mostRequested(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  return Math.trunc((Math.min(requested, capacity) * MAX_NODE_SCORE) / capacity);
}

const REQ = 'NodeResourcesFit/requests';
const NON_ZERO = 'NodeResources/nonZeroRequests';

/** The pod's requests, computed once per cycle (every node's filter and score reads them). */
function cycleRequests(state: CycleState, pod: ApiObject): Resources {
  let r = state.read<Resources>(REQ);
  if (!r) state.write(REQ, (r = podRequests(pod)));
  return r;
}

function cycleNonZero(state: CycleState, pod: ApiObject): { readonly cpu: number; readonly memory: number } {
  let r = state.read<{ cpu: number; memory: number }>(NON_ZERO);
  if (!r) state.write(NON_ZERO, (r = podNonZeroRequests(pod)));
  return r;
}

export function nodeResourcesFit(args: FitArgs = {}): Plugin {
  const strategy = args.scoringStrategy?.type ?? 'LeastAllocated';
  const resources = args.scoringStrategy?.resources ?? DEFAULT_RESOURCES;
  const scoreOf = strategy === 'MostAllocated' ? mostRequested : leastRequested;
  return {
    name: 'NodeResourcesFit',
    preFilter(state, pod) {
      state.write(REQ, podRequests(pod));
      return undefined;
    },
    filter(state, pod, node) {
      const reasons = insufficientResources(cycleRequests(state, pod), node);
      return reasons.length > 0 ? unschedulable(...reasons) : undefined;
    },
    score(state, pod, node) {
      const podNonZero = cycleNonZero(state, pod);
      const podReq = cycleRequests(state, pod);
      let total = 0;
      let weights = 0;
      for (const { name, weight } of resources) {
        const capacity = node.allocatable[name] ?? 0;
        const isBasic = name === 'cpu' || name === 'memory';
        const asked = isBasic ? podNonZero[name] : (podReq[name] ?? 0);
        if (!isBasic && name !== 'ephemeral-storage' && asked === 0) continue;
        if (capacity === 0) continue;
        const used = isBasic ? node.nonZeroRequested[name] : (node.requested[name] ?? 0);
        total += scoreOf(used + asked, capacity) * weight;
        weights += weight;
      }
      return weights === 0 ? 0 : Math.trunc(total / weights);
    },
  };
}

/** The balanced-allocation score from the fractions of each resource requested (kube's balancedResourceScorer). */
export function balancedScore(fractions: readonly number[]): number {
  let std = 0;
  if (fractions.length === 2) std = Math.abs((fractions[0]! - fractions[1]!) / 2);
  else if (fractions.length > 2) {
    const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
    std = Math.sqrt(fractions.reduce((a, f) => a + (f - mean) * (f - mean), 0) / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

export function nodeResourcesBalancedAllocation(args: { readonly resources?: readonly { readonly name: string }[] } = {}): Plugin {
  const resources = (args.resources ?? DEFAULT_RESOURCES).map((r) => r.name);
  return {
    name: 'NodeResourcesBalancedAllocation',
    score(state, pod: ApiObject, node) {
      const req = cycleRequests(state, pod);
      const fractions: number[] = [];
      for (const r of resources) {
        const capacity = node.allocatable[r] ?? 0;
        const asked = req[r] ?? 0;
        if (r !== 'cpu' && r !== 'memory' && r !== 'ephemeral-storage' && asked === 0) continue;
        if (capacity === 0) continue;
        fractions.push(Math.min(1, ((node.requested[r] ?? 0) + asked) / capacity));
      }
      return balancedScore(fractions);
    },
  };
}
