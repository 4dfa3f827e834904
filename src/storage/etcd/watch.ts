// One gRPC watch stream to etcd, multiplexing every watch of a store.
//
// Watch ids are chosen by us (etcd >= 3.4 honours `watch_id`), so creation
// needs no ordering queue. When the stream breaks, every watch is re-created
// on a new stream from the revision after the last one it delivered, so
// consumers see no gap and no duplicate; a watch whose position was compacted
// meanwhile gets a Compacted error.
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

interface Entry {
  readonly id: number;
  readonly span: { key: Buffer; range_end: Buffer };
  readonly sink: WatchSink;
  /** Every event at or below this revision was delivered. */
  position: number;
  created: boolean;
  closed: boolean;
  onCreated?: (err?: Error) => void;
}

export class WatchStream {
  private stream: Duplex | undefined;
  private connecting: Promise<Duplex> | undefined;
  private readonly entries = new Map<number, Entry>();
  private nextId = 1;
  private backoffMs = 100;
  private closed = false;

  constructor(private readonly client: WatchClient, private readonly codec: KeyCodec) {}

  add(prefix: string, fromRevision: number, sink: WatchSink): Promise<WatchHandle> {
    const entry: Entry = { id: this.nextId++, span: this.codec.span(prefix), sink, position: fromRevision, created: false, closed: false };
    this.entries.set(entry.id, entry);
    return new Promise<WatchHandle>((resolve, reject) => {
      entry.onCreated = (err) => (err ? reject(err) : resolve({ close: () => this.cancel(entry) }));
      this.send(entry).catch((err) => this.fail(entry, StorageError.unavailable(`etcd watch: ${(err as Error).message}`, err)));
    });
  }

  close(): void {
    this.closed = true;
    for (const e of this.entries.values()) e.closed = true;
    this.entries.clear();
    this.stream?.cancel();
    this.stream = undefined;
  }

  private async send(entry: Entry): Promise<void> {
    const stream = await this.open();
    if (entry.closed) return;
    stream.write({
      create_request: { ...entry.span, start_revision: entry.position + 1, prev_kv: true, watch_id: entry.id },
    });
  }

  private open(): Promise<Duplex> {
    if (this.stream) return Promise.resolve(this.stream);
    if (!this.connecting) {
      this.connecting = this.client.watch().then((stream) => {
        this.stream = stream;
        this.connecting = undefined;
        stream.on('data', (res: IWatchResponse) => this.onResponse(res));
        stream.on('error', (err: Error) => this.onBroken(stream, err));
        stream.on('end', () => this.onBroken(stream, new Error('watch stream ended')));
        return stream;
      }, (err) => {
        this.connecting = undefined;
        throw err;
      });
    }
    return this.connecting;
  }

  private onResponse(res: IWatchResponse): void {
    const entry = this.entries.get(Number(res.watch_id));
    if (!entry || entry.closed) return;
    if (res.canceled) {
      const compacted = Number(res.compact_revision ?? 0);
      const err = compacted > 0 ? StorageError.compacted(entry.position, compacted) : StorageError.unavailable(`etcd cancelled the watch: ${res.cancel_reason ?? 'no reason given'}`);
      this.fail(entry, err);
      return;
    }
    if (res.created) {
      entry.created = true;
      this.backoffMs = 100;
      const cb = entry.onCreated;
      entry.onCreated = undefined;
      cb?.();
    }
    if (!res.events || res.events.length === 0) return;
    const events: WatchEvent[] = [];
    for (const raw of res.events) {
      const ev = this.toEvent(raw as unknown as { type: string | number; kv: RawKV; prev_kv?: RawKV | null });
      if (ev === null) {
        this.fail(entry, StorageError.compacted(entry.position, 0));
        return;
      }
      if (ev.revision > entry.position) events.push(ev);
    }
    if (events.length === 0) return;
    entry.position = events[events.length - 1]!.revision;
    try {
      entry.sink.onEvents(events);
    } catch (err) {
      console.error('storage: watch sink threw; closing the watch', err);
      this.cancel(entry);
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

  toKV(raw: RawKV): KeyValue {
    return { key: this.codec.decode(raw.key), value: raw.value, createRevision: Number(raw.create_revision), modRevision: Number(raw.mod_revision) };
  }

  private fail(entry: Entry, err: Error): void {
    if (entry.closed) return;
    entry.closed = true;
    this.entries.delete(entry.id);
    if (entry.onCreated) {
      const cb = entry.onCreated;
      entry.onCreated = undefined;
      cb(err);
    } else {
      entry.sink.onError(err);
    }
    if (entry.created) this.stream?.write({ cancel_request: { watch_id: entry.id } });
  }

  private cancel(entry: Entry): void {
    if (entry.closed) return;
    entry.closed = true;
    this.entries.delete(entry.id);
    if (this.stream && entry.created) this.stream.write({ cancel_request: { watch_id: entry.id } });
  }

  /** The stream broke: re-create every watch from where it stopped, after a backoff. */
  private onBroken(stream: Duplex, err: Error): void {
    if (this.stream !== stream) return;
    this.stream = undefined;
    if (this.closed) return;
    try {
      stream.cancel();
    } catch {
      /* already gone */
    }
    const delay = this.backoffMs;
    this.backoffMs = Math.min(5000, this.backoffMs * 2);
    if (this.entries.size > 0) console.error(`storage: etcd watch stream broke (${err.message}); resuming ${this.entries.size} watch(es) in ${delay} ms`);
    setTimeout(() => {
      if (this.closed) return;
      for (const entry of this.entries.values()) {
        entry.created = false;
        this.send(entry).catch(() => this.onBrokenRetry());
      }
    }, delay).unref();
  }

  private onBrokenRetry(): void {
    // open() failed: schedule another attempt for every watch.
    const delay = this.backoffMs;
    this.backoffMs = Math.min(5000, this.backoffMs * 2);
    setTimeout(() => {
      if (this.closed || this.stream || this.connecting) return;
      for (const entry of this.entries.values()) this.send(entry).catch(() => this.onBrokenRetry());
    }, delay).unref();
  }
}
