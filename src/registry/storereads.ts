// The read side of the generic store (GenericStore, store.ts, adds the
// writes): a resource's identity and keys, gets and lists from the watch
// cache or storage, the decoded objects shared by readers that only look
// (admission's plugins, informers) — also at once, without a turn of the
// event loop, where the watch cache knows —, and the stored values decoded
// with metadata.resourceVersion filled in.
import type { Store, KeyValue, WatchHandle, WatchSink } from '../storage/interface.js';
import { type ApiObject, withTypeMeta } from './object.js';
import { keysOf, type Keys } from './keys.js';
import type { Strategy } from './strategy.js';
import { servedJSON, textOnce } from './encoded.js';
import { RecentObjects, storedFormOf } from './recent.js';
import { SharedObjects } from './sharedobjects.js';
import * as errs from './errors.js';
import type { ReadMode } from './listoptions.js';
import type { Cacher } from '../storage/cacher/cacher.js';
import { timedStorage, type LatencyTrackers } from '../metrics/latencytrackers.js';
import { Lister, type ListEntriesResult, type ListOptions, type ListResult, type ScanChunk, type ScanOptions } from './lister.js';

export interface ResourceIdentity {
  /** The svc.io spelling of the group; '' for core. */
  readonly group: string;
  /** The version objects are stored in. */
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
}

export class StoreReads {
  readonly qualifiedResource: { group: string; resource: string };
  readonly apiVersion: string;
  protected readonly keys: Keys;
  /** Objects written or read for a write lately, decoded; shared, never modified (recent.ts). */
  protected readonly recent = new RecentObjects();
  /** Decoded objects shared by getShared/listShared/decodeShared and informers (sharedobjects.ts). */
  protected readonly shared = new SharedObjects(this.recent, (kv) => this.decode(kv));
  /** Lists, scans and the watch cache's read modes (lister.ts). */
  protected readonly lister: Lister;

  constructor(
    readonly identity: ResourceIdentity,
    protected currentStrategy: Strategy,
    protected readonly storage: Store,
    protected readonly cacher?: Cacher,
  ) {
    this.qualifiedResource = { group: identity.group, resource: identity.resource };
    this.keys = keysOf({ ...identity, namespaced: currentStrategy.namespaced });
    this.apiVersion = identity.group === '' ? identity.version : `${identity.group}/${identity.version}`;
    this.lister = new Lister(this.qualifiedResource, storage, cacher, (ns) => this.collectionPrefix(ns), (kv) => this.decode(kv));
  }

  /** The resource's strategy (a custom resource's changes with its definition). */
  get strategy(): Strategy {
    return this.currentStrategy;
  }

  /** A custom resource's definition changed (same scope and storage version): later writes follow the new one. */
  replaceStrategy(next: Strategy): void {
    if (next.namespaced !== this.currentStrategy.namespaced) throw new Error(`${this.identity.resource}: a strategy cannot change the scope`);
    this.currentStrategy = next;
  }

  get namespaced(): boolean {
    return this.strategy.namespaced;
  }

  /** What the watch cache holds and feeds (objects, watchers), when the resource has one (APF's work estimates). */
  cacheStats(): { readonly objects: number; readonly watchers: number } | undefined {
    return this.cacher ? { objects: this.cacher.size, watchers: this.cacher.watcherCount } : undefined;
  }

  key(namespace: string, name: string): string {
    return this.keys.object(namespace, name);
  }

  /** `latency`: the request's trackers, charged with the storage read (metrics/latencytrackers.ts). */
  async get(namespace: string, name: string, mode: ReadMode = { kind: 'mostRecent' }, latency?: LatencyTrackers): Promise<ApiObject> {
    return this.decode((await this.readFor(namespace, name, mode, latency)).kv);
  }

  /**
   * Reads for callers that only look (admission plugins, as kube's listers):
   * the object is decoded once per stored version and shared, deep-frozen, by
   * every such read; from the watch cache when it serves the mode. Changing
   * one throws: copy it first.
   */
  async getShared(namespace: string, name: string, mode: ReadMode = { kind: 'mostRecent' }): Promise<ApiObject> {
    return this.shared.object((await this.readFor(namespace, name, mode)).kv);
  }

