// Which quota scopes a pod falls in (kube's podMatchesScopeFunc):
//   Terminating / NotTerminating   spec.activeDeadlineSeconds ≥ 0 set / not
//   BestEffort / NotBestEffort     the pod's QoS class is / is not BestEffort
//   PriorityClass                  the selector (In, NotIn, Exists,
//                                  DoesNotExist) over spec.priorityClassName
//   CrossNamespacePodAffinity      an (anti-)affinity term names namespaces
//                                  or a namespaceSelector
// The operator only matters for PriorityClass; other scopes are their name.
import type { ApiObject } from '../../registry/object.js';
import { podQOSClass } from '../../registry/strategies/podqos.js';
import type { ScopedResourceSelectorRequirement } from '../evaluator.js';
import { rec } from './common.js';

export function isTerminatingPod(pod: ApiObject): boolean {
  const d = rec(pod.spec).activeDeadlineSeconds;
  return typeof d === 'number' && d >= 0;
}

export const isBestEffortPod = (pod: ApiObject): boolean => podQOSClass(pod) === 'BestEffort';

/**
 * The selector requirement over the label set {PriorityClass: <name>} (empty
 * without a name), as kube turns a scope selector into a label selector. An
 * In/NotIn without values, or a DoesNotExist with some, is not a valid
 * requirement and matches nothing (kube: an error, the pod not matched).
 */
export function priorityClassMatches(req: ScopedResourceSelectorRequirement, priorityClassName: string): boolean {
  const has = priorityClassName !== '';
  const values = req.values ?? [];
  switch (req.operator) {
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return values.length === 0 && !has;
    case 'In':
      return values.length > 0 && has && values.includes(priorityClassName);
    case 'NotIn':
      return values.length > 0 && (!has || !values.includes(priorityClassName));
    default:
      return false;
  }
}

const crossNamespaceTerm = (t: unknown): boolean => {
  const term = rec(t);
  return (Array.isArray(term.namespaces) && term.namespaces.length > 0) || (term.namespaceSelector !== undefined && term.namespaceSelector !== null);
};

function crossNamespaceTerms(affinity: unknown): boolean {
  const a = rec(affinity);
  const required = Array.isArray(a.requiredDuringSchedulingIgnoredDuringExecution) ? a.requiredDuringSchedulingIgnoredDuringExecution : [];
  const preferred = Array.isArray(a.preferredDuringSchedulingIgnoredDuringExecution) ? a.preferredDuringSchedulingIgnoredDuringExecution : [];
  return required.some(crossNamespaceTerm) || preferred.some((w) => crossNamespaceTerm(rec(w).podAffinityTerm));
}

export function usesCrossNamespacePodAffinity(pod: ApiObject): boolean {
  const affinity = rec(rec(pod.spec).affinity);
  return crossNamespaceTerms(affinity.podAffinity) || crossNamespaceTerms(affinity.podAntiAffinity);
}

export function podMatchesScope(req: ScopedResourceSelectorRequirement, pod: ApiObject): boolean {
  switch (req.scopeName) {
    case 'Terminating':
      return isTerminatingPod(pod);
    case 'NotTerminating':
      return !isTerminatingPod(pod);
    case 'BestEffort':
      return isBestEffortPod(pod);
    case 'NotBestEffort':
      return !isBestEffortPod(pod);
    case 'PriorityClass': {
      const name = rec(pod.spec).priorityClassName;
      return priorityClassMatches(req, typeof name === 'string' ? name : '');
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}
