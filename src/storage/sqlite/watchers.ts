// The watch hub of the SQLite backend, after etcd's watchable store.
//
// Every write of this process passes through one writer, so events are
// emitted at one point: right after a transaction commits. A watcher is
// either *synced* (it has seen everything up to the current revision and
// receives live events) or *unsynced* (it is reading history from the log
// in bounded chunks). Everything runs on one thread, so the step that reads
// the last history chunk and marks the watcher synced cannot interleave with
// a commit: no gap, no duplicate.
import type { WatchEvent, WatchHandle, WatchSink } from '../interface.js';
import { StorageError } from '../errors.js';
import { prefixEnd } from '../limits.js';
import type { Statements } from './statements.js';
import { toEvent } from './rows.js';

export const HISTORY_CHUNK = 1000;

interface Watcher {
  readonly prefix: string;
  readonly end: string;
  readonly sink: WatchSink;
  /** Every event at or below this revision has been delivered. */
  position: number;
  closed: boolean;
}

export interface HubDeps {
  readonly stmts: () => Statements;
  readonly currentRevision: () => number;
  readonly compactedRevision: () => number;
}

export class WatchHub {
  private readonly synced = new Map<string, Set<Watcher>>();
  private readonly unsynced = new Set<Watcher>();

  constructor(private readonly deps: HubDeps) {}

  add(prefix: string, fromRevision: number, sink: WatchSink): WatchHandle {
    const w: Watcher = { prefix, end: prefixEnd(prefix), sink, position: fromRevision, closed: false };
    if (fromRevision >= this.deps.currentRevision()) {
      this.markSynced(w);
    } else {
      this.unsynced.add(w);
      setImmediate(() => this.catchUp(w));
    }
    return { close: () => this.remove(w) };
  }

  /** Called once per committed transaction with its events in revision order. */
  notify(events: readonly WatchEvent[]): void {
    if (events.length === 0) return;
    for (const [prefix, watchers] of this.synced) {
      const matching = prefix === '' ? events : events.filter((e) => keyOf(e).startsWith(prefix));
      if (matching.length === 0) continue;
      const last = matching[matching.length - 1]!.revision;
      for (const w of watchers) {
        // A watch started at a future revision skips events up to it.
        const fresh = matching[0]!.revision > w.position ? matching : matching.filter((e) => e.revision > w.position);
        if (fresh.length === 0) continue;
        w.position = last;
        this.deliver(w, fresh);
      }
    }
  }

  /** Fails every watcher (the store is closing or broken). */
  failAll(err: Error): void {
    for (const w of [...this.unsynced, ...[...this.synced.values()].flatMap((s) => [...s])]) {
      this.remove(w);
      w.sink.onError(err);
    }
  }

  get size(): number {
    let n = this.unsynced.size;
    for (const s of this.synced.values()) n += s.size;
    return n;
  }

  private catchUp(w: Watcher): void {
    if (w.closed) return;
    const compacted = this.deps.compactedRevision();
    if (w.position < compacted) {
      this.remove(w);
      w.sink.onError(StorageError.compacted(w.position, compacted));
      return;
    }
    const to = this.deps.currentRevision();
    let rows;
    try {
      rows = this.deps.stmts().history.all({ from: w.position, to, lo: w.prefix, end: w.end, limit: HISTORY_CHUNK });
    } catch (err) {
      this.remove(w);
      w.sink.onError(StorageError.unavailable(`reading watch history: ${(err as Error).message}`, err));
      return;
    }
    const events: WatchEvent[] = [];
    for (const row of rows) {
      const e = toEvent(row);
      if (e === null) {
        this.remove(w);
        w.sink.onError(StorageError.compacted(w.position, this.deps.compactedRevision()));
        return;
      }
      events.push(e);
    }
    if (rows.length < HISTORY_CHUNK) {
      // Everything up to `to` (the current revision) has been read.
      w.position = to;
      this.unsynced.delete(w);
      this.markSynced(w);
      if (events.length > 0) this.deliver(w, events);
      return;
    }
    w.position = rows[rows.length - 1]!.id;
    this.deliver(w, events);
    setImmediate(() => this.catchUp(w));
  }

  private deliver(w: Watcher, events: readonly WatchEvent[]): void {
    if (w.closed) return;
    try {
      w.sink.onEvents(events);
    } catch (err) {
      // A sink must not throw; one that does is cut off rather than allowed to break the writer.
      this.remove(w);
      console.error('storage: watch sink threw; closing the watch', err);
    }
  }

  private markSynced(w: Watcher): void {
    let set = this.synced.get(w.prefix);
    if (!set) this.synced.set(w.prefix, (set = new Set()));
    set.add(w);
  }

  private remove(w: Watcher): void {
    w.closed = true;
    this.unsynced.delete(w);
    const set = this.synced.get(w.prefix);
    if (set) {
      set.delete(w);
      if (set.size === 0) this.synced.delete(w.prefix);
    }
  }
}

function keyOf(e: WatchEvent): string {
  return e.type === 'delete' ? e.key : e.kv.key;
}