  /** list() for callers that only look: shared, deep-frozen objects (see getShared); `mode` 'any' reads the watch cache as it is (kube's lister). */
  async listShared(namespace: string, mode: ReadMode = { kind: 'mostRecent' }): Promise<readonly ApiObject[]> {
    if (this.cacher && (await this.lister.cacheServes(mode))) {
      // admission lists the same few objects (quotas, limit ranges, webhook configurations) on every write
      return this.cachedSharedList(namespace);
    }
    const { entries } = await this.listEntries(namespace, { plan: { mode, limit: 0, continuing: false } });
    return entries.map((e) => this.shared.object(e.kv));
  }

  /**
   * What listShared(namespace, { kind: 'any' }) answers now, when it is its
   * remembered list (the watch cache shows no change under the prefix since):
   * without a turn of the event loop, for admission's reads on every write
   * (webhook configurations). Undefined: ask listShared.
   */
  peekSharedList(namespace: string): readonly ApiObject[] | undefined {
    const cacher = this.cacher;
    return cacher ? this.shared.list(this.collectionPrefix(namespace), (prefix, revision) => cacher.unchangedSince(prefix, revision)) : undefined;
  }

  /**
   * What getShared(namespace, name, mode) answers now, when the watch cache
   * tells it without a turn of the event loop: it is loaded and serves the
   * mode (any; a consistent read where it is as current as storage, a backend
   * that notifies at commit as SQLite's). Undefined: ask getShared — an absent
   * object too, whose answer is its NotFound. Admission's plugins read this
   * way on every write.
   */
  getSharedNow(namespace: string, name: string, mode: ReadMode = { kind: 'mostRecent' }): ApiObject | undefined {
    if (!this.cacheServesNow(mode)) return undefined;
    const kv = this.cacher!.get(this.key(namespace, name));
    return kv ? this.shared.object(kv) : undefined;
  }

  /** What listShared(namespace, mode) answers now, when the watch cache tells it at once (as getSharedNow); undefined: ask listShared. */
  listSharedNow(namespace: string, mode: ReadMode = { kind: 'mostRecent' }): readonly ApiObject[] | undefined {
    return this.cacheServesNow(mode) ? this.cachedSharedList(namespace) : undefined;
  }

  private cacheServesNow(mode: ReadMode): boolean {
    const c = this.cacher;
    return c !== undefined && c.loaded && (mode.kind === 'any' || (mode.kind === 'mostRecent' && c.opts.synchronous));
  }

  /** The namespace's objects from the watch cache, shared; the list is kept while nothing under its prefix changed. */
  private cachedSharedList(namespace: string): readonly ApiObject[] {
    const remembered = this.peekSharedList(namespace);
    if (remembered) return remembered;
    const prefix = this.collectionPrefix(namespace);
    const { items, revision } = this.cacher!.list(prefix);
    return this.shared.keepList(prefix, revision, items);
  }

  /** A stored value decoded once and shared, deep-frozen (informers, listers). */
  decodeShared(kv: KeyValue): ApiObject {
    return this.shared.object(kv);
  }

  /** The stored value a get answers with, and whether it came from the watch cache. */
  protected async readFor(namespace: string, name: string, mode: ReadMode, latency?: LatencyTrackers): Promise<{ kv: KeyValue; cached: boolean }> {
    const cached = await this.lister.cacheServes(mode);
    if (!cached && mode.kind === 'notOlderThan') await this.lister.waitForRevision(mode.revision);
    const key = this.key(namespace, name);
    const kv = cached ? this.cacher!.get(key) : await this.read(key, name, latency);
    if (!kv) throw errs.notFound(this.qualifiedResource, name);
    return { kv, cached };
  }

  /** The store's current revision: where a watch "from now" starts. */
  async currentRevision(): Promise<number> {
    try {
      return await this.storage.currentRevision();
    } catch (err) {
      throw errs.fromStorage(err, this.qualifiedResource, '');
    }
  }

