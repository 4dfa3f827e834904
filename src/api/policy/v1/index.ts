// policy/v1: PodDisruptionBudget, which limits how many of a set of pods
// voluntary disruptions may take down at once, and Eviction, the body of the
// pods/eviction subresource that honours those budgets.
import { Condition, DeleteOptions, int32, int64, IntOrString, kind, LabelSelector, list, mapOf, obj, ref, str, Time, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.policy.v1';

export const PodDisruptionBudgetSpec = obj({
  minAvailable: ref(IntOrString).proto(1).desc('How many selected pods, or what percentage, must stay available after an eviction.'),
  selector: ref(LabelSelector).patch('replace').proto(2).desc('The pods the budget covers; null covers none, empty covers the namespace.'),
  maxUnavailable: ref(IntOrString).proto(3).desc('How many selected pods, or what percentage, may be unavailable after an eviction; exclusive with minAvailable.'),
  unhealthyPodEvictionPolicy: str().proto(4, { keepZero: true }).desc('IfHealthyBudget (the default) or AlwaysAllow: when running but unready pods may be evicted (beta).'),
})
  .id(`${PKG}.PodDisruptionBudgetSpec`)
  .desc('The pods a budget covers and how many of them must stay up.');

export const PodDisruptionBudgetStatus = obj({
  observedGeneration: int64().proto(1).desc('The generation the status was computed for.'),
  disruptedPods: mapOf(ref(Time)).proto(2).desc('Pods, by name, whose eviction the API server accepted but the controller has not yet seen, with when.'),
  disruptionsAllowed: int32().required().proto(3, { always: true }).desc('How many pods may be disrupted now.'),
  currentHealthy: int32().required().proto(4, { always: true }).desc('How many selected pods are healthy.'),
  desiredHealthy: int32().required().proto(5, { always: true }).desc('The fewest healthy pods the budget allows.'),
  expectedPods: int32().required().proto(6, { always: true }).desc('How many pods the budget counts.'),
  conditions: list(Condition).map('type').patch('merge', 'type').proto(7).desc('The observed conditions of the budget, such as DisruptionAllowed.'),
})
  .id(`${PKG}.PodDisruptionBudgetStatus`)
  .desc('The observed state of a disruption budget; may lag behind the pods.');

export const PodDisruptionBudget = kind({
  spec: ref(PodDisruptionBudgetSpec).proto(2).desc('The pods covered and how many must stay up.'),
  status: ref(PodDisruptionBudgetStatus).proto(3).desc('The observed state of the budget.'),
})
  .id(`${PKG}.PodDisruptionBudget`)
  .desc('Limits how many of a set of pods voluntary disruptions may take down at once.');

export const Eviction = kind({
  deleteOptions: ref(DeleteOptions).proto(2).desc('How to delete the pod.'),
})
  .id(`${PKG}.Eviction`)
  .desc('A request to evict a pod, subject to its disruption budgets; POSTed to the pod\'s eviction subresource.');

export const kinds: Readonly<Record<string, S>> = { Eviction, PodDisruptionBudget };
