// Lists and scans of one resource's collection (the read side of
// Kubernetes' registry/generic/registry.Store.List and the cacher's list):
// whether a read mode may be served by the watch cache, unpaged lists from
// the cache, pages from the cache when it is exact at their revision or from
// storage in one snapshot with continue tokens, streaming scans in chunks,
// and the waits and errors of future and compacted revisions.
import { timedStorage, type LatencyTrackers } from '../metrics/latencytrackers.js';
import type { KeyValue, Store } from '../storage/interface.js';
import { isStorageError } from '../storage/errors.js';
import type { Cacher } from '../storage/cacher/cacher.js';
import { newResourceExpired, newTooLargeResourceVersion } from '../api/meta/index.js';
import { recordStorageList } from '../metrics/storage.js';
import type { ApiObject } from './object.js';
import * as errs from './errors.js';
import { encodeContinue, type ListPlan, type ReadMode } from './listoptions.js';

export interface ListFilter {
  /** Keep objects for which this returns true (label and field selectors). */
  readonly predicate?: (obj: ApiObject) => boolean;
}

export interface ListOptions extends ListFilter {
  readonly plan?: ListPlan;
  /** The request's trackers, charged with the storage reads (metrics/latencytrackers.ts). */
  readonly latency?: LatencyTrackers;
}

export interface ScanOptions {
  /** Objects per chunk (default 500). */
  readonly chunk?: number;
  /** Whether entries keep the objects a filter decoded (default true; a writer of stored JSON does not need them). */
  readonly keepDecoded?: boolean;
  /** The request's trackers, charged with the storage reads. */
  readonly latency?: LatencyTrackers;
}

/** A listed object as stored; `obj` is its decoded form when a filter decoded it. */
export interface ListEntry {
  readonly kv: KeyValue;
  readonly obj?: ApiObject;
}

/** A chunk of a scan; `cached`: its values are the watch cache's (they stay in memory, shared by every reader). */
export interface ScanChunk {
  readonly revision: number;
  readonly entries: ListEntry[];
  readonly cached?: boolean;
}

export interface ListEntriesResult extends Omit<ListResult, 'items'> {
  readonly entries: ListEntry[];
}

export interface ListResult {
  readonly items: ApiObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/** How long a read for a revision newer than the store's waits before 504 (as Kubernetes' 3 s). */
export const FUTURE_REVISION_WAIT_MS = 3000;

export class Lister {
  constructor(
    private readonly qualifiedResource: { group: string; resource: string },
    private readonly storage: Store,
    private readonly cacher: Cacher | undefined,
    /** The key prefix of a namespace's objects (all objects' with '' for a cluster-scoped resource). */
    private readonly collectionPrefix: (namespace: string) => string,
    /** A fresh decoded copy of a stored value (GenericStore.decode). */
    private readonly decode: (kv: KeyValue) => ApiObject,
  ) {}