  /**
   * get() answered as JSON in the given API version: from the watch cache the
   * text is made once per stored version and API version spelling and reused
   * by every later get, so a hot object costs a map lookup, not a parse and a
   * stringify.
   */
  async getJSON(namespace: string, name: string, mode: ReadMode, apiVersion: string, view: (obj: ApiObject) => ApiObject = (o) => o, latency?: LatencyTrackers): Promise<string> {
    const { kv, cached } = await this.readFor(namespace, name, mode, latency);
    const make = () => JSON.stringify(withTypeMeta(view(this.decode(kv)), apiVersion, this.identity.kind));
    return cached ? textOnce(kv, apiVersion, make) : make();
  }

  collectionPrefix(namespace: string): string {
    return this.keys.collection(namespace);
  }

  /**
   * A list per the read plan: the revision it is served at follows the
   * spec's tables; with a limit, pages of one snapshot and a continue token;
   * with a filter, storage pages are read until the limit is met.
   */
  async list(namespace: string, opts: ListOptions = {}): Promise<ListResult> {
    const { entries, ...rest } = await this.listEntries(namespace, opts);
    return { items: entries.map((e) => e.obj ?? this.decode(e.kv)), ...rest };
  }

  /**
   * list() as stored values: each item's KeyValue, with its decoded object
   * when the filter had to decode it — so an endpoint can write the stored
   * JSON without decoding (src/registry/encoded.ts servedJSON).
   */
  listEntries(namespace: string, opts: ListOptions = {}): Promise<ListEntriesResult> {
    return this.lister.listEntries(namespace, opts);
  }

  /**
   * An unpaged list read in chunks of one snapshot, for streaming: yields
   * each chunk's matching entries with the revision the list is served at,
   * so no caller holds the whole collection's objects in memory.
   */
  scan(namespace: string, mode: ReadMode, predicate?: (obj: ApiObject) => boolean, opts: ScanOptions = {}): AsyncGenerator<ScanChunk> {
    return this.lister.scan(namespace, mode, predicate, opts);
  }

  /** Watches the collection's keys in storage from a revision (the watch cache will sit here). */
  watchStorage(namespace: string, fromRevision: number, sink: WatchSink): Promise<WatchHandle> {
    if (this.cacher) return this.cacher.watch(this.collectionPrefix(namespace), fromRevision, sink);
    return this.storage.watch({ prefix: this.collectionPrefix(namespace), fromRevision }, sink);
  }

  /**
   * The latest version of a key for a write: from the watch cache when it is
   * fed at commit (SQLite: it holds exactly the acknowledged state), else
   * from storage. A stale read only costs a Conflict and a retry.
   */
  protected async readLatest(key: string, name: string, latency?: LatencyTrackers): Promise<KeyValue | null> {
    return (await this.lister.cacheServes({ kind: 'mostRecent' })) ? this.cacher!.get(key) : this.read(key, name, latency);
  }

  protected async read(key: string, name: string, latency?: LatencyTrackers): Promise<KeyValue | null> {
    try {
      return await timedStorage(latency, () => this.storage.get(key));
    } catch (err) {
      throw errs.fromStorage(err, this.qualifiedResource, name);
    }
  }

  /**
   * An object this store wrote (or read for a write) as JSON in `apiVersion`,
   * spliced from its stored bytes instead of stringified; null for any other
   * object (a dry run's, a converted one) — then the caller encodes it.
   */
  writtenJSON(obj: ApiObject, apiVersion: string): Buffer | null {
    const value = storedFormOf(obj);
    const rv = obj.metadata.resourceVersion;
    if (value === undefined || rv === undefined) return null;
    return servedJSON(value, rv, { typeMeta: { kind: this.identity.kind, apiVersion } });
  }

  /** A fresh decoded copy of a stored value, with metadata.resourceVersion filled in. */
  decode(kv: KeyValue): ApiObject {
    const obj = JSON.parse(Buffer.from(kv.value.buffer, kv.value.byteOffset, kv.value.byteLength).toString('utf8')) as ApiObject;
    obj.metadata.resourceVersion = String(kv.modRevision);
    return obj;
  }
}
