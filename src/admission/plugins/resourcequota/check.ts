// One write measured against the namespace's quotas (kube's CheckRequest):
// which quotas cover the object, whether their status is known, whether the
// write's usage delta fits `used + delta ≤ hard`, and whether limited
// resources and scopes are covered. Answers the quotas with status.used as it
// would be after the write (not yet stored), or throws the refusal.
import type { AdmissionAttributes } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { isObject } from '../../../registry/object.js';
import type { ScopedResourceSelectorRequirement, UsageEvaluator } from '../../../quota/evaluator.js';
import {
  addLists, exceeding, formatResourceList, isZeroList, listsEqual, maskList, parseResourceList, resourceNames, type ResourceList,
} from '../../../quota/resources.js';
import { formatQuantity } from '../../../api/meta/quantity.js';
import { admissionForbidden, plainError } from '../common.js';
import { sameGroup, type LimitedResource } from './config.js';
import { quotaScopeSelectors } from '../../../quota/evaluators/common.js';


// A batch asks each quota object for its lists many times (once per waiting request): parsed once per object.
// The objects are never changed in place (withUsed makes a new one), so the memo stays true.
// `pending`: made by withUsed, status.used not yet written as text (forWrite writes it).
interface Lists { hard?: ResourceList; used?: ResourceList; readonly pending?: boolean }
const listsOf = new WeakMap<ApiObject, Lists>();
const lists = (q: ApiObject): Lists => {
  let l = listsOf.get(q);
  if (!l) listsOf.set(q, (l = {}));
  return l;
};
const field = (q: ApiObject, name: 'hard' | 'used'): ResourceList => parseResourceList(isObject(q.status) ? q.status[name] : undefined);
export const statusHard = (q: ApiObject): ResourceList => {
  const l = lists(q);
  return (l.hard ??= field(q, 'hard'));
};
export const statusUsed = (q: ApiObject): ResourceList => {
  const l = lists(q);
  return (l.used ??= field(q, 'used'));
};

const NONE: readonly never[] = Object.freeze([]);

/** kube's prettyPrint: `name=quantity` sorted by name, joined by ','. */
export const prettyPrint = (l: ResourceList): string => resourceNames(l).map((k) => `${k}=${formatQuantity(l[k]!)}`).join(',');
const prettyNames = (names: readonly string[]): string => [...names].sort().join(',');

/** Go's %v of []ScopedResourceSelectorRequirement: `[{PriorityClass In [high]}]`. */
export const goScopes = (s: readonly ScopedResourceSelectorRequirement[]): string =>
  `[${s.map((r) => `{${r.scopeName} ${r.operator} [${(r.values ?? []).join(' ')}]}`).join(' ')}]`;

/** The names of a quota's status.hard that an evaluator counts; the same for every write a batch checks against the quota. */
const matchingOf = new WeakMap<ResourceList, { ev: UsageEvaluator; names: readonly string[] }>();
function matchingNames(ev: UsageEvaluator, quota: ApiObject): readonly string[] {
  const hard = statusHard(quota);
  const m = matchingOf.get(hard);
  if (m && m.ev === ev) return m.names;
  const names = ev.matchingResources(resourceNames(hard));
  matchingOf.set(hard, { ev, names });
  return names;
}

/** kube's generic Matches: the quota names a resource the evaluator counts (in status.hard) and its scopes select the object. */
export function quotaMatches(ev: UsageEvaluator, quota: ApiObject, obj: ApiObject): boolean {
  return matchingNames(ev, quota).length > 0 && ev.matchesScopes(quota, obj);
}

function removeZeros(l: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const k in l) if (l[k]!.nanos !== 0n) out[k] = l[k]!;
  return out;
}

/** a − b per name of either, never below zero (kube's SubtractWithNonNegativeResult). */
function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = {};
  for (const [k, q] of Object.entries(a)) {
    const d = q.nanos - (b[k]?.nanos ?? 0n);
    out[k] = { nanos: d > 0n ? d : 0n, format: q.format };
  }
  for (const [k, q] of Object.entries(b)) if (!out[k]) out[k] = { nanos: 0n, format: q.format };
  return out;
}

/** The resource names whose use needs a covering quota (kube's limitedByDefault). */
function limitedByDefault(usage: ResourceList, limited: readonly LimitedResource[]): string[] {
  const out = new Set<string>();
  for (const l of limited) {
    for (const [name, q] of Object.entries(usage)) {
      if (q.nanos > 0n && l.matchContains.some((m) => name.includes(m))) out.add(name);
    }
  }
  return [...out];
}

/**
 * The quota with status.used replaced. The list is kept parsed (statusUsed):
 * a batch makes one such quota per admitted write and writes only the last,
 * so its text is made by forWrite() once.
 */
export function withUsed(q: ApiObject, used: ResourceList): ApiObject {
  const status = isObject(q.status) ? q.status : {};
  const out = { ...q, status: { ...status } };
  listsOf.set(out, { hard: statusHard(q), used, pending: true });
  return out;
}

/**
 * The quota as it is written: status.used as text (quantities in canonical
 * form, names sorted), and no metadata.managedFields — a /status write's
 * come from the live object whatever the request carries (kube's
 * FieldManager for a subresource), so sending them only made the store copy them.
 */