  /**
   * list() as stored values: each item's KeyValue, with its decoded object
   * when the filter had to decode it — so an endpoint can write the stored
   * JSON without decoding (src/registry/encoded.ts servedJSON).
   */
  async listEntries(namespace: string, opts: ListOptions = {}): Promise<ListEntriesResult> {
    const prefix = this.collectionPrefix(namespace);
    const plan = opts.plan ?? { mode: { kind: 'mostRecent' }, limit: 0, continuing: false };
    if (plan.limit === 0 && (await this.cacheServes(plan.mode))) {
      const { items, revision } = this.cacher!.list(prefix);
      return { entries: this.filtered(items, opts.predicate), resourceVersion: String(await this.cachedListRevision(revision)) };
    }
    const cached = await this.cachedPage(prefix, plan, opts.predicate);
    if (cached) return cached;
    let revision: number | undefined;
    if (plan.mode.kind === 'exact') revision = plan.mode.revision;
    // As Kubernetes: the cached (unpaged) path answers 504 with Retry-After, the paged storage path without.
    if (plan.mode.kind === 'notOlderThan' || plan.mode.kind === 'exact') await this.waitForRevision(plan.mode.revision, plan.limit === 0);
    const entries: ListEntry[] = [];
    let startAfter = plan.startAfter;
    let fetched = 0;
    try {
      for (;;) {
        const want = plan.limit > 0 ? plan.limit - entries.length : 0;
        const page = await timedStorage(opts.latency, () => this.storage.range(prefix, { revision, limit: want, startAfter }));
        revision = page.revision;
        fetched += page.items.length;
        for (const e of this.filtered(page.items, opts.predicate)) entries.push(e);
        const last = page.items[page.items.length - 1]?.key;
        if (!page.more || last === undefined) return { entries, resourceVersion: String(revision) };
        if (plan.limit > 0 && entries.length >= plan.limit) {
          return {
            entries,
            resourceVersion: String(revision),
            continue: encodeContinue(revision, last, prefix),
            ...(opts.predicate ? {} : { remainingItemCount: page.remaining }),
          };
        }
        startAfter = last;
      }
    } catch (err) {
      if (isStorageError(err, 'Compacted')) {
        if (plan.continuing) {
          const fresh = await this.storage.currentRevision().catch(() => 0);
          const e = newResourceExpired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
          // As Kubernetes: a token that continues from the same place at the current revision.
          if (fresh > 0 && plan.startAfter) e.status.metadata = { continue: encodeContinue(fresh, plan.startAfter, prefix) };
          throw e;
        }
        throw newResourceExpired(`too old resource version: ${revision} (${err.revision})`);
      }
      throw errs.fromStorage(err, this.qualifiedResource, '');
    } finally {
      recordStorageList(this.qualifiedResource, fetched, entries.length);
    }
  }

  /**
   * An unpaged list read in chunks of one snapshot, for streaming: yields
   * each chunk's matching entries with the revision the list is served at,
   * so no caller holds the whole collection's objects in memory.
   */
  async *scan(namespace: string, mode: ReadMode, predicate?: (obj: ApiObject) => boolean, opts: ScanOptions = {}): AsyncGenerator<ScanChunk> {
    const chunk = opts.chunk ?? 500;
    const keep = opts.keepDecoded ?? true;
    const prefix = this.collectionPrefix(namespace);
    if (await this.cacheServes(mode)) {
      const { items, revision: cached } = this.cacher!.list(prefix);
      const revision = await this.cachedListRevision(cached);
      for (let i = 0; i < items.length || i === 0; i += chunk) {
        yield { revision, entries: this.filtered(items.slice(i, i + chunk), predicate, keep), cached: true };
      }
      return;
    }
    let revision: number | undefined;
    if (mode.kind === 'notOlderThan' || mode.kind === 'exact') await this.waitForRevision(mode.revision);
    if (mode.kind === 'exact') revision = mode.revision;
    let startAfter: string | undefined;
    let fetched = 0;
    let returned = 0;
    try {
      for (;;) {
        let page;
        try {
          page = await timedStorage(opts.latency, () => this.storage.range(prefix, { revision, limit: chunk, startAfter }));
        } catch (err) {
          if (isStorageError(err, 'Compacted')) throw newResourceExpired(`too old resource version: ${revision} (${err.revision})`);
          throw errs.fromStorage(err, this.qualifiedResource, '');
        }
        revision = page.revision;
        const entries = this.filtered(page.items, predicate, keep);
        fetched += page.items.length;
        returned += entries.length;
        yield { revision, entries };
        const last = page.items[page.items.length - 1]?.key;
        if (!page.more || last === undefined) return;
        startAfter = last;
      }
    } finally {
      recordStorageList(this.qualifiedResource, fetched, returned);
    }
  }

