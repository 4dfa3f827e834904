// What this server serves: the catalogue's resources enabled by default
// (--runtime-config arrives with the versioning issue), and their groups in
// discovery order.
import { enabledByDefaultResources, namedGroups } from '../api/catalog/index.js';
import type { ServedResource } from '../registry/registry.js';

export function servedResources(): ServedResource[] {
  return [...enabledByDefaultResources()];
}

export function servedGroups(resources: readonly ServedResource[]): { name: string; versions: string[] }[] {
  const enabled = new Set(resources.map((r) => `${r.group}/${r.version}`));
  return namedGroups()
    .map((g) => ({ name: g.name, versions: g.versions.map((v) => v.version).filter((v) => enabled.has(`${g.name}/${v}`)) }))
    .filter((g) => g.versions.length > 0);
}
