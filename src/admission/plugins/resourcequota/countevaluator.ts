// kube's generic object-count evaluator: what quota admission uses for a
// resource no evaluator knows (`count/<resource>.<group>`, `count/<resource>`
// for core). Counts creates only; a quota with scopes never selects it. A
// group of the svc.io spelling is counted under both spellings.
import type { UsageEvaluator } from '../../../quota/evaluator.js';
import type { ResourceList } from '../../../quota/resources.js';

const ONE = { nanos: 1_000_000_000n, format: 'DecimalSI' as const };

/** The count names of a group/resource: `count/pods`, `count/deployments.apps`, `count/ingresses.networking.k8s.io` (and .svc.io). */
export function countNames(group: string, resource: string): string[] {
  if (group === '') return [`count/${resource}`];
  const names = [`count/${resource}.${group}`];
  if (group.endsWith('.svc.io')) names.push(`count/${resource}.${group.slice(0, -'.svc.io'.length)}.k8s.io`);
  return names;
}

export function objectCountEvaluator(group: string, resource: string): UsageEvaluator {
  const names = countNames(group, resource);
  return {
    group, resource,
    handles: (operation) => operation === 'CREATE',
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    matchesScopes: (quota) => {
      const spec = quota.spec as { scopes?: unknown[]; scopeSelector?: { matchExpressions?: unknown[] } } | undefined;
      return (spec?.scopes ?? []).length === 0 && (spec?.scopeSelector?.matchExpressions ?? []).length === 0;
    },
    uncoveredScopes: () => [],
    matchingScopes: () => [],
    usage: (): ResourceList => Object.fromEntries(names.map((n) => [n, ONE])),
    counts: () => true,
  };
}
