// Whether a policy (its matchConstraints) or a binding (its matchResources)
// applies to a request (kube's validatingadmissionpolicy/matching): the
// namespaceSelector, then the objectSelector, then excludeResourceRules
// (an excluded request never matches), then resourceRules (none: every
// request, with its own kind); a rule with resourceNames matches only those
// names; with matchPolicy Equivalent, rules are tried against the request's
// equivalent resources too, and the match answers the kind the rule named
// (the version the policy sees the object in). Selector errors (a missing
// namespace) count only when the rules matched. The pieces are the
// webhooks': rules.ts, selectors.ts, equivalence.ts.
import type { AdmissionAttributes } from '../../../registry/admission.js';
import { ruleMatches, type RuleTarget } from '../../webhooks/rules.js';
import { matchesObjectSelector, namespaceSelectorDecision } from '../../webhooks/selectors.js';
import { selectorIsEmpty, selectorMatches } from '../../../api/meta/checks.js';
import { target, type MatchDeps, type RequestView } from '../../webhooks/match.js';
import { rule as ruleOf, type WebhookRule } from '../../webhooks/types.js';
import type { GroupVersionKind } from '../../webhooks/equivalence.js';

export interface NamedRule {
  readonly rule: WebhookRule;
  readonly resourceNames: readonly string[];
}

export interface MatchResources {
  readonly namespaceSelector: unknown;
  readonly objectSelector: unknown;
  /** Empty selectors match everything: decided once, when the object is read. */
  readonly namespaceSelectorEmpty: boolean;
  /** The namespaceSelector against a namespace's labels (matchLabels alone compared directly). */
  readonly namespaceLabelsMatch: (labels: Readonly<Record<string, string>>) => boolean;
  readonly objectSelectorEmpty: boolean;
  readonly resourceRules: readonly NamedRule[];
  readonly excludeResourceRules: readonly NamedRule[];
  /** Unset counts as Exact (the API defaults it to Equivalent). */
  readonly matchPolicy: string | undefined;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const namedRules = (v: unknown): NamedRule[] => (Array.isArray(v) ? v : []).map((r) => ({
  rule: ruleOf(r),
  resourceNames: (Array.isArray(obj(r).resourceNames) ? (obj(r).resourceNames as unknown[]) : []).filter((n): n is string => typeof n === 'string'),
}));

/** A selector as a predicate over labels, made once. */
function labelsPredicate(sel: unknown): (labels: Readonly<Record<string, string>>) => boolean {
  const s = obj(sel);
  const expressions = Array.isArray(s.matchExpressions) ? s.matchExpressions : [];
  if (expressions.length > 0) return (labels) => selectorMatches(sel, labels as Record<string, string>);
  const pairs = Object.entries(obj(s.matchLabels));
  return (labels) => {
    for (let i = 0; i < pairs.length; i++) if (labels[pairs[i]![0]] !== pairs[i]![1]) return false;
    return true;
  };
}

export function matchResourcesOf(v: unknown): MatchResources {
  const m = obj(v);
  return {
    namespaceSelector: m.namespaceSelector ?? {},
    objectSelector: m.objectSelector ?? {},
    namespaceSelectorEmpty: selectorIsEmpty(m.namespaceSelector ?? {}),
    namespaceLabelsMatch: labelsPredicate(m.namespaceSelector ?? {}),
    objectSelectorEmpty: selectorIsEmpty(m.objectSelector ?? {}),
    resourceRules: namedRules(m.resourceRules),
    excludeResourceRules: namedRules(m.excludeResourceRules),
    matchPolicy: typeof m.matchPolicy === 'string' ? m.matchPolicy : undefined,
  };
}

export type MatchOutcome = { readonly matches: false } | { readonly matches: true; readonly kind: GroupVersionKind };

const NO: MatchOutcome = { matches: false };

function namesMatch(r: NamedRule, a: AdmissionAttributes): boolean {
  return r.resourceNames.length === 0 || r.resourceNames.includes(a.name);
}

/** The rules against the request, then (Equivalent) against its equivalent resources. */
function matchRules(rules: readonly NamedRule[], matchPolicy: string | undefined, a: AdmissionAttributes, req: RequestView, deps: Pick<MatchDeps, 'equivalents'>, own: RuleTarget): MatchOutcome {
  if (rules.length === 0) return NO;
  for (const r of rules) if (ruleMatches(r.rule, own) && namesMatch(r, a)) return { matches: true, kind: req.kind };
  if (matchPolicy !== 'Equivalent') return NO;
  const equivalents = deps.equivalents.equivalentsOf(req.resource, req.subresource);
  for (const r of rules) {
    for (const e of equivalents) {
      if (e.resource.group === req.resource.group && e.resource.version === req.resource.version && e.resource.resource === req.resource.resource) continue;
      if (ruleMatches(r.rule, target(a, e.resource, req.subresource)) && namesMatch(r, a)) return { matches: true, kind: e.kind };
    }
  }
  return NO;
}

/** The request's namespace labels as looked up once per request (or the lookup's error). */
export type NamespaceLookup = { readonly labels: Readonly<Record<string, string>> } | { readonly error: unknown };

/**
 * Whether the criteria match; `namespace` answers the namespace's labels when
 * the namespaceSelector needs them ('lookup': they are not known yet — the
 * caller looks them up and asks again). Throws the selector's error (a
 * missing namespace) when the criteria match otherwise.
 */
export function matches(
  m: MatchResources, a: AdmissionAttributes, req: RequestView, deps: Pick<MatchDeps, 'equivalents'>, namespace: NamespaceLookup | undefined,
  own: RuleTarget = target(a, req.resource, req.subresource),
): MatchOutcome | 'lookup' {
  let nsError: unknown;
  const d = m.namespaceSelectorEmpty ? true : namespaceSelectorDecision(m.namespaceSelector, a);
  if (d === false) return NO;
  if (d !== true) {
    if (!namespace) return 'lookup';
    if ('error' in namespace) nsError = namespace.error;
    else if (!m.namespaceLabelsMatch(namespace.labels)) return NO;
  }
  if (!m.objectSelectorEmpty && !matchesObjectSelector(m.objectSelector, a)) return NO;
  if (matchRules(m.excludeResourceRules, m.matchPolicy, a, req, deps, own).matches) return NO;
  const outcome = m.resourceRules.length === 0 ? { matches: true as const, kind: req.kind } : matchRules(m.resourceRules, m.matchPolicy, a, req, deps, own);
  if (!outcome.matches) return NO;
  if (nsError !== undefined) throw nsError;
  return outcome;
}
