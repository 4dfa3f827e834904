// Whether a set of rules grants at least what other rules grant (kube's
// pkg/registry/rbac/validation Covers / BreakdownRule / ruleCovers): the
// servant rules are broken into single-permission rules, each of which some
// owner rule must cover. Reconciliation adds the uncovered ones to a role;
// escalation checks refuse them. API groups compare in either spelling
// (X.k8s.io ≡ X.svc.io).
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import type { PolicyRule } from './rules.js';

export interface MutablePolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const ALL = '*';
const list = (xs: readonly string[] | null | undefined): readonly string[] => xs ?? [];

/** One rule per (group, resource, verb[, name]) and per (URL, verb), in kube's order. */
export function breakdownRule(rule: PolicyRule): MutablePolicyRule[] {
  const out: MutablePolicyRule[] = [];
  const names = list(rule.resourceNames);
  for (const g of list(rule.apiGroups)) {
    for (const r of list(rule.resources)) {
      for (const v of list(rule.verbs)) {
        if (names.length > 0) for (const n of names) out.push({ verbs: [v], apiGroups: [g], resources: [r], resourceNames: [n] });
        else out.push({ verbs: [v], apiGroups: [g], resources: [r] });
      }
    }
  }
  for (const u of list(rule.nonResourceURLs)) for (const v of list(rule.verbs)) out.push({ verbs: [v], nonResourceURLs: [u] });
  return out;
}

const hasAll = (set: readonly string[], wanted: readonly string[]) => wanted.every((w) => set.includes(w));

function groupsCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ALL)) return true;
  const have = new Set(owner.map(canonicalGroup));
  return wanted.every((g) => have.has(canonicalGroup(g)));
}

/** `*`, the exact name, or for `res/sub` the owner's `*\/sub`. */
function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ALL)) return true;
  return wanted.every((r) => {
    if (owner.includes(r)) return true;
    const slash = r.indexOf('/');
    return slash >= 0 && owner.includes(`*/${r.slice(slash + 1)}`);
  });
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

/** Whether one owner rule covers a (broken-down) rule: kube's ruleCovers. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ov = list(owner.verbs);
  const ownerNames = list(owner.resourceNames);
  const subNames = list(sub.resourceNames);
  return (ov.includes(ALL) || hasAll(ov, list(sub.verbs)))
    && groupsCover(list(owner.apiGroups), list(sub.apiGroups))
    && resourcesCover(list(owner.resources), list(sub.resources))
    && list(sub.nonResourceURLs).every((p) => list(owner.nonResourceURLs).some((o) => urlCovers(o, p)))
    && (ownerNames.length === 0 || (subNames.length > 0 && hasAll(ownerNames, subNames)));
}

/** Whether `owner` covers every permission of `servant`, and the broken-down rules it does not cover. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; uncovered: MutablePolicyRule[] } {
  const uncovered = servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return { covered: uncovered.length === 0, uncovered };
}
