// A small pods evaluator for the tests and the interim wiring, until the
// real evaluators (src/quota/evaluators/) are wired: `pods`, `count/pods`
// and `requests.cpu` (the sum of the containers' cpu requests); a pod counts
// until it finishes (Succeeded/Failed); the PriorityClass scope compares
// spec.priorityClassName. Constraints: a quota tracking requests.cpu needs
// every container to request cpu.
import type { ApiObject } from '../../../registry/object.js';
import { isObject } from '../../../registry/object.js';
import { parseQuantity } from '../../../api/meta/quantity.js';
import type { ScopedResourceSelectorRequirement } from '../../../quota/evaluator.js';
import { addLists, type ResourceList } from '../../../quota/resources.js';
import type { AdmissionEvaluator } from './check.js';
import { quotaScopes } from './check.js';

const NAMES = ['pods', 'count/pods', 'requests.cpu'];
const ONE = parseQuantity('1')!;

const containers = (pod: ApiObject): Record<string, unknown>[] => {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return Array.isArray(spec.containers) ? spec.containers.filter(isObject) : [];
};
const cpuRequest = (c: Record<string, unknown>) => {
  const req = isObject(c.resources) && isObject(c.resources.requests) ? c.resources.requests : {};
  return typeof req.cpu === 'string' ? parseQuantity(req.cpu) : undefined;
};

function scopeMatches(s: ScopedResourceSelectorRequirement, pod: ApiObject): boolean {
  if (s.scopeName !== 'PriorityClass') return false;
  const pc = isObject(pod.spec) && typeof pod.spec.priorityClassName === 'string' ? pod.spec.priorityClassName : '';
  switch (s.operator) {
    case 'Exists': return pc !== '';
    case 'DoesNotExist': return pc === '';
    case 'In': return (s.values ?? []).includes(pc);
    case 'NotIn': return !(s.values ?? []).includes(pc);
  }
}

export function testPodEvaluator(): AdmissionEvaluator {
  return {
    group: '', resource: 'pods',
    handles: (op) => op === 'CREATE',
    matchingResources: (names) => names.filter((n) => NAMES.includes(n)),
    matchesScopes: (quota, pod) => quotaScopes(quota).every((s) => scopeMatches(s, pod)),
    matchingScopes: (pod, scopes) => scopes.filter((s) => scopeMatches(s, pod)),
    uncoveredScopes: (limited, quotaScopesOf) => limited.filter((l) => !quotaScopesOf.some((q) => q.scopeName === l.scopeName)),
    usage(pod): ResourceList {
      let cpu: ResourceList = { 'requests.cpu': parseQuantity('0')! };
      for (const c of containers(pod)) {
        const q = cpuRequest(c);
        if (q) cpu = addLists(cpu, { 'requests.cpu': q });
      }
      return { pods: ONE, 'count/pods': ONE, ...cpu };
    },
    counts: (pod) => {
      const phase = isObject(pod.status) ? pod.status.phase : undefined;
      return phase !== 'Succeeded' && phase !== 'Failed';
    },
    constraints(required, pod) {
      if (!required.includes('requests.cpu')) return undefined;
      const missing = containers(pod).filter((c) => !cpuRequest(c)).map((c) => String(c.name));
      return missing.length ? `must specify requests.cpu for: ${missing.sort().join(',')}` : undefined;
    },
  };
}
