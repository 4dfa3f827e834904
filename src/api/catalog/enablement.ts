// Which group-versions and resources are served, from the defaults in the
// catalogue and the --runtime-config overrides, with kube-apiserver's
// precedence:
//
//   defaults → api/all → api/ga → api/beta → api/alpha → <group>/<version> → <group>/<version>/<resource>
//
// A version-wide setting clears earlier per-resource settings of that version
// (so `api/beta=false` also turns off the legacy beta resources that are on by
// default). The core group is keyed `api/v1`; groups may be spelled svc.io or
// k8s.io. parseRuntimeConfig checks the flag's values, resolveEnablement its
// keys; both throw with kube-apiserver's messages.
import { allGroups, allResources, group as findGroup } from './catalog.js';
import type { GroupInfo, ResourceInfo, Stability, VersionInfo } from './types.js';

/** Parsed --runtime-config: key → value (an omitted value is `true`). */
export type RuntimeConfig = ReadonlyMap<string, boolean> | Readonly<Record<string, boolean>>;

export interface Enablement {
  isResourceEnabled(r: ResourceInfo): boolean;
  /** A version is served when at least one of its resources is. */
  isVersionEnabled(groupName: string, version: string): boolean;
  enabledResources(): readonly ResourceInfo[];
  /** The group's served versions in discovery order; empty when none is. */
  enabledVersions(groupName: string): readonly VersionInfo[];
  /** The first served version in discovery order, if any. */
  preferredVersion(groupName: string): string | undefined;
  /** Groups with at least one served version, core first, then /apis order. */
  enabledGroups(): readonly GroupInfo[];
}

const MATCHERS: readonly [string, (s: Stability) => boolean][] = [
  ['api/all', () => true],
  ['api/ga', (s) => s === 'ga'],
  ['api/beta', (s) => s === 'beta'],
  ['api/alpha', (s) => s === 'alpha'],
];

const gvKey = (g: string, v: string) => `${g}/${v}`;
const gvrKey = (r: ResourceInfo) => `${r.group}/${r.version}/${r.resource}`;

/** The flag's `key=value` pairs (an omitted value is '') as booleans; throws on a value that is not one. */
export function parseRuntimeConfig(pairs: Readonly<Record<string, string>>): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const [key, value] of Object.entries(pairs)) {
    if (MATCHERS.some(([m]) => m === key)) {
      // kube-apiserver takes only these two words for the api/* keys; an omitted value means true (spec).
      if (value !== '' && value !== 'true' && value !== 'false') throw new Error(`invalid value ${key}=${value}`);
      out.set(key, value !== 'false');
      continue;
    }
    const on = value === '' ? true : goBool(value);
    if (on === undefined) throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
    out.set(key, on);
  }
  if (out.size === 1 && out.get('api/all') === false) throw new Error('invalid key with only api/all=false');
  return out;
}

function goBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** Resolves the enablement; throws on a malformed key or an unknown group, version or resource. */
export function resolveEnablement(config: RuntimeConfig = new Map()): Enablement {
  const entries: [string, boolean][] = isMap(config) ? [...config.entries()] : Object.entries(config);
  const versionOn = new Map<string, boolean>();
  const resourceOn = new Map<string, boolean>();
  const versions: { group: string; info: VersionInfo }[] = allGroups().flatMap((g) => g.versions.map((info) => ({ group: g.name, info })));

  for (const { group, info } of versions) {
    const on = info.resources.every((r) => r.enabledByDefault);
    versionOn.set(gvKey(group, info.version), on);
    for (const r of info.resources) if (r.enabledByDefault !== on) resourceOn.set(gvrKey(r), r.enabledByDefault);
  }
  const setVersion = (group: string, info: VersionInfo, on: boolean) => {
    versionOn.set(gvKey(group, info.version), on);
    for (const r of info.resources) resourceOn.delete(gvrKey(r));
  };

  const values = new Map(entries);
  for (const [key, matches] of MATCHERS) {
    const on = values.get(key);
    if (on === undefined) continue;
    for (const { group, info } of versions) if (matches(info.stability)) setVersion(group, info, on);
  }
  const versionKeys: [GroupInfo, VersionInfo, boolean][] = [];
  const resourceKeys: [string, ResourceInfo | undefined, boolean][] = [];
  const unknownGroups: string[] = [];
  for (const [key, on] of entries) {
    if (MATCHERS.some(([m]) => m === key)) continue;
    const parts = key.split('/');
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')) throw new Error(`runtime-config invalid key ${key}`);
    const [g, v] = groupAndVersion(parts);
    const groupInfo = findGroup(g);
    if (!groupInfo) {
      unknownGroups.push(g);
      continue;
    }
    const info = groupInfo.versions.find((x) => x.version === v);
    if (!info) throw new Error(`group version ${parts[0]}/${v} that has not been registered`);
    if (parts.length === 2) {
      versionKeys.push([groupInfo, info, on]);
      continue;
    }
    const resource = parts[2]!;
    if (resource.toLowerCase() !== resource) throw new Error(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`);
    resourceKeys.push([key, info.resources.find((r) => r.resource === resource), on]);
  }
  if (unknownGroups.length > 0) throw new Error(`unknown api groups ${unknownGroups.join(',')}`);
  for (const [groupInfo, info, on] of versionKeys) setVersion(groupInfo.name, info, on);
  for (const [key, r, on] of resourceKeys) {
    if (!r) throw new Error(`unknown resource ${key}`);
    resourceOn.set(gvrKey(r), on);
  }

  const isResourceEnabled = (r: ResourceInfo) => resourceOn.get(gvrKey(r)) ?? versionOn.get(gvKey(r.group, r.version)) ?? false;
  const enabledVersions = (groupName: string) =>
    findGroup(groupName)?.versions.filter((v) => v.resources.some(isResourceEnabled)) ?? [];
  return {
    isResourceEnabled,
    isVersionEnabled: (groupName, version) => enabledVersions(groupName).some((v) => v.version === version),
    enabledResources: () => allResources().filter(isResourceEnabled),
    enabledVersions,
    preferredVersion: (groupName) => enabledVersions(groupName)[0]?.version,
    enabledGroups: () => allGroups().filter((g) => enabledVersions(g.name).length > 0),
  };
}

function isMap(c: RuntimeConfig): c is ReadonlyMap<string, boolean> {
  return c instanceof Map;
}

/** `api/v1` is the core group; anything else is `<group>/<version>`. */
function groupAndVersion(parts: readonly string[]): [string, string] {
  const [g = '', v = ''] = parts;
  return g === 'api' && v === 'v1' ? ['', 'v1'] : [g, v];
}
