// Catalogue types: what the API server needs to know about every resource
// Kubernetes v1.27 serves (storage, routes, discovery), in the project's
// svc.io group spelling. Pure data shapes; the data lives in one module per
// API group and is assembled by index.ts.
import type { APILifecycle } from '../../deprecation/lifecycle.js';

/** API verbs as discovery lists them. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const KNOWN_VERBS: readonly Verb[] = [
  'create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch',
];

/** Stability of an API version, from its name (v1, v2beta1, v1alpha1). */
export type Stability = 'ga' | 'beta' | 'alpha';

export interface GroupVersionKind {
  /** svc.io spelling; '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface SubresourceInfo {
  /** `status`, `scale`, `log`, `proxy`, … (one path segment). */
  readonly name: string;
  /** Kind of the subresource's body, e.g. `Scale`, `Eviction`, `PodExecOptions`, or the parent's kind. */
  readonly kind: string;
  /** Set only when the kind belongs to another group-version (scale → autoscaling/v1, eviction → policy/v1). */
  readonly group?: string;
  readonly version?: string;
  readonly verbs: readonly Verb[];
  /**
   * A connecter (exec, attach, portforward, proxy): the verbs map to HTTP
   * methods and the handler streams or upgrades rather than storing an object.
   */
  readonly connect?: boolean;
}

/** Deprecation of a served version, for the `Warning` header and the deprecated-API metric. */
export interface DeprecationInfo {
  /** Release that deprecated it, e.g. `1.26`. */
  readonly since: string;
  /** Release that stops serving it, when announced. */
  readonly removedIn?: string;
  /** What to use instead. */
  readonly replacement?: GroupVersionKind;
}

export interface ResourceInfo {
  /** svc.io spelling; '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural, lower case: the path segment. */
  readonly resource: string;
  readonly singularName: string;
  readonly kind: string;
  readonly listKind: string;
  readonly namespaced: boolean;
  /** Exactly what v1.27 discovery lists for the resource, sorted. */
  readonly verbs: readonly Verb[];
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly subresources: readonly SubresourceInfo[];
  /** Stability of the version (derived from its name). */
  readonly stability: Stability;
  /** Served when the server starts with no --runtime-config. */
  readonly enabledByDefault: boolean;
  /**
   * The version objects are encoded in when stored; every served version of
   * the resource shares one storage. A version of sharesStorageWith's group
   * when that is set. For a virtual resource, its own version.
   */
  readonly storageVersion: string;
  /** Not persisted: reviews, bindings, component statuses (computed or create-only). */
  readonly virtual?: boolean;
  /**
   * Objects live in another group's storage (events.svc.io/v1 events are the
   * core events, stored as v1 Event under the core `events` resource).
   */
  readonly sharesStorageWith?: { readonly group: string; readonly resource: string; readonly kind: string };
  /** Deprecated in the release this server is (derived from lifecycle). */
  readonly deprecated?: DeprecationInfo;
  /**
   * The kind's lifecycle in this version as kube v1.27's generated
   * zz_generated.prerelease-lifecycle.go (alpha/beta) or hand-written methods (GA) report it.
   */
  readonly lifecycle?: APILifecycle;
}

export interface VersionInfo {
  readonly version: string;
  readonly stability: Stability;
  /** Served by default: the whole version, or (legacy betas) some of its resources. */
  readonly enabledByDefault: boolean;
  /** Kubernetes' APIService version priority within the group (higher first). */
  readonly versionPriority: number;
  readonly resources: readonly ResourceInfo[];
}

export interface GroupInfo {
  /** svc.io spelling; '' for the core group. */
  readonly name: string;
  /** Kubernetes spelling (same as name for groups without k8s.io). */
  readonly k8sName: string;
  /**
   * Kubernetes' APIService group priority (higher is listed first in /apis).
   * apiregistration has none: the aggregator always lists its own group first.
   */
  readonly groupPriorityMinimum?: number;
  /** Versions in discovery order: highest version priority first. */
  readonly versions: readonly VersionInfo[];
  /** The preferred version with the default configuration (the first version when none is on by default). */
  readonly preferredVersion: string;
}
