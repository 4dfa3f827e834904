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
import type { Strategy } from './strategy.js';
import type { Schema } from '../schema/model.js';
import type { ApiObject } from './object.js';
import type { FieldError } from '../api/meta/index.js';
import type { Printer } from '../printers/table.js';
import type { ScalePaths } from '../endpoints/scale.js';
import type { ReplicasPaths } from '../endpoints/scalefields.js';
import type { DeprecationInfo } from '../api/catalog/types.js';

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
  /** A custom resource (served from a CustomResourceDefinition): what its requests need of the definition. */
  readonly custom?: CustomKind;
  /** A built-in kind deprecated in this release (the catalogue's; src/deprecation/ signals requests to it). */
  readonly deprecated?: DeprecationInfo;
}

/**
 * What the request path needs of a custom resource's version (src/apiextensions/serve/ builds it from
 * the CustomResourceDefinition); built-in kinds find the same facts in the static registries.
 */
export interface CustomKind {
  /** The group exactly as the CRD spells it (discovery and apiVersion show it so). */
  readonly spelledGroup: string;
  /** The structural schema of objects of this version, with apiVersion, kind and metadata (ObjectMeta) at the root. */
  readonly schema: Schema;
  /** The schema of another version of the same definition (managedFields entries recorded in it). */
  versionSchema(version: string): Schema | undefined;
  /** kube's ValidateTypeMeta of a decoded body (a kind or apiVersion other than this version's is 422); empty when fine. */
  typeMetaErrors(obj: Record<string, unknown>): FieldError[];
  /** Prunes and defaults a decoded object of this version in place (kube's decoding of a custom resource); returns the pruned paths. */
  decode(obj: Record<string, unknown>): string[];
  /** Applies this version's defaults to an object read from storage (undefined when the schema has none). */
  readonly readDefaults?: (obj: Record<string, unknown>) => void;
  /** Server-side tables of this version (additionalPrinterColumns, or Name and Age). */
  readonly printer: Printer;
  /** The deprecation warning of a deprecated version. */
  readonly deprecationWarning?: string;
  /**
   * Set when this version differs from the storage version and the CRD converts with a webhook:
   * objects cross between the two through it (asynchronously; src/endpoints/versioning.ts makes the
   * request path's lens of it).
   */
  readonly webhookConversion?: WebhookConversion;
  /** The CRD is being deleted: only reads and deletes are served. */
  readonly terminating: boolean;
  /** The scale subresource: where this version keeps the Scale's values, and spec replicas by apiVersion for field ownership. */
  readonly scale?: { readonly paths: ScalePaths; readonly replicasByApiVersion: ReplicasPaths };
}

/** A custom resource version's conversion webhook (src/apiextensions/conversion), both ways; results are decoded as their version (pruned, defaulted). */
export interface WebhookConversion {
  /** Stored objects in this version, in one call (`list`: a list's items, worded so in errors). */
  toRequest(objs: readonly ApiObject[], list: boolean): Promise<ApiObject[]>;
  /** An object of this version in the storage version. */
  toStorage(obj: ApiObject): Promise<ApiObject>;
}

export class Registry {
  private readonly byResource = new Map<string, GenericStore>();
  private readonly served = new Map<string, ServedResource>();

  private readonly cachers: Cacher[] = [];
  /** Stores of custom resources, by `group/resource`, added and removed as CRDs come and go. */
  private readonly custom = new Map<string, { store: GenericStore; cacher?: Cacher }>();
  private readonly sharing = new Map<string, { group: string; resource: string }>();
  /**
   * store()'s answers by group as asked (either spelling) and resource:
   * plugins and controllers ask on every write, and the canonical key costs a
   * respelling and two joined strings. Served resources only; cleared whenever the routes change.
   */
  private readonly routes = new Map<string, Map<string, GenericStore>>();

  constructor(
    resources: readonly ServedResource[], private readonly storage: Store, private readonly admission: Admission,
    private readonly opts: { watchCache: boolean; window?: { windowMs?: number; maxEvents?: number }; validators?: ValidatorRegistry } = { watchCache: true },
  ) {
    for (const r of resources) {
      this.served.set(`${r.group}/${r.version}/${r.resource}`, r);
      if (r.sharesStorageWith) this.sharing.set(`${r.group}/${r.resource}`, r.sharesStorageWith);
      if (r.virtual || r.sharesStorageWith) continue;
      const key = `${r.group}/${r.resource}`;
      if (this.byResource.has(key)) continue;
      const strategy = strategyFor({ group: r.group, version: r.storageVersion, resource: r.resource, kind: r.kind }, r.namespaced, r.subresources.some((x) => x.name === 'status'), opts.validators);
      const { store, cacher } = this.newStore(r, strategy);
      if (cacher) this.cachers.push(cacher);
      this.byResource.set(key, store);
    }
  }