export function forWrite(q: ApiObject): ApiObject {
  if (listsOf.get(q)?.pending !== true) return q;
  const { managedFields: _, ...metadata } = q.metadata;
  const out = { ...q, metadata, status: { ...(q.status as object), used: formatResourceList(statusUsed(q)) } };
  listsOf.set(out, { hard: statusHard(q), used: statusUsed(q) });
  return out;
}

/**
 * The quotas as they would be after the write, or a refusal (403 with kube's
 * texts; the uncovered-scopes refusal is a plain error, as kube's).
 */
export function checkRequest(quotas: readonly ApiObject[], a: AdmissionAttributes, ev: UsageEvaluator, limited: readonly LimitedResource[]): readonly ApiObject[] {
  const subresource = a.subresource ?? '';
  if (!ev.handles(a.operation, subresource)) return quotas;
  const obj = a.object;
  if (!obj) return quotas;

  // no limited resources (the common configuration): nothing of them to work out per write
  const limitedScopes = limited.length === 0 ? NONE : limited.flatMap((l) => ev.matchingScopes(obj, l.matchScopes));
  const forThis = limited.length === 0 ? NONE : limited.filter((l) => sameGroup(l.apiGroup, a.resource.group) && l.resource === a.resource.resource);
  const limitedNames = forThis.length > 0 ? limitedByDefault(ev.usage(obj), forThis) : [];

  const interesting: number[] = [];
  const restricted = new Set<string>();
  // the quotas' scopes only matter against limited scopes (uncoveredScopes of none is none)
  const restrictedScopes: ScopedResourceSelectorRequirement[] = [];
  for (let i = 0; i < quotas.length; i++) {
    const quota = quotas[i]!;
    if (limitedScopes.length > 0) restrictedScopes.push(...ev.matchingScopes(obj, quotaScopeSelectors(quota)));
    if (!quotaMatches(ev, quota, obj)) continue;
    const hard = statusHard(quota);
    const names = matchingNames(ev, quota);
    const failed = ev.constraints(names, obj);
    if (failed) throw admissionForbidden(a, `failed quota: ${quota.metadata.name}: ${failed}`);
    const used = statusUsed(quota);
    if (names.some((n) => hard[n] && !used[n])) {
      throw admissionForbidden(a, `status unknown for quota: ${quota.metadata.name}, resources: ${prettyNames(names)}`);
    }
    interesting.push(i);
    for (const n of names) restricted.add(n);
  }

  const input = ev.usage(obj);
  let negative: string[] | undefined;
  for (const k in input) if (input[k]!.nanos < 0n) (negative ??= []).push(k);
  if (negative) throw admissionForbidden(a, `quota usage is negative for resource(s): ${prettyNames(negative)}`);

  const delta = new Map<number, ResourceList>(interesting.map((i) => [i, input]));
  let deltaWithoutQuota: ResourceList = a.operation === 'CREATE' && interesting.length === 0 ? input : {};
  if (a.operation === 'UPDATE') {
    const old = a.oldObject;
    if (!old) throw admissionForbidden(a, 'unable to get previous usage since prior version of object was not found');
    if (old.metadata.resourceVersion) {
      const d = subtractNonNegative(input, ev.usage(old));
      if (interesting.length === 0) deltaWithoutQuota = d;
      for (const i of interesting) if (quotaMatches(ev, quotas[i]!, old)) delta.set(i, d);
    } else if (interesting.length === 0) {
      deltaWithoutQuota = input;
    }
  }
  for (const [i, d] of delta) {
    const nonZero = removeZeros(d);
    if (Object.keys(nonZero).length === 0) delta.delete(i);
    else delta.set(i, nonZero);
  }
  if (interesting.length > 0 ? delta.size === 0 : isZeroList(deltaWithoutQuota)) return quotas;

  const uncovered = limitedNames.filter((n) => !restricted.has(n)).sort();
  if (uncovered.length > 0) throw admissionForbidden(a, `insufficient quota to consume: ${uncovered.join(',')}`);
  const uncoveredScopes = ev.uncoveredScopes(limitedScopes, restrictedScopes);
  if (uncoveredScopes.length > 0) throw plainError(`insufficient quota to match these scopes: ${goScopes(uncoveredScopes)}`);
  if (interesting.length === 0) return quotas;

  const out = [...quotas];
  for (const i of interesting) {
    const d = delta.get(i);
    if (!d) continue;
    const quota = quotas[i]!;
    const hard = statusHard(quota);
    const used = statusUsed(quota);
    // the delta's entries the quota limits (maskList(d, names of hard), walked over the smaller list)
    const requested: ResourceList = {};
    for (const n in d) if (hard[n]) requested[n] = d[n]!;
    const next = addLists(used, requested);
    const over = exceeding(maskList(next, Object.keys(requested)), hard);
    if (over.length > 0) {
      throw admissionForbidden(a, `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(maskList(requested, over))}, ` +
        `used: ${prettyPrint(maskList(used, over))}, limited: ${prettyPrint(maskList(hard, over))}`);
    }
    if (!listsEqual(next, used)) out[i] = withUsed(quota, next);
  }
  return out;
}
