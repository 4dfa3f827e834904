// Whether one rule of a webhook covers a request (kube's rules.Matcher):
// operation, group (either spelling: a rule for networking.k8s.io covers a
// request through networking.svc.io), version, resource/subresource with the
// `*`, `*/*`, `pods/*` and `*/status` forms, and scope. A Namespace object is
// cluster-scoped although its requests carry its own name as namespace.
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import type { WebhookRule } from './types.js';

export interface RuleTarget {
  readonly operation: string;
  /** Either spelling; '' for core. */
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
}

const exactOrWildcard = (items: readonly string[], want: string) => items.some((i) => i === '*' || i === want);

const isNamespaceResource = (t: RuleTarget) => t.group === '' && t.version === 'v1' && t.resource === 'namespaces';

function scopeMatches(rule: WebhookRule, t: RuleTarget): boolean {
  switch (rule.scope) {
    case 'Namespaced':
      return !isNamespaceResource(t) && t.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(t) || t.namespace === '';
    default:
      return true;
  }
}

function resourceMatches(rule: WebhookRule, t: RuleTarget): boolean {
  for (const r of rule.resources) {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const sub = slash < 0 ? '' : r.slice(slash + 1);
    if ((res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource)) return true;
  }
  return false;
}

export function ruleMatches(rule: WebhookRule, t: RuleTarget): boolean {
  const group = canonicalGroup(t.group);
  return scopeMatches(rule, t)
    && exactOrWildcard(rule.operations, t.operation)
    && rule.apiGroups.some((g) => g === '*' || canonicalGroup(g) === group)
    && exactOrWildcard(rule.apiVersions, t.version)
    && resourceMatches(rule, t);
}
