// The watch cache: an in-memory copy of one resource's keys, kept current by
// a single storage watch, in front of a Store (Kubernetes' cacher).
//
//   storage ──range at R──► state (key → latest KeyValue)
//           ──watch > R───► apply → history ring (the watch window) → watchers
//
// It serves reads that may be served from a cache (resourceVersion "0" and
// Not Older Than, and — when the backend notifies synchronously at commit, as
// the SQLite backend does — consistent reads too), and every watch: history
// from the window, then live events, with no gap and no duplicate. A storage
// watch failure re-lists and resumes; watchers then see a 410 only if their
// position fell out of the window.
import type { KeyValue, Store, WatchEvent, WatchHandle, WatchSink } from '../interface.js';
import { StorageError } from '../errors.js';
import { prefixEnd } from '../limits.js';

export interface CacherOptions {
  /** History kept for watches (default 5 minutes). */
  readonly windowMs?: number;
  /** Most events kept regardless of age (default 100,000). */
  readonly maxEvents?: number;
  /** Whether the backend's watch delivers an event before the write is acknowledged (SQLite). */
  readonly synchronous: boolean;
}

interface Entry {
  readonly event: WatchEvent;
  readonly at: number;
}

interface CacheWatcher {
  readonly prefix: string;
  readonly sink: WatchSink;
  position: number;
  closed: boolean;
}

export class Cacher {
  private readonly state = new Map<string, KeyValue>();
  /** The state's keys in byte order, for lists and pages, as of the last fold (see keys()). */
  private sorted: string[] = [];
  /** Keys created since the last fold, in arrival order. */
  private added: string[] = [];
  /** Whether keys were deleted since the last fold. */
  private removed = false;
  private history: Entry[] = [];
  /** Events older than this revision are gone from the window. */
  private oldest = 0;
  private revision_ = 0;
  /** Watchers by the prefix they watch: an event batch is filtered once per prefix, not once per watcher. */
  private readonly watchers = new Map<string, Set<CacheWatcher>>();
  private storageWatch: WatchHandle | undefined;
  private ready: Promise<void> | undefined;
  private waiters: { rev: number; resolve: () => void }[] = [];
  private stopped = false;
  private readonly windowMs: number;
  private readonly maxEvents: number;

  constructor(private readonly storage: Store, readonly prefix: string, readonly opts: CacherOptions) {
    this.windowMs = opts.windowMs ?? 5 * 60_000;
    this.maxEvents = opts.maxEvents ?? 100_000;
  }

  /** The revision the cache reflects: every change up to it has been applied. */
  get revision(): number {
    return this.revision_;
  }

  get size(): number {
    return this.state.size;
  }

  /** Whether the cache holds storage's state and follows its watch (loaded, not re-listing, not stopped). */
  get loaded(): boolean {
    return this.storageWatch !== undefined && !this.stopped;
  }

  start(): Promise<void> {
    this.ready ??= this.load();
    return this.ready;
  }

  stop(): void {
    this.stopped = true;
    this.storageWatch?.close();
    for (const set of this.watchers.values()) for (const w of set) w.closed = true;
    this.watchers.clear();
  }

