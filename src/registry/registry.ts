// The registry: one GenericStore per stored resource, found by group (either
// spelling), version and resource. Built from the catalogue of served
// resources at start-up.
import type { Store } from '../storage/interface.js';
import { canonicalGroup } from '../endpoints/requestinfo.js';
import { GenericStore } from './store.js';
import type { Admission } from './admission.js';
import { strategyFor } from './strategies/index.js';
import type { ValidatorRegistry } from '../api/validation.js';
import { Cacher } from '../storage/cacher/cacher.js';
import { collectionPrefix } from './keys.js';

export interface ServedSubresource {
  readonly name: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  /** For subresources of another group (scale: autoscaling/v1). */
  readonly group?: string;
  readonly version?: string;
  /** A connecter (exec, attach, portforward, proxy): streams or upgrades rather than storing an object. */
  readonly connect?: boolean;
}

/** What the registry needs to know of a served resource (from the catalogue). */
export interface ServedResource {
  /** svc.io spelling; '' for core. */
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly singularName?: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly subresources: readonly ServedSubresource[];
  /** The version objects of this resource are stored in. */
  readonly storageVersion: string;
  /** Virtual resources (reviews) are not stored. */
  readonly virtual?: boolean;
  /** Objects of this resource are those of another group's resource (events.svc.io events are core events). */
  readonly sharesStorageWith?: { readonly group: string; readonly resource: string; readonly kind: string };
}

export class Registry {
  private readonly byResource = new Map<string, GenericStore>();
  private readonly served = new Map<string, ServedResource>();

  private readonly cachers: Cacher[] = [];
  private readonly sharing = new Map<string, { group: string; resource: string }>();

  constructor(
    resources: readonly ServedResource[], storage: Store, admission: Admission,
    opts: { watchCache: boolean; window?: { windowMs?: number; maxEvents?: number }; validators?: ValidatorRegistry } = { watchCache: true },
  ) {
    for (const r of resources) {
      this.served.set(`${r.group}/${r.version}/${r.resource}`, r);
      if (r.sharesStorageWith) this.sharing.set(`${r.group}/${r.resource}`, r.sharesStorageWith);
      if (r.virtual || r.sharesStorageWith) continue;
      const key = `${r.group}/${r.resource}`;
      if (this.byResource.has(key)) continue;
      const strategy = strategyFor({ group: r.group, version: r.storageVersion, resource: r.resource, kind: r.kind }, r.namespaced, r.subresources.some((x) => x.name === 'status'), opts.validators);
      const identity = { group: r.group, version: r.storageVersion, resource: r.resource, kind: r.kind };
      const prefix = collectionPrefix({ ...identity, namespaced: r.namespaced }, '');
      const cacher = opts.watchCache ? new Cacher(storage, prefix, { ...opts.window, synchronous: storage.backend === 'sqlite' }) : undefined;
      if (cacher) this.cachers.push(cacher);
      this.byResource.set(key, new GenericStore(identity, strategy, storage, admission, cacher));
    }
  }

  /** Fills every watch cache (start-up). */
  async startCaches(): Promise<void> {
    await Promise.all(this.cachers.map((c) => c.start()));
  }

  stopCaches(): void {
    for (const c of this.cachers) c.stop();
  }

  /** The served resource for a request's group (either spelling), version and resource. */
  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.served.get(`${canonicalGroup(group)}/${version}/${resource}`);
  }

  /** The store of a resource; every served version of a resource shares it, and so does a resource that shares another's storage. */
  store(group: string, resource: string): GenericStore {
    const g = canonicalGroup(group);
    const shared = this.sharing.get(`${g}/${resource}`);
    const s = this.byResource.get(shared ? `${shared.group}/${shared.resource}` : `${g}/${resource}`);
    if (!s) throw new Error(`no store for ${group}/${resource}`);
    return s;
  }

  servesGroup(group: string): boolean {
    const g = canonicalGroup(group);
    if (g === '') return true;
    for (const r of this.served.values()) if (r.group === g) return true;
    return false;
  }

  has(group: string, resource: string): boolean {
    const g = canonicalGroup(group);
    return this.byResource.has(`${g}/${resource}`) || this.sharing.has(`${g}/${resource}`);
  }

  resources(): ServedResource[] {
    return [...this.served.values()];
  }
}
