// apiVersion + kind → resource, from what the registry serves now (kube's
// RESTMapper over discovery), and the resources the collector monitors:
// every stored resource that can be listed, watched and deleted, but events
// (kube's DefaultIgnoredResources). Custom resources come and go with their
// CRDs: the mapping is rebuilt at each monitor sync and, on a miss, at most
// every `missRefreshMs`.
import type { Registry, ServedResource } from '../../registry/registry.js';
import { kubernetesGroup } from '../../endpoints/requestinfo.js';
import type { Target } from '../client.js';
import { groupOf, versionOf } from './identity.js';

export interface ResourceMapping {
  /** What the client calls address: the storage version when it is served (objects are read and written in it). */
  readonly target: Target;
  readonly namespaced: boolean;
  readonly kind: string;
  /** The apiVersion objects of the resource are known by in the graph and in events (k8s.io spelling, storage version). */
  readonly apiVersion: string;
  readonly custom: boolean;
}

const IGNORED = new Set(['/events', 'events.svc.io/events']);

export class ResourceMapper {
  private byKind = new Map<string, ResourceMapping>();
  private resources: ResourceMapping[] = [];
  private refreshedAt = 0;

  constructor(private readonly registry: Registry, private readonly missRefreshMs = 500) {
    this.refresh();
  }

  refresh(): void {
    const served = this.registry.resources().filter((r) => !r.virtual && !r.sharesStorageWith);
    const byResource = new Map<string, ServedResource[]>();
    for (const r of served) {
      const k = `${r.group}/${r.resource}`;
      byResource.set(k, [...(byResource.get(k) ?? []), r]);
    }
    const byKind = new Map<string, ResourceMapping>();
    const resources: ResourceMapping[] = [];
    for (const [key, versions] of byResource) {
      const storage = versions.find((v) => v.version === v.storageVersion) ?? versions[0]!;
      const spelled = storage.custom ? storage.custom.spelledGroup : kubernetesGroup(storage.group);
      const mapping: ResourceMapping = {
        target: { group: storage.group, version: storage.version, resource: storage.resource },
        namespaced: storage.namespaced, kind: storage.kind, custom: Boolean(storage.custom),
        apiVersion: spelled ? `${spelled}/${storage.version}` : storage.version,
      };
      for (const v of versions) {
        const k = `${v.group}/${v.version}/${v.kind}`;
        if (!byKind.has(k)) byKind.set(k, mapping);
      }
      const verbs = new Set(storage.verbs);
      if (verbs.has('list') && verbs.has('watch') && verbs.has('delete') && !IGNORED.has(key)) resources.push(mapping);
    }
    this.byKind = byKind;
    this.resources = resources;
    this.refreshedAt = Date.now();
  }

  /** The resource of a kind at an apiVersion; undefined when that version of the kind is not served (kube: a REST mapping error). */
  kindFor(apiVersion: string, kind: string): ResourceMapping | undefined {
    const key = `${groupOf(apiVersion)}/${versionOf(apiVersion)}/${kind}`;
    let m = this.byKind.get(key);
    if (!m && Date.now() - this.refreshedAt >= this.missRefreshMs) {
      this.refresh();
      m = this.byKind.get(key);
    }
    return m;
  }

  /** The resources to monitor (kube's GetDeletableResources minus the ignored ones). */
  deletable(): readonly ResourceMapping[] {
    return this.resources;
  }
}
