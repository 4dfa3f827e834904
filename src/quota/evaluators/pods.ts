// Pods (kube's podEvaluator): `count/pods` for every pod in storage; while a
// pod still runs (not Succeeded/Failed, not past its deletion grace) also
// `pods` and its compute: `cpu`, `memory`, `ephemeral-storage` (= requests),
// `requests.*` and `limits.*` of the three, `hugepages-<size>` and
// `requests.hugepages-<size>`, and for an extended resource only
// `requests.<name>` (quota has no limits for them). Requests and limits are
// the pod's effective ones (podresources.ts). Scopes: podscopes.ts.
import type { ApiObject } from '../../registry/object.js';
import type { ScopedResourceSelectorRequirement, UsageEvaluator } from '../evaluator.js';
import { listsEqual, parseResourceList, type ResourceList } from '../resources.js';
import { isExtendedResourceName } from '../../api/core/v1/resourcenames.js';
import { quantityOf } from '../../api/meta/quantity.js';
import { count, intersect, quotaScopeSelectors, rec } from './common.js';
import { podLimits, podRequests } from './podresources.js';
import { podMatchesScope } from './podscopes.js';

const POD_RESOURCES = new Set([
  'count/pods', 'cpu', 'memory', 'ephemeral-storage',
  'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
]);
/** Quota names by prefix (hugepages of any size). */
const POD_RESOURCE_PREFIXES = ['hugepages-', 'requests.hugepages-'];
/** The names a quota on which obliges every container to state the value (a historical mistake kube keeps; no others are added). */
const REQUIRED_BY_QUOTA = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** A quota name for an extended resource: `requests.<name>` of a name outside Kubernetes' own. */
const isExtendedQuotaName = (n: string): boolean => n.startsWith('requests.') && n.includes('/') && !n.includes('kubernetes.io/') && !n.includes('svc.io/');

/** The compute resources and their quota names (no name built per pod: every pod create is measured). */
const COMPUTE = [
  ['cpu', 'requests.cpu', 'limits.cpu'], ['memory', 'requests.memory', 'limits.memory'],
  ['ephemeral-storage', 'requests.ephemeral-storage', 'limits.ephemeral-storage'],
] as const;
const isCompute = (name: string) => COMPUTE.some(([r]) => r === name);
/** One pod, counted (frozen: lists share their quantities, never change them). */
const ONE = Object.freeze(count(1));

/** The quota names of some requests and limits (kube's podComputeUsageHelper); always `pods: 1`. */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  return computeUsageInto({}, requests, limits);
}

/** computeUsage's names added to `out`. */
function computeUsageInto(out: ResourceList, requests: ResourceList, limits: ResourceList): ResourceList {
  out.pods = ONE;
  for (const [r, req, lim] of COMPUTE) {
    const q = requests[r];
    if (q) out[r] = out[req] = q;
    const l = limits[r];
    if (l) out[lim] = l;
  }
  for (const name in requests) {
    if (isCompute(name)) continue;
    const q = requests[name]!;
    if (name.startsWith('hugepages-')) out[name] = out[`requests.${name}`] = q;
    if (isExtendedResourceName(name)) out[`requests.${name}`] = q;
  }
  return out;
}

/**
 * Whether a pod still charges quota for what it runs (kube's QuotaV1Pod): not
 * in a terminal phase, and not past deletionTimestamp + deletionGracePeriodSeconds.
 */
export function podCounts(pod: ApiObject, now: number): boolean {
  const phase = rec(pod.status).phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp && typeof deletionGracePeriodSeconds === 'number') {
    const deadline = Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000;
    if (now > deadline) return false;
  }
  return true;
}

/**
 * Whether a container's status.allocatedResources changed between two
 * versions of a pod with as many container statuses (kube's
 * hasAllocatedResourcesChanged, with InPlacePodVerticalScaling).
 */
