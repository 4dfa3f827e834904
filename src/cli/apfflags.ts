// The API Priority and Fairness flag of kube-apiserver v1.27:
// --enable-priority-and-fairness (default true; with the APIPriorityAndFairness
// gate on, it replaces the max-in-flight limit). Its server limit is
// --max-requests-inflight + --max-mutating-requests-inflight, which must then
// add up to something positive (kube's check).
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import type { FeatureGates } from '../features/gates.js';

export const APF_FLAGS: FlagSpec[] = [
  {
    name: 'enable-priority-and-fairness', type: 'bool', default: true,
    help: 'If true and the APIPriorityAndFairness feature gate is enabled, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness',
  },
];

export function apfOptions(v: Map<string, FlagValue>, gates: FeatureGates): { enablePriorityAndFairness: boolean } {
  const enable = v.get('enable-priority-and-fairness') as boolean;
  const reads = (v.get('max-requests-inflight') as number | undefined) ?? 0;
  const writes = (v.get('max-mutating-requests-inflight') as number | undefined) ?? 0;
  if (enable && gates.enabled('APIPriorityAndFairness') && reads + writes <= 0) {
    throw new FlagError(`invalid configuration: MaxRequestsInFlight=${reads} and MaxMutatingRequestsInFlight=${writes}; they must add up to something positive`);
  }
  return { enablePriorityAndFairness: enable };
}
