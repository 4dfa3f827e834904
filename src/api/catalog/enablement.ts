// Which group-versions and resources are served, from the defaults in the
// catalogue and the (already parsed) --runtime-config overrides, with
// kube-apiserver's precedence:
//
//   defaults → api/all → api/ga → api/beta → api/alpha → <group>/<version> → <group>/<version>/<resource>
//
// A version-wide setting clears earlier per-resource settings of that version
// (so `api/beta=false` also turns off the legacy beta resources that are on by
// default). The core group is keyed `api/v1`; groups may be spelled svc.io or
// k8s.io.
import { allGroups, allResources, group as findGroup, lookup } from './catalog.js';
import { toSvcGroup } from './define.js';
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

/** Resolves the enablement; throws on a malformed key or an unknown group-version or resource. */
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
  const resourceKeys: [string[], boolean][] = [];
  for (const [key, on] of entries) {
    if (MATCHERS.some(([m]) => m === key)) continue;
    const parts = key.split('/');
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => p === '')) throw new Error(`runtime-config: invalid key ${JSON.stringify(key)}`);
    if (parts.length === 3) { resourceKeys.push([parts, on]); continue; }
    const [g, v] = groupAndVersion(parts);
    const info = findGroup(g)?.versions.find((x) => x.version === v);
    if (!info) throw new Error(`runtime-config: unknown group-version ${JSON.stringify(key)}`);
    setVersion(toSvcGroup(g), info, on);
  }
  for (const [parts, on] of resourceKeys) {
    const [g, v] = groupAndVersion(parts);
    const r = lookup(g, v, parts[2] ?? '');
    if (!r) throw new Error(`runtime-config: unknown resource ${JSON.stringify(parts.join('/'))}`);
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
