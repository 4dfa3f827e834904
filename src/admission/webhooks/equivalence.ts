// matchPolicy Equivalent: the same resource served in other groups or
// versions (kube's EquivalentResourceMapper). Resources are equivalent when
// they share one store: every served version of a resource, and a resource
// sharing another's storage (events.svc.io/v1 events and core v1 events).
// In v1.27 that is HPA autoscaling/v1 ◀▶ v2, Event core/v1 ◀▶ events/v1,
// flowcontrol v1beta2 ◀▶ v1beta3. For a subresource, only versions serving
// that subresource count, and the kind is the subresource's.
import type { ServedResource } from '../../registry/registry.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';

export interface GroupVersionResource { readonly group: string; readonly version: string; readonly resource: string }
export interface GroupVersionKind { readonly group: string; readonly version: string; readonly kind: string }
export interface Equivalent { readonly resource: GroupVersionResource; readonly kind: GroupVersionKind }

const storageKey = (r: ServedResource) => (r.sharesStorageWith ? `${r.sharesStorageWith.group}/${r.sharesStorageWith.resource}` : `${r.group}/${r.resource}`);

export class EquivalentResources {
  private readonly byGVR = new Map<string, ServedResource>();
  private readonly byStorage = new Map<string, ServedResource[]>();

  constructor(served: readonly ServedResource[]) {
    for (const r of served) {
      this.byGVR.set(`${r.group}/${r.version}/${r.resource}`, r);
      const key = storageKey(r);
      const list = this.byStorage.get(key);
      if (list) list.push(r);
      else this.byStorage.set(key, [r]);
    }
  }

  /** The served resource of a group (either spelling), version and resource. */
  served(gvr: GroupVersionResource): ServedResource | undefined {
    return this.byGVR.get(`${canonicalGroup(gvr.group)}/${gvr.version}/${gvr.resource}`);
  }

  /** The kind a request to resource/subresource carries (kube's KindFor); undefined when not served. */
  kindFor(gvr: GroupVersionResource, subresource: string): GroupVersionKind | undefined {
    const r = this.served(gvr);
    if (!r) return undefined;
    if (!subresource) return { group: r.group, version: r.version, kind: r.kind };
    const sub = r.subresources.find((s) => s.name === subresource);
    if (!sub) return undefined;
    return { group: sub.group ?? r.group, version: sub.version ?? r.version, kind: sub.kind };
  }

  /** Every resource equivalent to gvr (itself included) that serves the subresource, with its kind. */
  equivalentsOf(gvr: GroupVersionResource, subresource: string): Equivalent[] {
    const r = this.served(gvr);
    if (!r) return [];
    const out: Equivalent[] = [];
    for (const e of this.byStorage.get(storageKey(r)) ?? []) {
      const resource = { group: e.group, version: e.version, resource: e.resource };
      const kind = this.kindFor(resource, subresource);
      if (kind) out.push({ resource, kind });
    }
    return out;
  }
}