  /**
   * A page (most recent, or continuing at a revision) read from a watch cache
   * that is exact at the store's current revision (SQLite), when nothing
   * under the prefix changed since the page's revision: then the cache's
   * state is that snapshot and the page is the one storage would answer,
   * without reading and decoding its values again. Undefined: read storage
   * (which also answers compacted and future revisions as the tables say).
   */
  private async cachedPage(prefix: string, plan: ListPlan, predicate: ((obj: ApiObject) => boolean) | undefined): Promise<ListEntriesResult | undefined> {
    const c = this.cacher;
    if (!c?.opts.synchronous || plan.limit === 0) return undefined;
    const kind = plan.mode.kind;
    if (kind !== 'mostRecent' && kind !== 'exact') return undefined;
    await c.start();
    let revision: number;
    try {
      const current = await this.storage.currentRevision();
      if (kind === 'mostRecent') revision = Math.max(c.revision, current);
      else {
        revision = plan.mode.revision;
        if (revision > current || revision < (await this.storage.compactedRevision())) return undefined;
      }
    } catch {
      return undefined;
    }
    // Read synchronously from here: no change can be applied in between.
    if (!c.unchangedSince(prefix, revision)) return undefined;
    const entries: ListEntry[] = [];
    let last: string | undefined;
    let more = false;
    for (const kv of c.after(prefix, plan.startAfter)) {
      if (entries.length >= plan.limit) {
        more = true;
        break;
      }
      last = kv.key;
      if (!predicate) entries.push({ kv });
      else {
        const obj = this.decode(kv);
        if (predicate(obj)) entries.push({ kv, obj });
      }
    }
    if (!more || last === undefined) return { entries, resourceVersion: String(revision) };
    return {
      entries,
      resourceVersion: String(revision),
      continue: encodeContinue(revision, last, prefix),
      ...(predicate ? {} : { remainingItemCount: c.countAfter(prefix, last) }),
    };
  }

  /** The stored values a filter keeps, with the objects it decoded to decide. */
  private filtered(kvs: readonly KeyValue[], predicate: ((obj: ApiObject) => boolean) | undefined, keepDecoded = true): ListEntry[] {
    if (!predicate) return kvs.map((kv) => ({ kv }));
    const out: ListEntry[] = [];
    for (const kv of kvs) {
      const obj = this.decode(kv);
      if (predicate(obj)) out.push(keepDecoded ? { kv, obj } : { kv });
    }
    return out;
  }

  /**
   * The revision a list from the cache is reported at. A synchronous cache
   * (SQLite) holds the state at the store's current revision, whatever other
   * resources changed since its own last event; others report their own.
   */
  private async cachedListRevision(cached: number): Promise<number> {
    if (!this.cacher?.opts.synchronous) return cached;
    try {
      return Math.max(cached, await this.storage.currentRevision());
    } catch (err) {
      throw errs.fromStorage(err, this.qualifiedResource, '');
    }
  }

  /**
   * Whether a read in this mode may come from the watch cache: Any and Not
   * Older Than always (after the cache reaches the revision, else 504 as
   * storage would); Most Recent only when the backend updates the cache
   * before acknowledging writes (SQLite), which makes the cache exact.
   */
  async cacheServes(mode: ReadMode): Promise<boolean> {
    const c = this.cacher;
    if (!c) return false;
    if (mode.kind === 'exact') return false;
    if (mode.kind === 'mostRecent' && !c.opts.synchronous) return false;
    await c.start();
    if (mode.kind === 'notOlderThan' && !(await c.waitFor(mode.revision, FUTURE_REVISION_WAIT_MS))) {
      throw newTooLargeResourceVersion(mode.revision, c.revision, 1);
    }
    return true;
  }

  /** Waits briefly for the store to reach a revision; then 504 "Too large resource version". */
  async waitForRevision(revision: number, retryAfter = true): Promise<void> {
    const deadline = Date.now() + FUTURE_REVISION_WAIT_MS;
    for (;;) {
      let current: number;
      try {
        current = await this.storage.currentRevision();
      } catch (err) {
        throw errs.fromStorage(err, this.qualifiedResource, '');
      }
      if (current >= revision) return;
      if (Date.now() >= deadline) throw newTooLargeResourceVersion(revision, current, retryAfter ? 1 : undefined);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
