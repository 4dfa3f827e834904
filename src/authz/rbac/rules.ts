// RBAC rule matching as kube-apiserver v1.27 does it (rbac/v1 evaluation
// helpers + the RBAC authorizer's RuleAllows): one PolicyRule against one
// request's attributes. Pure functions; the binding walk is in authorizer.ts.
//
// The one svc difference: API groups are compared in one spelling, so a rule
// naming `rbac.authorization.k8s.io` matches a request to
// `rbac.authorization.svc.io` and the other way round (any X.k8s.io / X.svc.io).
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import type { Attributes } from '../authorizer.js';

/** rbac/v1 PolicyRule as stored (every list may be absent or null in a decoded object). */
export interface PolicyRule {
  readonly verbs?: readonly string[] | null;
  readonly apiGroups?: readonly string[] | null;
  readonly resources?: readonly string[] | null;
  readonly resourceNames?: readonly string[] | null;
  readonly nonResourceURLs?: readonly string[] | null;
}

const ALL = '*';

/** `*` or the exact verb. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === ALL || v === verb);
}

/** `*` or the same group, either spelling (`X.svc.io` ≡ `X.k8s.io`). */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  const want = canonicalGroup(group);
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group || canonicalGroup(g) === want);
}

/**
 * `*`, the exact combined `resource[/subresource]`, or `*\/subresource` when the
 * request names a subresource. A plain `pods` does not cover `pods/log`.
 */
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combinedResource) return true;
    if (subresource !== '' && r === `*/${subresource}`) return true;
  }
  return false;
}

/** An empty (or absent) resourceNames list allows every name; otherwise the name must be listed (so a nameless list/create never matches). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** `*`, the exact path, or a rule ending in `*` whose stem (trailing `*`s removed) prefixes the path. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** Whether one rule allows the request (kube's RuleAllows). */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.isResourceRequest) {
    const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.apiGroup) &&
      resourceMatches(rule, combined, a.subresource) && resourceNameMatches(rule, a.name);
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}

/** Whether any of the rules allows the request (kube's RulesAllow). */
export function rulesAllow(a: Attributes, rules: readonly PolicyRule[]): boolean {
  return rules.some((r) => ruleAllows(a, r));
}
