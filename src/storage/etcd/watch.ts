// One gRPC watch stream to etcd, multiplexing every watch of a store.
//
// Watches on the same prefix share one etcd watch (a *group*): a new watch
// whose start is not older than what a group has already delivered joins it
// and skips events up to its own start, so etcd sends each event once per
// prefix rather than once per watcher. An older start gets a group of its own.
//
// Watch ids are chosen by us (etcd >= 3.4 honours `watch_id`), so creation
// needs no ordering queue. When the stream breaks, every group is re-created
// on a new stream from the revision after the last one it delivered, so
// consumers see no gap and no duplicate; a group whose position was compacted
// meanwhile fails its watches with Compacted.
import type { IWatchResponse, WatchClient } from 'etcd3/lib/rpc.js';
import type { KeyValue, WatchEvent, WatchHandle, WatchSink } from '../interface.js';
import { StorageError } from '../errors.js';
import type { KeyCodec } from './keys.js';

type Duplex = Awaited<ReturnType<WatchClient['watch']>>;

interface RawKV {
  key: Buffer;
  value: Buffer;
  create_revision: string;
  mod_revision: string;
  version: string;
}

interface Subscriber {
  readonly sink: WatchSink;
  position: number;
  closed: boolean;
}

interface Group {
  readonly id: number;
  readonly prefix: string;
  readonly span: { key: Buffer; range_end: Buffer };
  /** Every event at or below this revision was delivered. */
  position: number;
  created: boolean;
  closed: boolean;
  readonly subscribers: Set<Subscriber>;
  /** Pending add() calls waiting for etcd to confirm the watch. */
  waiting: { resolve: () => void; reject: (err: Error) => void }[];
}

export class WatchStream {
  private stream: Duplex | undefined;
  private connecting: Promise<Duplex> | undefined;
  private readonly groups = new Map<number, Group>();
  private nextId = 1;
  private backoffMs = 100;
  private resumeScheduled = false;
  private closed = false;

  constructor(private readonly client: WatchClient, private readonly codec: KeyCodec) {}

  async add(prefix: string, fromRevision: number, sink: WatchSink): Promise<WatchHandle> {
    const sub: Subscriber = { sink, position: fromRevision, closed: false };
    let group = [...this.groups.values()].find((g) => g.prefix === prefix && !g.closed && g.position <= fromRevision);
    if (!group) {
      group = { id: this.nextId++, prefix, span: this.codec.span(prefix), position: fromRevision, created: false, closed: false, subscribers: new Set(), waiting: [] };
      this.groups.set(group.id, group);
      this.send(group).catch((err) => this.fail(group!, StorageError.unavailable(`etcd watch: ${(err as Error).message}`, err)));
    }
    const g = group;
    g.subscribers.add(sub);
    if (!g.created) await new Promise<void>((resolve, reject) => g.waiting.push({ resolve, reject }));
    return { close: () => this.unsubscribe(g, sub) };
  }

  close(): void {
    this.closed = true;
    for (const g of this.groups.values()) g.closed = true;
    this.groups.clear();
    this.stream?.cancel();
    this.stream = undefined;
  }

  private async send(g: Group): Promise<void> {
    const stream = await this.open();
    if (g.closed) return;
    stream.write({ create_request: { ...g.span, start_revision: g.position + 1, prev_kv: true, watch_id: g.id } });
  }

  private open(): Promise<Duplex> {
    if (this.stream) return Promise.resolve(this.stream);
    if (!this.connecting) {
      this.connecting = this.client.watch().then(
        (stream) => {
          this.stream = stream;
          this.connecting = undefined;
          stream.on('data', (res: IWatchResponse) => this.onResponse(res));
          stream.on('error', (err: Error) => this.onBroken(stream, err));
          stream.on('end', () => this.onBroken(stream, new Error('watch stream ended')));
          return stream;
        },
        (err) => {
          this.connecting = undefined;
          throw err;
        },
      );
    }
    return this.connecting;
  }

