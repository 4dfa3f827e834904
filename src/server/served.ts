// What this server serves: the catalogue's resources that --runtime-config
// (resolved by api/catalog/enablement.ts; the defaults without it) enables,
// and their groups in discovery order. Routing, storage and discovery are all
// built from this one list, so a disabled version is neither listed nor
// reachable (404).
import { namedGroups, resolveEnablement, type RuntimeConfig } from '../api/catalog/index.js';
import type { ServedResource } from '../registry/registry.js';

/** Throws (kube-apiserver's messages) on a --runtime-config the catalogue does not know. */
export function servedResources(runtimeConfig?: RuntimeConfig): ServedResource[] {
  return [...resolveEnablement(runtimeConfig).enabledResources()];
}

export function servedGroups(resources: readonly ServedResource[]): { name: string; versions: string[] }[] {
  const enabled = new Set(resources.map((r) => `${r.group}/${r.version}`));
  return namedGroups()
    .map((g) => ({ name: g.name, versions: g.versions.map((v) => v.version).filter((v) => enabled.has(`${g.name}/${v}`)) }))
    .filter((g) => g.versions.length > 0);
}
