// The object and watcher counts work estimation reads, from the registry's
// watch caches (kube: the storage object-count tracker and the watch
// tracker). Stores are looked up once per resource.
import type { Registry } from '../registry/registry.js';
import type { GenericStore } from '../registry/store.js';
import type { ResourceCounts } from './workestimate.js';

export function registryCounts(registry: Registry): ResourceCounts {
  const stores = new Map<string, GenericStore | null>();
  const storeOf = (group: string, resource: string): GenericStore | null => {
    const key = `${group}/${resource}`;
    let s = stores.get(key);
    if (s === undefined) {
      s = registry.has(group, resource) ? registry.store(group, resource) : null;
      // custom resources come and go: remember only what exists
      if (s) stores.set(key, s);
    }
    return s;
  };
  return {
    objects: (group, resource) => storeOf(group, resource)?.cacheStats()?.objects,
    watchers: (group, resource) => storeOf(group, resource)?.cacheStats()?.watchers ?? 0,
  };
}
