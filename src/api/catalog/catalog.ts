// The assembled catalogue: every group in /apis discovery order, and lookups
// by group (either spelling), version, resource, subresource and kind.
import { createHash } from 'node:crypto';
import { admissionregistration } from './admissionregistration.js';
import { apiextensions } from './apiextensions.js';
import { apiregistration } from './apiregistration.js';
import { apiserverinternal } from './apiserverinternal.js';
import { apps } from './apps.js';
import { authentication } from './authentication.js';
import { authorization } from './authorization.js';
import { autoscaling } from './autoscaling.js';
import { batch } from './batch.js';
import { certificates } from './certificates.js';
import { coordination } from './coordination.js';
import { core } from './core.js';
import { toK8sGroup, toSvcGroup } from './define.js';
import { discovery } from './discovery.js';
import { events } from './events.js';
import { flowcontrol } from './flowcontrol.js';
import { networking } from './networking.js';
import { node } from './node.js';
import { policy } from './policy.js';
import { rbac } from './rbac.js';
import { resource } from './resource.js';
import { scheduling } from './scheduling.js';
import { storage } from './storage.js';
import type { GroupInfo, ResourceInfo, SubresourceInfo, VersionInfo } from './types.js';

/**
 * Named groups in the order of /apis: the aggregator's own group first, then
 * by Kubernetes' group priority (highest first), ties by name.
 */
const NAMED_GROUPS: readonly GroupInfo[] = Object.freeze([
  admissionregistration, apiextensions, apiregistration, apiserverinternal, apps, authentication, authorization,
  autoscaling, batch, certificates, coordination, discovery, events, flowcontrol, networking, node, policy, rbac,
  resource, scheduling, storage,
].sort((a, b) => {
  const pa = a.groupPriorityMinimum ?? Number.POSITIVE_INFINITY;
  const pb = b.groupPriorityMinimum ?? Number.POSITIVE_INFINITY;
  return pa !== pb ? pb - pa : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}));

const ALL_GROUPS: readonly GroupInfo[] = Object.freeze([core, ...NAMED_GROUPS]);
const ALL_RESOURCES: readonly ResourceInfo[] = Object.freeze(
  ALL_GROUPS.flatMap((g) => g.versions.flatMap((v) => v.resources)),
);

const groupsByName = new Map<string, GroupInfo>(ALL_GROUPS.map((g) => [g.name, g]));
const byResource = new Map<string, ResourceInfo>();
const byKind = new Map<string, ResourceInfo>();
for (const r of ALL_RESOURCES) {
  const key = `${r.group}/${r.version}/${r.resource}`;
  if (byResource.has(key)) throw new Error(`catalogue: duplicate resource ${key}`);
  byResource.set(key, r);
  // The first resource of a kind in a group-version owns it (none share one today).
  const kindKey = `${r.group}/${r.version}/${r.kind}`;
  if (!byKind.has(kindKey)) byKind.set(kindKey, r);
}

/** The core group (/api/v1). */
export function coreGroup(): GroupInfo {
  return core;
}

/** Named groups in /apis discovery order (all of them, enabled or not). */
export function namedGroups(): readonly GroupInfo[] {
  return NAMED_GROUPS;
}

/** The core group followed by the named groups. */
export function allGroups(): readonly GroupInfo[] {
  return ALL_GROUPS;
}

/** Every resource of every version of every group, in discovery order. */
export function allResources(): readonly ResourceInfo[] {
  return ALL_RESOURCES;
}

/** A group by name in either spelling ('' for core). */
export function group(name: string): GroupInfo | undefined {
  return groupsByName.get(toSvcGroup(name));
}

export function groupVersion(groupName: string, version: string): VersionInfo | undefined {
  return group(groupName)?.versions.find((v) => v.version === version);
}

/** The resource served at group (svc.io or k8s.io spelling), version and plural resource name. */
export function lookup(groupName: string, version: string, resourceName: string): ResourceInfo | undefined {
  return byResource.get(`${toSvcGroup(groupName)}/${version}/${resourceName}`);
}

export function lookupSubresource(
  groupName: string, version: string, resourceName: string, subresource: string,
): SubresourceInfo | undefined {
  return lookup(groupName, version, resourceName)?.subresources.find((s) => s.name === subresource);
}

/** The resource whose objects have this kind in the group-version (to map apiVersion/kind to a resource). */
export function lookupKind(groupName: string, version: string, kind: string): ResourceInfo | undefined {
  return byKind.get(`${toSvcGroup(groupName)}/${version}/${kind}`);
}

/** Whether the server serves it with the default configuration (no --runtime-config). */
export function isEnabledByDefault(groupName: string, version: string, resourceName?: string): boolean {
  if (resourceName !== undefined) return lookup(groupName, version, resourceName)?.enabledByDefault ?? false;
  return groupVersion(groupName, version)?.enabledByDefault ?? false;
}

/** The resources served with the default configuration, in discovery order. */
export function enabledByDefaultResources(): readonly ResourceInfo[] {
  return ALL_RESOURCES.filter((r) => r.enabledByDefault);
}

/**
 * Kubernetes' storageVersionHash for discovery: base64 of the first 8 bytes of
 * sha256("<group>/<version>/<kind>") of the storage version. Opaque to
 * clients; computed over the group in the given spelling (svc.io by default).
 */
export function storageVersionHash(r: ResourceInfo, spelling: 'svc.io' | 'k8s.io' = 'svc.io'): string | undefined {
  if (r.virtual) return undefined;
  const shared = r.sharesStorageWith;
  const g = shared ? shared.group : r.group;
  const kind = shared ? shared.kind : r.kind;
  const spelled = spelling === 'k8s.io' ? toK8sGroup(g) : g;
  return createHash('sha256').update(`${spelled}/${r.storageVersion}/${kind}`).digest().subarray(0, 8).toString('base64');
}
