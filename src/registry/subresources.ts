// Create-only subresources whose POST writes another object (kube's
// "creater" REST storages: pods/binding writes the pod, pods/eviction
// deletes it). One handler per subresource, used by the HTTP path
// (src/endpoints/resource.ts) and by in-process clients
// (src/controllers/client.ts), so both meet the same checks.
import type { ApiObject } from './object.js';
import type { Registry } from './registry.js';
import type { WriteContext } from './store.js';
import { evictPod } from './eviction.js';

/** Handles a POST of `body` to `<resource>/<name>/<subresource>`; returns what the API answers (a Status or an object). */
export type SubresourceCreate = (registry: Registry, namespace: string, name: string, body: ApiObject, ctx: WriteContext) => Promise<ApiObject>;

/** By `<group>/<resource>/<subresource>` (group in the svc.io spelling, '' for core). */
const CREATORS: Record<string, SubresourceCreate> = {
  '/pods/eviction': evictPod,
};

export function subresourceCreator(group: string, resource: string, subresource: string): SubresourceCreate | undefined {
  return CREATORS[`${group}/${resource}/${subresource}`];
}
