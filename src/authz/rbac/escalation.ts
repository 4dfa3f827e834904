// RBAC escalation prevention (kube-apiserver v1.27's
// component-helpers rbac/validation Covers and pkg/registry/rbac/validation
// ConfirmNoEscalation): a user may only grant, through a Role, ClusterRole or
// binding, permissions they already hold. The servant rules are broken down
// to one group/resource/verb/name (or URL/verb) each; every piece must be
// covered by one of the owner's rules. The missing pieces are compacted and
// listed in kube's words.
//
// The one svc difference: API groups compare in one spelling, so owning
// `rbac.authorization.k8s.io` covers `rbac.authorization.svc.io` and back.
import type { UserInfo } from '../../authn/user.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import { goQuote } from '../../smd/path.js';
import type { PolicyRule } from './rules.js';
import { aggregateErrors } from '../../api/meta/index.js';

const ALL = '*';

/** A policy rule with every list present (what the breakdown produces and the messages print). */
export interface Rule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

const rule = (r: Partial<Rule>): Rule => ({ verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...r });

/**
 * kube's BreakdownRule: one rule per (group, resource, verb[, name]) and per
 * (URL, verb), in the rule's order.
 */
export function breakdownRule(r: PolicyRule): Rule[] {
  const out: Rule[] = [];
  const names = r.resourceNames ?? [];
  for (const g of r.apiGroups ?? []) {
    for (const res of r.resources ?? []) {
      for (const v of r.verbs ?? []) {
        if (names.length === 0) out.push(rule({ apiGroups: [g], resources: [res], verbs: [v] }));
        else for (const n of names) out.push(rule({ apiGroups: [g], resources: [res], verbs: [v], resourceNames: [n] }));
      }
    }
  }
  for (const u of r.nonResourceURLs ?? []) for (const v of r.verbs ?? []) out.push(rule({ nonResourceURLs: [u], verbs: [v] }));
  return out;
}

const hasAll = (set: readonly string[], want: readonly string[]): boolean => want.every((w) => set.includes(w));

function groupsCover(owner: readonly string[], want: readonly string[]): boolean {
  if (owner.includes(ALL)) return true;
  const owned = new Set(owner.map(canonicalGroup));
  return want.every((g) => owned.has(canonicalGroup(g)));
}

/** `*`, every resource listed, or each missing `x/sub` covered by `*\/sub`. */
function resourcesCover(owner: readonly string[], want: readonly string[]): boolean {
  if (owner.includes(ALL) || hasAll(owner, want)) return true;
  return want.every((p) => {
    if (owner.includes(p)) return true;
    const slash = p.indexOf('/');
    return slash >= 0 && owner.includes(`*/${p.slice(slash + 1)}`);
  });
}

/** An equal URL, or an owner URL ending in `*` whose stem (trailing `*`s removed) prefixes it. */
export function nonResourceURLCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

const urlsCover = (owner: readonly string[], want: readonly string[]): boolean =>
  want.every((p) => owner.some((o) => nonResourceURLCovers(o, p)));

/** Whether one owner rule covers one broken-down rule (kube's ruleCovers). */
function ruleCovers(owner: PolicyRule, sub: Rule): boolean {
  const verbs = owner.verbs ?? [];
  const names = owner.resourceNames ?? [];
  const namesCover = sub.resourceNames.length === 0 ? names.length === 0 : names.length === 0 || hasAll(names, sub.resourceNames);
  return (verbs.includes(ALL) || hasAll(verbs, sub.verbs)) &&
    groupsCover(owner.apiGroups ?? [], sub.apiGroups) &&
    resourcesCover(owner.resources ?? [], sub.resources) &&
    urlsCover(owner.nonResourceURLs ?? [], sub.nonResourceURLs) &&
    namesCover;
}

/** kube's Covers: the broken-down servant rules no owner rule covers (empty when the owner covers them all). */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): Rule[] {
  return servantRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((o) => ruleCovers(o, sub)));
}

/** A broken-down rule as a stored PolicyRule: empty lists left out (as Go's nil slices are). */
export function policyRuleOf(r: Rule): PolicyRule {
  const out: { -readonly [K in keyof Rule]?: readonly string[] } = {};
  for (const k of ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) if (r[k].length > 0) out[k] = [...r[k]];
  return out;
}

/**
 * kube's CompactRules: rules naming one group and one resource and nothing
 * but verbs are merged per (group, resource), verbs in order; the others
 * come first, as they were.
 */
export function compactRules(rules: readonly Rule[]): Rule[] {
  const others: Rule[] = [];
  const simple = new Map<string, { apiGroups: readonly string[]; resources: readonly string[]; verbs: string[] }>();
  for (const r of rules) {
    const isSimple = r.resourceNames.length === 0 && r.nonResourceURLs.length === 0 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      others.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0]]);
    const seen = simple.get(key);
    if (seen) seen.verbs.push(...r.verbs);
    else simple.set(key, { apiGroups: r.apiGroups, resources: r.resources, verbs: [...r.verbs] });
  }
  return [...others, ...[...simple.values()].map(rule)];
}

const goList = (xs: readonly string[]): string => `[${xs.map(goQuote).join(' ')}]`;

/** kube's CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`, empty lists left out. */
export function compactString(r: Rule): string {
  const parts: string[] = [];
  if (r.apiGroups.length > 0) parts.push(`APIGroups:${goList(r.apiGroups)}`);
  if (r.resources.length > 0) parts.push(`Resources:${goList(r.resources)}`);
  if (r.nonResourceURLs.length > 0) parts.push(`NonResourceURLs:${goList(r.nonResourceURLs)}`);
  if (r.resourceNames.length > 0) parts.push(`ResourceNames:${goList(r.resourceNames)}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** Go's byte-wise string order (sets.String.List). */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * ConfirmNoEscalation's message for the rules the user lacks: the compacted
 * rules, each once, sorted; the resolver's errors (if any) after them.
 */
export function escalationMessage(user: UserInfo, missing: readonly Rule[], resolutionErrors: readonly string[]): string {
  const lines = [...new Set(compactRules(missing).map(compactString))].sort(byBytes);
  let msg = `user ${goQuote(user.name)} (groups=${goList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (resolutionErrors.length > 0) msg += `; resolution errors: [${aggregateErrors(resolutionErrors)}]`;
  return msg;
}

/** Where the user's rules come from (RbacAuthorizer, or the registry-backed resolver): every rule and every resolution error. */
export interface RuleResolver {
  visitRulesFor(
    user: UserInfo,
    namespace: string,
    visit: (source: string, rule: PolicyRule | undefined, err: string | undefined) => boolean,
  ): void | Promise<void>;
}

/**
 * kube's ConfirmNoEscalation: undefined when the rules the user holds in the
 * namespace ('' = cluster-wide bindings only) cover `rules`, else the message.
 */
export async function confirmNoEscalation(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): Promise<string | undefined> {
  const owned: PolicyRule[] = [];
  const errors: string[] = [];
  await resolver.visitRulesFor(user, namespace, (_source, r, err) => {
    if (r) owned.push(r);
    if (err !== undefined) errors.push(err);
    return true;
  });
  const missing = covers(owned, rules);
  return missing.length === 0 ? undefined : escalationMessage(user, missing, errors);
}
