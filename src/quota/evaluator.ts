// What quota knows about one resource (kube's quota.Evaluator): which quota
// resource names it counts, whether a quota's scopes select an object, and
// the usage one object accounts for. The ResourceQuota admission plugin
// (src/admission/plugins/resourcequota/) asks it about the object being
// written; the quota controller (src/controllers/resourcequota.ts) sums it
// over a namespace. Implementations: src/quota/evaluators/.
import type { ApiObject } from '../registry/object.js';
import type { ResourceList } from './resources.js';

export interface GroupResource {
  /** The group in its svc.io spelling ('' for core). */
  readonly group: string;
  readonly resource: string;
}

export interface UsageEvaluator extends GroupResource {
  /**
   * Whether admission measures this write: every CREATE; an UPDATE only
   * where usage can change (a pod's resources, a claim's size, a service's
   * type); never DELETE (the controller releases usage).
   */
  handles(operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT', subresource: string): boolean;
  /** The names among `names` (a quota's spec.hard) this evaluator accounts for. */
  matchingResources(names: readonly string[]): string[];
  /**
   * Whether the quota (a ResourceQuota object: spec.scopes, spec.scopeSelector)
   * selects the object — its scopes, not its resource names (kube's Matches
   * also wants matchingResources(names of status.hard) non-empty). An
   * evaluator without scopes (services, claims, object counts) matches only
   * quotas that have none.
   */
  matchesScopes(quota: ApiObject, obj: ApiObject): boolean;
  /**
   * The scopes of `scopes` (from the quota's scopes and scopeSelector, and
   * limitedResources' matchScopes) this evaluator cannot answer for the
   * object; admission refuses the write when a limited scope is uncovered.
   */
  uncoveredScopes(limitedScopes: readonly ScopedResourceSelectorRequirement[], quotaScopes: readonly ScopedResourceSelectorRequirement[]): ScopedResourceSelectorRequirement[];
  /** The scopes of spec.scopes/scopeSelector the object matches (for limitedResources.matchScopes). */
  matchingScopes(obj: ApiObject, scopes: readonly ScopedResourceSelectorRequirement[]): ScopedResourceSelectorRequirement[];
  /**
   * Usage of one object (every name it can produce; callers mask it with a
   * quota's names). Names with two spellings (count/ingresses.networking.svc.io
   * and ….k8s.io, gold.storageclass.storage.svc.io/… and ….k8s.io/…) are
   * produced in both, so masking with whichever a quota's hard uses finds them.
   * `now` (ms, default Date.now()): a pod past its deletion grace no longer
   * charges compute (kube's PodUsageFunc takes a clock); a pod that does not
   * `count` still charges `count/pods` — so callers sum usage() over every
   * object and never skip one on counts().
   */
  usage(obj: ApiObject, now?: number): ResourceList;
  /**
   * Whether an object still charges its lifecycle usage (kube's QuotaV1Pod:
   * pods in a terminal phase or past their deletion grace do not; every other
   * object does). usage() already applies it; the controller uses it to
   * notice when an update releases usage (replenishment).
   */
  counts(obj: ApiObject, now: number): boolean;
  /**
   * Whether an update of one object (`old` as last seen, `cur` now) makes
   * the quota controller recount its namespace (kube's DefaultUpdateFilter,
   * pkg/quota/v1/install): a pod that stops counting, a service whose quota
   * type changes, a claim (only with RecoverVolumeExpansionFailure). Absent:
   * updates never recount; deletes always do.
   */
  releasedByUpdate?(old: ApiObject, cur: ApiObject, now: number): boolean;
  /**
   * kube's Constraints: with `required` the names a matching quota limits, the
   * reason the object may not be admitted, or undefined. Only pods have one:
   * a quota on cpu or memory (requests or limits) requires every container to
   * state it — "must specify limits.cpu for: a,b; requests.memory for: a".
   * Admission reports it as `failed quota: <quota>: <text>`.
   */
  constraints(required: readonly string[], obj: ApiObject): string | undefined;
}

/** core/v1 ScopedResourceSelectorRequirement. */
export interface ScopedResourceSelectorRequirement {
  readonly scopeName: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values?: readonly string[];
}