export function allocatedResourcesChanged(old: ApiObject, cur: ApiObject): boolean {
  const a = rec(old.status).containerStatuses;
  const b = rec(cur.status).containerStatuses;
  const as = Array.isArray(a) ? a : [];
  const bs = Array.isArray(b) ? b : [];
  if (as.length !== bs.length) return false;
  return as.some((s, i) => !listsEqual(parseResourceList(rec(s).allocatedResources), parseResourceList(rec(bs[i]).allocatedResources)));
}

/** The usage of one pod at `now`. */
export function podUsage(pod: ApiObject, now = Date.now()): ResourceList {
  const out: ResourceList = { 'count/pods': ONE };
  if (!podCounts(pod, now)) return out;
  return computeUsageInto(out, podRequests(pod), podLimits(pod));
}

/**
 * kube's pod Constraints: of `required`, the cpu/memory names every container
 * (app and init) must state; the text naming what is missing where, or undefined.
 */
export function podConstraints(required: readonly string[], pod: ApiObject): string | undefined {
  const needed = neededOf(required);
  if (needed.length === 0) return undefined;
  let missing: Map<string, Set<string>> | undefined;
  const spec = rec(pod.spec);
  for (const key of ['containers', 'initContainers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      const resources = rec(rec(c).resources);
      for (const n of needed) {
        if (quantityOf(rec(resources[n.field])[n.resource]) !== undefined) continue;
        missing ??= new Map();
        const names = missing.get(n.name) ?? new Set<string>();
        names.add(String(rec(c).name ?? ''));
        missing.set(n.name, names);
      }
    }
  }
  if (!missing) return undefined;
  const parts = [...missing.keys()].sort().map((n) => `${n} for: ${[...missing!.get(n)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/**
 * The REQUIRED_BY_QUOTA names of `required`, each with where a container
 * states it — what its computeUsage would hold: `cpu`/`memory` and
 * `requests.*` from a request, `limits.*` from a limit. Per `required` array
 * (the quota admission's matching names, the same for every write against a
 * quota).
 */
interface Needed { readonly name: string; readonly field: 'requests' | 'limits'; readonly resource: string }
const neededMemo = new WeakMap<readonly string[], readonly Needed[]>();
function neededOf(required: readonly string[]): readonly Needed[] {
  let needed = neededMemo.get(required);
  if (!needed) {
    needed = required.filter((n) => REQUIRED_BY_QUOTA.has(n)).map((name) => {
      const dot = name.indexOf('.');
      return { name, field: dot < 0 || name.startsWith('requests.') ? 'requests' : 'limits', resource: dot < 0 ? name : name.slice(dot + 1) };
    });
    neededMemo.set(required, needed);
  }
  return needed;
}

export function podEvaluator(opts: { inPlacePodVerticalScaling?: boolean } = {}): UsageEvaluator {
  return {
    group: '',
    resource: 'pods',
    // v1.27: creates; updates only with InPlacePodVerticalScaling (alpha), when resources may change.
    handles: (operation, subresource) => subresource === '' && (operation === 'CREATE' || (operation === 'UPDATE' && opts.inPlacePodVerticalScaling === true)),
    matchingResources(input) {
      const out = intersect(input, POD_RESOURCES);
      for (const n of input) {
        if (out.includes(n)) continue;
        if (POD_RESOURCE_PREFIXES.some((p) => n.startsWith(p)) || isExtendedQuotaName(n)) out.push(n);
      }
      return out;
    },
    matchesScopes: (quota, pod) => quotaScopeSelectors(quota).every((s) => podMatchesScope(s, pod)),
    matchingScopes: (pod, scopes) => scopes.filter((s) => podMatchesScope(s, pod)),
    uncoveredScopes: (limited, quotaScopes) =>
      limited.filter((l: ScopedResourceSelectorRequirement) => !quotaScopes.some((q) => q.scopeName === l.scopeName)),
    usage: podUsage,
    counts: podCounts,
    releasedByUpdate: (old, cur, now) =>
      (opts.inPlacePodVerticalScaling === true && allocatedResourcesChanged(old, cur)) || (podCounts(old, now) && !podCounts(cur, now)),
    constraints: podConstraints,
  };
}
