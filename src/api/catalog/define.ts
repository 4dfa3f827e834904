// Builders for the per-group data modules: a group is written as a compact
// spec (resources with only what differs from the usual CRUD resource) and
// expanded here into the frozen GroupInfo/ResourceInfo records of types.ts.
import type {
  DeprecationInfo, GroupInfo, ResourceInfo, Stability, SubresourceInfo, VersionInfo, Verb,
} from './types.js';
import { completeLifecycle, CURRENT_RELEASE, isDeprecated, type APILifecycle, type LifecycleTags } from '../../deprecation/lifecycle.js';

/** The verbs of an ordinary stored collection. */
export const CRUD: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** Create-only (reviews, bindings, tokens, evictions). */
export const CREATE: readonly Verb[] = ['create'];
/** An object subresource (status, scale, approval, ephemeralcontainers). */
export const GET_PATCH_UPDATE: readonly Verb[] = ['get', 'patch', 'update'];

export const status = (kind: string): SubresourceInfo => ({ name: 'status', kind, verbs: GET_PATCH_UPDATE });
/** `scale`, whose body is autoscaling/v1 Scale whatever the parent's group. */
export const scale: SubresourceInfo = { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: GET_PATCH_UPDATE };

export interface ResourceSpec {
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Default: CRUD. */
  readonly verbs?: readonly Verb[];
  /** Default: the kind in lower case. */
  readonly singularName?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly subresources?: readonly SubresourceInfo[];
  readonly virtual?: boolean;
  /** Overrides the version's default (legacy beta resources kept on). */
  readonly enabledByDefault?: boolean;
  readonly sharesStorageWith?: ResourceInfo['sharesStorageWith'];
  /**
   * kube v1.27's lifecycle tags of the kind in this version (`+k8s:prerelease-lifecycle-gen:…`):
   * alpha and beta kinds give at least `introduced` and get the generator's computed releases.
   */
  readonly lifecycle?: LifecycleTags;
}

/** The derived deprecation: set when the lifecycle deprecates the kind at or before this release. */
function deprecationOf(l: APILifecycle | undefined): DeprecationInfo | undefined {
  if (!l || !isDeprecated(l, CURRENT_RELEASE)) return undefined;
  return { since: l.deprecated!, ...(l.removed ? { removedIn: l.removed } : {}), ...(l.replacement ? { replacement: l.replacement } : {}) };
}

export interface VersionSpec {
  readonly version: string;
  /** Whether the whole version is on by default (GA: yes; alpha and post-1.24 beta: no). */
  readonly enabledByDefault: boolean;
  readonly versionPriority: number;
  readonly resources: readonly ResourceSpec[];
}

export interface GroupSpec {
  /** svc.io spelling. */
  readonly name: string;
  readonly groupPriorityMinimum?: number;
  /** Storage version of each resource served in more than one version. */
  readonly storageVersions?: Readonly<Record<string, string>>;
  /** In discovery order (highest version priority first). */
  readonly versions: readonly VersionSpec[];
}

/** Stability from the version's name, as Kubernetes defines it. */
export function stabilityOf(version: string): Stability {
  if (/^v\d+$/.test(version)) return 'ga';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  throw new Error(`not a Kubernetes API version: ${version}`);
}

/** The Kubernetes spelling of a group: `x.svc.io` → `x.k8s.io`; others unchanged. */
export function toK8sGroup(group: string): string {
  return respell(group, 'svc.io', 'k8s.io');
}

/** The svc.io spelling of a group: `x.k8s.io` → `x.svc.io`; others unchanged. */
export function toSvcGroup(group: string): string {
  return respell(group, 'k8s.io', 'svc.io');
}

function respell(group: string, from: string, to: string): string {
  if (group === from) return to;
  return group.endsWith(`.${from}`) ? group.slice(0, group.length - from.length) + to : group;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export function defineGroup(spec: GroupSpec): GroupInfo {
  const versions: VersionInfo[] = spec.versions.map((v) => {
    const stability = stabilityOf(v.version);
    const resources: ResourceInfo[] = v.resources.map((r) => {
      const lifecycle = r.lifecycle && completeLifecycle(stability, r.lifecycle);
      const deprecated = deprecationOf(lifecycle);
      const info: ResourceInfo = {
        group: spec.name,
        version: v.version,
        resource: r.resource,
        singularName: r.singularName ?? r.kind.toLowerCase(),
        kind: r.kind,
        listKind: `${r.kind}List`,
        namespaced: r.namespaced,
        verbs: r.verbs ?? CRUD,
        shortNames: r.shortNames ?? [],
        categories: r.categories ?? [],
        subresources: r.subresources ?? [],
        stability,
        enabledByDefault: r.enabledByDefault ?? v.enabledByDefault,
        storageVersion: spec.storageVersions?.[r.resource] ?? v.version,
        ...(r.virtual ? { virtual: true } : {}),
        ...(r.sharesStorageWith ? { sharesStorageWith: r.sharesStorageWith } : {}),
        ...(lifecycle ? { lifecycle } : {}),
        ...(deprecated ? { deprecated } : {}),
      };
      return info;
    });
    return {
      version: v.version,
      stability,
      enabledByDefault: resources.some((r) => r.enabledByDefault),
      versionPriority: v.versionPriority,
      resources,
    };
  });
  const preferred = versions.find((v) => v.enabledByDefault) ?? versions[0];
  if (!preferred) throw new Error(`group ${spec.name} has no versions`);
  return deepFreeze({
    name: spec.name,
    k8sName: toK8sGroup(spec.name),
    ...(spec.groupPriorityMinimum !== undefined ? { groupPriorityMinimum: spec.groupPriorityMinimum } : {}),
    versions,
    preferredVersion: preferred.version,
  });
}
