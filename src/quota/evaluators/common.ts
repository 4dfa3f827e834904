// What the quota evaluators share: a quota's scopes as selector requirements,
// the behaviour of an evaluator that knows no scopes, counted quantities and
// the object-count resource names (in both group spellings).
import type { Quantity } from '../../api/meta/quantity.js';
import { canonicalGroup, kubernetesGroup } from '../../endpoints/requestinfo.js';
import { isObject, type ApiObject } from '../../registry/object.js';
import type { ScopedResourceSelectorRequirement, UsageEvaluator } from '../evaluator.js';

/** A plain-object field of a JSON value, or an empty one. */
export const rec = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

/** n as a DecimalSI quantity. */
export const count = (n: number | bigint): Quantity => ({ nanos: BigInt(n) * 1_000_000_000n, format: 'DecimalSI' });

/**
 * A quota's scopes as selector requirements (kube's getScopeSelectorsFromQuota):
 * each of spec.scopes as {scopeName, operator: Exists}, then
 * spec.scopeSelector.matchExpressions.
 */
export function quotaScopeSelectors(quota: ApiObject): readonly ScopedResourceSelectorRequirement[] {
  const spec = rec(quota.spec);
  // a frozen spec (the watch cache's shared objects, which admission checks every write against) cannot change: read once
  if (!Object.isFrozen(spec)) return scopeSelectorsOf(spec);
  let out = selectorsOf.get(spec);
  if (!out) selectorsOf.set(spec, (out = Object.freeze(scopeSelectorsOf(spec))));
  return out;
}
const selectorsOf = new WeakMap<object, readonly ScopedResourceSelectorRequirement[]>();

function scopeSelectorsOf(spec: Record<string, unknown>): ScopedResourceSelectorRequirement[] {
  const out: ScopedResourceSelectorRequirement[] = [];
  if (Array.isArray(spec.scopes)) {
    for (const s of spec.scopes) if (typeof s === 'string') out.push({ scopeName: s, operator: 'Exists' });
  }
  const exprs = rec(spec.scopeSelector).matchExpressions;
  if (Array.isArray(exprs)) {
    for (const e of exprs) {
      if (!isObject(e) || typeof e.scopeName !== 'string') continue;
      const values = Array.isArray(e.values) ? e.values.filter((v): v is string => typeof v === 'string') : undefined;
      out.push({ scopeName: e.scopeName, operator: e.operator as ScopedResourceSelectorRequirement['operator'], ...(values ? { values } : {}) });
    }
  }
  return out;
}

/** The scope members of an evaluator that knows no scope (kube's MatchesNoScopeFunc): it matches only quotas without scopes. */
export const NO_SCOPES: Pick<UsageEvaluator, 'matchesScopes' | 'matchingScopes' | 'uncoveredScopes' | 'constraints'> = {
  matchesScopes: (quota) => quotaScopeSelectors(quota).length === 0,
  matchingScopes: () => [],
  uncoveredScopes: () => [],
  constraints: () => undefined,
};

/**
 * The object-count names of a resource: `count/<resource>` for core,
 * `count/<resource>.<group>` otherwise — in the svc.io and the k8s.io
 * spelling when the group has both (count/ingresses.networking.svc.io,
 * count/ingresses.networking.k8s.io).
 */
export function objectCountNames(group: string, resource: string): string[] {
  if (group === '') return [`count/${resource}`];
  const svc = canonicalGroup(group);
  const kube = kubernetesGroup(svc);
  return svc === kube ? [`count/${resource}.${svc}`] : [`count/${resource}.${svc}`, `count/${resource}.${kube}`];
}

/** The names of `names` that are in `known`, each once, in the order given. */
export function intersect(names: readonly string[], known: ReadonlySet<string>): string[] {
  return [...new Set(names.filter((n) => known.has(n)))];
}