  /** Resolves once the cache reflects `rev`; false if that takes longer than `ms`. */
  async waitFor(rev: number, ms: number): Promise<boolean> {
    await this.start();
    if (this.revision_ >= rev) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, ms);
      const waiter = { rev, resolve: () => (clearTimeout(timer), resolve(true)) };
      this.waiters.push(waiter);
    });
  }

  get(key: string): KeyValue | null {
    return this.state.get(key) ?? null;
  }

  /** Keys under `prefix` in byte order, at the cache's revision. */
  list(prefix: string): { items: KeyValue[]; revision: number } {
    const keys = this.keys();
    const items: KeyValue[] = [];
    for (let i = lowerBound(keys, prefix), end = lowerBound(keys, prefixEnd(prefix)); i < end; i++) items.push(this.state.get(keys[i]!)!);
    return { items, revision: this.revision_ };
  }

  /**
   * The keys under `prefix` after `startAfter` in byte order with their
   * values, as the state is now: a page must be read before the next change
   * is applied (synchronously, as GenericStore does).
   */
  *after(prefix: string, startAfter: string | undefined): Generator<KeyValue> {
    const keys = this.keys();
    const from = startAfter !== undefined && startAfter >= prefix ? upperBound(keys, startAfter) : lowerBound(keys, prefix);
    for (let i = from; i < keys.length && keys[i]!.startsWith(prefix); i++) yield this.state.get(keys[i]!)!;
  }

  /** How many keys under `prefix` come after `key`. */
  countAfter(prefix: string, key: string): number {
    const keys = this.keys();
    return Math.max(0, lowerBound(keys, prefixEnd(prefix)) - upperBound(keys, key));
  }

  /**
   * Whether no key under `prefix` changed after `revision` — then the state
   * under `prefix` is the state at `revision`, and a page of a list at
   * `revision` may be read from the cache. False when the window does not
   * reach back to `revision`.
   */
  unchangedSince(prefix: string, revision: number): boolean {
    if (revision < this.oldest) return false;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const e = this.history[i]!.event;
      if (e.revision <= revision) break;
      if (keyOf(e).startsWith(prefix)) return false;
    }
    return true;
  }

  /** A watch of keys under `prefix` (within this cacher's prefix) from a revision in the window. */
  async watch(prefix: string, fromRevision: number, sink: WatchSink): Promise<WatchHandle> {
    await this.start();
    // Older than the cache's window (after a restart, say): storage may still hold that
    // history, so the watch goes there; it fails with Compacted only if storage lost it too.
    if (fromRevision < this.oldest) return this.storage.watch({ prefix, fromRevision }, sink);
    const w: CacheWatcher = { prefix, sink, position: fromRevision, closed: false };
    const backlog = this.history.filter((e) => e.event.revision > fromRevision && keyOf(e.event).startsWith(prefix)).map((e) => e.event);
    this.addWatcher(w);
    if (backlog.length > 0) {
      w.position = backlog[backlog.length - 1]!.revision;
      queueMicrotask(() => !w.closed && w.sink.onEvents(backlog));
    }
    if (w.position < this.revision_) w.position = this.revision_;
    return { close: () => this.removeWatcher(w) };
  }

  /** How many watchers the cache feeds. */
  get watcherCount(): number {
    let n = 0;
    for (const set of this.watchers.values()) n += set.size;
    return n;
  }

  // ---------------------------------------------------------------------------

  private async load(): Promise<void> {
    // A consistent snapshot in chunks, then a watch from its revision.
    let rev: number | undefined;
    let startAfter: string | undefined;
    const fresh = new Map<string, KeyValue>();
    for (;;) {
      const page = await this.storage.range(this.prefix, { revision: rev, limit: 1000, startAfter });
      rev = page.revision;
      for (const kv of page.items) fresh.set(kv.key, kv);
      if (!page.more || page.items.length === 0) break;
      startAfter = page.items[page.items.length - 1]!.key;
    }
    this.state.clear();
    for (const [k, v] of fresh) this.state.set(k, v);
    this.sorted = [];
    this.added = [...fresh.keys()];
    this.removed = true;
    this.revision_ = Math.max(this.revision_, rev!);
    if (this.oldest === 0) this.oldest = rev!;
    this.storageWatch = await this.storage.watch({ prefix: this.prefix, fromRevision: rev! }, {
      onEvents: (events) => this.apply(events),
      onError: (err) => this.restart(err),
    });
  }

  private restart(err: Error): void {
    if (this.stopped) return;
    console.error(`watch cache ${this.prefix}: storage watch failed (${err.message}); re-listing`);
    this.storageWatch = undefined;
    // Changes between the old position and the new snapshot are not in the history: the window restarts.
    this.ready = (async () => {
      for (;;) {
        try {
          await this.load();
          this.oldest = this.revision_;
          this.history = [];
          for (const set of [...this.watchers.values()]) {
            for (const w of [...set]) {
              if (w.position < this.oldest) {
                this.removeWatcher(w);
                w.sink.onError(StorageError.compacted(w.position, this.oldest));
              }
            }
          }
          return;
        } catch (e) {
          if (this.stopped) return;
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    })();
  }

  private apply(events: readonly WatchEvent[]): void {
    const now = Date.now();
    for (const e of events) {
      if (e.type === 'delete') {
        this.state.delete(e.key);
        this.removed = true;
      } else {
        if (!this.state.has(e.kv.key)) this.added.push(e.kv.key);
        this.state.set(e.kv.key, e.kv);
      }
      this.history.push({ event: e, at: now });
    }
    this.revision_ = events[events.length - 1]!.revision;
    // Many creates in a row are folded in as they come, so that no list pays for sorting them all.
    if (this.added.length >= FOLD_EVERY) this.keys();
    this.trim(now);
    for (const [prefix, set] of this.watchers) {
      const matching = prefix === this.prefix ? events : events.filter((e) => keyOf(e).startsWith(prefix));
      for (const w of set) {
        if (w.closed) continue;
        // A watcher whose backlog reaches past this batch skips what it already has.
        const mine = matching.length === 0 || matching[0]!.revision > w.position ? matching : matching.filter((e) => e.revision > w.position);
        w.position = this.revision_;
        if (mine.length === 0) continue;
        try {
          w.sink.onEvents(mine);
        } catch (err) {
          console.error('watch cache: a watcher threw; closing it', err);
          this.removeWatcher(w);
        }
      }
    }
    if (this.waiters.length > 0) {
      const due = this.waiters.filter((w) => w.rev <= this.revision_);
      this.waiters = this.waiters.filter((w) => w.rev > this.revision_);
      for (const w of due) w.resolve();
    }
  }

  /**
   * The state's keys in byte order (ASCII keys: code unit order is byte
   * order). Keys created since the last call are sorted on their own and
   * merged in, and deleted ones dropped: O(n + k log k) for k new keys.
   */
  private keys(): string[] {
    if (this.added.length === 0 && !this.removed) return this.sorted;
    const fresh = this.added.sort();
    const old = this.sorted;
    const keys: string[] = [];
    const take = (k: string) => {
      // A key deleted and created again since the last fold may be in both lists, or twice in `added`.
      if (this.state.has(k) && keys[keys.length - 1] !== k) keys.push(k);
    };
    let i = 0;
    let j = 0;
    while (i < old.length && j < fresh.length) take(old[i]! <= fresh[j]! ? old[i++]! : fresh[j++]!);
    while (i < old.length) take(old[i++]!);
    while (j < fresh.length) take(fresh[j++]!);
    this.sorted = keys;
    this.added = [];
    this.removed = false;
    return keys;
  }

  private addWatcher(w: CacheWatcher): void {
    let set = this.watchers.get(w.prefix);
    if (!set) this.watchers.set(w.prefix, (set = new Set()));
    set.add(w);
  }

  private removeWatcher(w: CacheWatcher): void {
    w.closed = true;
    const set = this.watchers.get(w.prefix);
    if (!set?.delete(w)) return;
    if (set.size === 0) this.watchers.delete(w.prefix);
  }

  /** Drops history older than the window (always keeping the newest events' count bound). */
  private trim(now: number): void {
    let drop = 0;
    while (drop < this.history.length && (this.history.length - drop > this.maxEvents || now - this.history[drop]!.at > this.windowMs)) drop++;
    if (drop === 0) return;
    this.oldest = this.history[drop - 1]!.event.revision;
    this.history = this.history.slice(drop);
  }
}

/** Keys created since the last fold past which apply() folds them into the sorted keys. */
const FOLD_EVERY = 4096;

/** The first index whose key is >= `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose key is > `key`. */
function upperBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function keyOf(e: WatchEvent): string {
  return e.type === 'delete' ? e.key : e.kv.key;
}
