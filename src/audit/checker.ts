// Policy evaluation (kube's pkg/audit/policy/checker.go): the first rule that
// matches a request decides its level; none → None. A rule's omitStages add
// to the policy's; its omitManagedFields, when set, overrides the policy's.
// Groups compare in either spelling (a rule naming rbac.authorization.k8s.io
// matches requests to rbac.authorization.svc.io, and the reverse).
import { canonicalGroup } from '../endpoints/requestinfo.js';
import type { Level, Policy, PolicyRule, RequestAuditConfig, Stage } from './types.js';

/** What a rule looks at (kube's authorizer.Attributes). */
export interface AuditAttributes {
  readonly user: { readonly name: string; readonly groups: readonly string[] };
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** The request path (non-resource requests). */
  readonly path: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
  readonly resource?: string;
  readonly subresource?: string;
  readonly name?: string;
}

interface CompiledGroup {
  readonly group: string;
  readonly resources: readonly string[];
  readonly names: ReadonlySet<string> | undefined;
}

interface CompiledRule {
  readonly config: RequestAuditConfig;
  readonly users: ReadonlySet<string> | undefined;
  readonly groups: ReadonlySet<string> | undefined;
  readonly verbs: ReadonlySet<string> | undefined;
  readonly namespaces: ReadonlySet<string> | undefined;
  readonly resources: readonly CompiledGroup[] | undefined;
  readonly urls: readonly string[] | undefined;
}

const setOf = (l: readonly string[] | undefined) => (l && l.length > 0 ? new Set(l) : undefined);

export class PolicyEvaluator {
  private readonly rules: CompiledRule[];
  private readonly none: RequestAuditConfig;

  constructor(policy: Policy) {
    const policyOmit = policy.omitStages ?? [];
    const policyOMF = policy.omitManagedFields ?? false;
    this.none = { level: 'None', omitStages: policyOmit, omitManagedFields: policyOMF };
    this.rules = policy.rules.map((r) => compile(r, policyOmit, policyOMF));
  }

  evaluate(a: AuditAttributes): RequestAuditConfig {
    for (const r of this.rules) if (matches(r, a)) return r.config;
    return this.none;
  }
}

function compile(r: PolicyRule, policyOmit: readonly Stage[], policyOMF: boolean): CompiledRule {
  const omit = [...new Set([...policyOmit, ...(r.omitStages ?? [])])];
  return {
    config: { level: r.level as Level, omitStages: omit, omitManagedFields: r.omitManagedFields ?? policyOMF },
    users: setOf(r.users),
    groups: setOf(r.userGroups),
    verbs: setOf(r.verbs),
    namespaces: setOf(r.namespaces),
    resources: r.resources && r.resources.length > 0
      ? r.resources.map((g) => ({ group: canonicalGroup(g.group ?? ''), resources: g.resources ?? [], names: setOf(g.resourceNames) }))
      : undefined,
    urls: r.nonResourceURLs && r.nonResourceURLs.length > 0 ? r.nonResourceURLs : undefined,
  };
}

function matches(r: CompiledRule, a: AuditAttributes): boolean {
  if (r.users && !r.users.has(a.user.name)) return false;
  if (r.groups && !a.user.groups.some((g) => r.groups!.has(g))) return false;
  if (r.verbs && !r.verbs.has(a.verb)) return false;
  if (r.namespaces || r.resources) return matchesResource(r, a);
  if (r.urls) return !a.isResourceRequest && r.urls.some((spec) => pathMatches(a.path, spec));
  return true;
}

function matchesResource(r: CompiledRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (r.namespaces && !r.namespaces.has(a.namespace ?? '')) return false;
  if (!r.resources) return true;
  const group = canonicalGroup(a.apiGroup ?? '');
  const resource = a.resource ?? '';
  const sub = a.subresource ?? '';
  const combined = sub ? `${resource}/${sub}` : resource;
  for (const g of r.resources) {
    if (g.group !== group) continue;
    if (g.resources.length === 0) return true;
    if (g.names && !g.names.has(a.name ?? '')) continue;
    for (const res of g.resources) {
      if (res === combined || res === '*') return true;
      if (sub !== '' && res.startsWith('*/') && res.slice(2) === sub) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}

/** A nonResourceURLs entry: `*`, the exact path, or a prefix ending in `*`. */
export function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.slice(0, -1));
}