  private onResponse(res: IWatchResponse): void {
    const g = this.groups.get(Number(res.watch_id));
    if (!g || g.closed) return;
    if (res.canceled) {
      const compacted = Number(res.compact_revision ?? 0);
      this.fail(g, compacted > 0 ? StorageError.compacted(g.position, compacted) : StorageError.unavailable(`etcd cancelled the watch: ${res.cancel_reason || 'no reason given'}`));
      return;
    }
    if (res.created) {
      g.created = true;
      this.backoffMs = 100;
      for (const w of g.waiting.splice(0)) w.resolve();
    }
    if (!res.events || res.events.length === 0) return;
    const events: WatchEvent[] = [];
    for (const raw of res.events) {
      const ev = this.toEvent(raw as unknown as { type: string | number; kv: RawKV; prev_kv?: RawKV | null });
      if (ev === null) {
        this.fail(g, StorageError.compacted(g.position, 0));
        return;
      }
      if (ev.revision > g.position) events.push(ev);
    }
    if (events.length === 0) return;
    g.position = events[events.length - 1]!.revision;
    for (const sub of g.subscribers) {
      const fresh = events[0]!.revision > sub.position ? events : events.filter((e) => e.revision > sub.position);
      if (fresh.length === 0) continue;
      sub.position = g.position;
      try {
        sub.sink.onEvents(fresh);
      } catch (err) {
        console.error('storage: watch sink threw; closing the watch', err);
        this.unsubscribe(g, sub);
      }
    }
  }

  private toEvent(raw: { type: string | number; kv: RawKV; prev_kv?: RawKV | null }): WatchEvent | null {
    const revision = Number(raw.kv.mod_revision);
    const prev = raw.prev_kv ? this.toKV(raw.prev_kv) : null;
    if (raw.type === 'Delete' || raw.type === 'DELETE' || raw.type === 1) {
      return prev ? { type: 'delete', revision, key: this.codec.decode(raw.kv.key), prev } : null;
    }
    const kv = this.toKV(raw.kv);
    if (raw.kv.version === '1' || !prev) return { type: 'create', revision, kv };
    return { type: 'update', revision, kv, prev };
  }

  private toKV(raw: RawKV): KeyValue {
    return { key: this.codec.decode(raw.key), value: raw.value, createRevision: Number(raw.create_revision), modRevision: Number(raw.mod_revision) };
  }

  private fail(g: Group, err: Error): void {
    if (g.closed) return;
    this.drop(g);
    for (const w of g.waiting.splice(0)) w.reject(err);
    for (const sub of g.subscribers) {
      if (sub.closed) continue;
      sub.closed = true;
      sub.sink.onError(err);
    }
  }

  private unsubscribe(g: Group, sub: Subscriber): void {
    if (sub.closed) return;
    sub.closed = true;
    g.subscribers.delete(sub);
    if (g.subscribers.size === 0) this.drop(g);
  }

  private drop(g: Group): void {
    g.closed = true;
    this.groups.delete(g.id);
    if (this.stream && g.created) this.stream.write({ cancel_request: { watch_id: g.id } });
  }

  /** The stream broke: re-create every group from where it stopped, after a backoff. */
  private onBroken(stream: Duplex, err: Error): void {
    if (this.stream !== stream) return;
    this.stream = undefined;
    try {
      stream.cancel();
    } catch {
      /* already gone */
    }
    if (this.closed) return;
    if (this.groups.size > 0) console.error(`storage: etcd watch stream broke (${err.message}); resuming ${this.groups.size} watch(es)`);
    this.scheduleResume();
  }

  private scheduleResume(): void {
    if (this.resumeScheduled || this.closed) return;
    this.resumeScheduled = true;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(5000, this.backoffMs * 2);
    setTimeout(() => {
      this.resumeScheduled = false;
      if (this.closed) return;
      for (const g of this.groups.values()) {
        g.created = false;
        this.send(g).catch(() => this.scheduleResume());
      }
    }, delay).unref();
  }
}