  private newStore(r: ServedResource, strategy: Strategy): { store: GenericStore; cacher?: Cacher } {
    const identity = { group: r.group, version: r.storageVersion, resource: r.resource, kind: r.kind };
    const prefix = collectionPrefix({ ...identity, namespaced: r.namespaced }, '');
    const cacher = this.opts.watchCache ? new Cacher(this.storage, prefix, { ...this.opts.window, synchronous: this.storage.backend === 'sqlite' }) : undefined;
    return { store: new GenericStore(identity, strategy, this.storage, this.admission, cacher), cacher };
  }

  /**
   * Serves a custom resource: its versions (one ServedResource each, all with the same group,
   * resource and storage version) over one store with `strategy`. Replaces the versions of an
   * earlier call for the same resource; the store (and its watches and cache) is kept when the
   * storage version, kind and scope are unchanged, else a new one is routed to once its watch
   * cache is filled.
   */
  async serveCustom(versions: readonly ServedResource[], strategy: Strategy): Promise<void> {
    const r = versions[0]!;
    const key = `${r.group}/${r.resource}`;
    const existing = this.custom.get(key);
    if (existing && existing.store.identity.version === r.storageVersion && existing.store.identity.kind === r.kind && existing.store.namespaced === r.namespaced) {
      existing.store.replaceStrategy(strategy);
    } else {
      const made = this.newStore(r, strategy);
      await made.cacher?.start();
      existing?.cacher?.stop();
      this.custom.set(key, made);
      this.byResource.set(key, made.store);
      this.routes.clear();
    }
    this.unserveVersions(r.group, r.resource);
    for (const v of versions) this.served.set(`${v.group}/${v.version}/${v.resource}`, v);
  }

  /** Stops serving a custom resource (its CRD is gone): routes, discovery and the store's cache. */
  unserveCustom(group: string, resource: string): void {
    const key = `${group}/${resource}`;
    this.unserveVersions(group, resource);
    const entry = this.custom.get(key);
    if (!entry) return;
    entry.cacher?.stop();
    this.custom.delete(key);
    this.byResource.delete(key);
    this.routes.clear();
  }

  private unserveVersions(group: string, resource: string): void {
    for (const [k, v] of this.served) if (v.custom && v.group === group && v.resource === resource) this.served.delete(k);
  }

  /** The number of objects in each watch cache, by key prefix (apiserver_storage_objects). */
  *cachedObjectCounts(): Iterable<{ prefix: string; count: number }> {
    for (const c of this.cachers) yield { prefix: c.prefix, count: c.size };
    for (const e of this.custom.values()) if (e.cacher) yield { prefix: e.cacher.prefix, count: e.cacher.size };
  }

  /** Fills every watch cache (start-up). */
  async startCaches(): Promise<void> {
    await Promise.all(this.cachers.map((c) => c.start()));
  }

  stopCaches(): void {
    for (const c of this.cachers) c.stop();
    for (const c of this.custom.values()) c.cacher?.stop();
  }

  /** The served resource for a request's group (either spelling), version and resource. */
  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.served.get(`${canonicalGroup(group)}/${version}/${resource}`);
  }

  /** The store of a resource; every served version of a resource shares it, and so does a resource that shares another's storage. */
  store(group: string, resource: string): GenericStore {
    const s = this.route(group, resource);
    if (!s) throw new Error(`no store for ${group}/${resource}`);
    return s;
  }

  /** The store serving a resource, or undefined (see `routes`). */
  private route(group: string, resource: string): GenericStore | undefined {
    const known = this.routes.get(group)?.get(resource);
    if (known) return known;
    const g = canonicalGroup(group);
    const shared = this.sharing.get(`${g}/${resource}`);
    const s = this.byResource.get(shared ? `${shared.group}/${shared.resource}` : `${g}/${resource}`);
    // only what is served is remembered: names a request made up are not kept
    if (s) {
      let byName = this.routes.get(group);
      if (!byName) this.routes.set(group, (byName = new Map()));
      byName.set(resource, s);
    }
    return s;
  }

  servesGroup(group: string): boolean {
    const g = canonicalGroup(group);
    if (g === '') return true;
    for (const r of this.served.values()) if (r.group === g) return true;
    return false;
  }

  has(group: string, resource: string): boolean {
    return this.route(group, resource) !== undefined;
  }

  resources(): ServedResource[] {
    return [...this.served.values()];
  }
}
