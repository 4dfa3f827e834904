// The etcd v3 backend: the same interface on a real etcd cluster, using
// etcd's own revisions, range, txn and watch, so several API server processes
// can share one cluster (the scale-out path).
import { readFileSync } from 'node:fs';
import { Etcd3, type IOptions } from 'etcd3';
import type { IRangeResponse, ITxnResponse, KVClient } from 'etcd3/lib/rpc.js';
import { noop } from 'cockatiel';
import type { DeleteResult, GetOptions, KeyValue, RangeOptions, RangeResult, Store, WatchHandle, WatchOptions, WatchSink, WriteOptions } from '../interface.js';
import { StorageError } from '../errors.js';
import { checkKey, checkValueSize } from '../limits.js';
import { KeyCodec } from './keys.js';
import { mapEtcdError } from './errors.js';
import { WatchStream } from './watch.js';

export interface EtcdOptions {
  /** Client URLs, e.g. ["http://127.0.0.1:2379"]. */
  readonly servers: readonly string[];
  /** Prepended to every key, so several users can share a cluster (default ""). */
  readonly keyPrefix?: string;
  readonly caFile?: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  /** Deadline of one request (default 10 s). */
  readonly requestTimeoutMs?: number;
  /** How long open() waits for the first answer (default 5 s). */
  readonly dialTimeoutMs?: number;
}

type RawKV = IRangeResponse['kvs'][number];

/** Outside the key space the API server uses ('/registry/...'). */
const COMPACT_KEY = 'compact_rev_key';

export class EtcdStore implements Store {
  readonly backend = 'etcd3';
  private readonly kv: KVClient;
  private readonly codec: KeyCodec;
  private readonly watches: WatchStream;
  private closed = false;

  private constructor(private readonly client: Etcd3, opts: EtcdOptions) {
    this.kv = client.kv;
    this.codec = new KeyCodec(opts.keyPrefix ?? '');
    this.watches = new WatchStream(client.watchClient, this.codec);
  }

  /** Connects and checks that etcd answers; fails with a message naming the servers and the cause. */
  static async open(opts: EtcdOptions): Promise<EtcdStore> {
    const timeout = opts.requestTimeoutMs ?? 10_000;
    const options: IOptions = {
      hosts: [...opts.servers],
      dialTimeout: opts.dialTimeoutMs ?? 5000,
      // No client-side retries: a retried txn could apply twice. Callers decide.
      faultHandling: { host: () => noop, global: noop },
      defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeout }),
    };
    try {
      if (opts.caFile || opts.certFile || opts.keyFile) {
        options.credentials = {
          rootCertificate: readFileSync(requireOpt(opts.caFile, 'a CA file')),
          ...(opts.certFile ? { certChain: readFileSync(opts.certFile) } : {}),
          ...(opts.keyFile ? { privateKey: readFileSync(opts.keyFile) } : {}),
        };
      }
    } catch (err) {
      throw new Error(`cannot open etcd store: ${(err as Error).message}`, { cause: err });
    }
    const client = new Etcd3(options);
    const store = new EtcdStore(client, opts);
    try {
      await store.kv.range({ key: Buffer.from([0]), limit: 1, count_only: true }, { deadline: Date.now() + (opts.dialTimeoutMs ?? 5000) });
    } catch (err) {
      client.close();
      throw new Error(`cannot reach etcd at ${opts.servers.join(',')}: ${(err as Error).message}`, { cause: err });
    }
    return store;
  }

  async get(key: string, opts: GetOptions = {}): Promise<KeyValue | null> {
    const res = await this.call(() => this.kv.range({ key: this.codec.encode(key), revision: opts.revision ?? 0 }), opts.revision);
    const kv = res.kvs[0];
    return kv ? this.toKV(kv) : null;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const res = await this.call(() => this.kv.range({ ...this.codec.span(prefix, opts.startAfter), revision: opts.revision ?? 0, limit }), opts.revision);
    const items = res.kvs.map((kv) => this.toKV(kv));
    const more = Boolean(res.more);
    return { items, revision: opts.revision || Number(res.header.revision), more, remaining: more ? Number(res.count) - items.length : 0 };
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    checkKey(key);
    checkValueSize(key, value);
    const k = this.codec.encode(key);
    const res = await this.txn({
      compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: 0 }],
      success: [{ request_put: { key: k, value: Buffer.from(value) } }],
      failure: [],
    });
    if (!res.succeeded) throw StorageError.keyExists(key);
    const rev = Number(res.header.revision);
    return { key, value, createRevision: rev, modRevision: rev };
  }

  async update(key: string, value: Uint8Array, opts: WriteOptions = {}): Promise<KeyValue> {
    checkKey(key);
    checkValueSize(key, value);
    const k = this.codec.encode(key);
    const res = await this.txn({
      compare: [this.precondition(k, opts.expectedModRevision)],
      success: [{ request_put: { key: k, value: Buffer.from(value), prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) throw this.failedPrecondition(key, res, opts.expectedModRevision);
    const prev = res.responses[0]!.response_put!.prev_kv!;
    const rev = Number(res.header.revision);
    return { key, value, createRevision: Number(prev.create_revision), modRevision: rev };
  }

  async delete(key: string, opts: WriteOptions = {}): Promise<DeleteResult> {
    checkKey(key);
    const k = this.codec.encode(key);
    const res = await this.txn({
      compare: [this.precondition(k, opts.expectedModRevision)],
      success: [{ request_delete_range: { key: k, prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) throw this.failedPrecondition(key, res, opts.expectedModRevision);
    const prev = res.responses[0]!.response_delete_range!.prev_kvs[0];
    if (!prev) throw StorageError.keyNotFound(key);
    return { revision: Number(res.header.revision), prev: this.toKV(prev) };
  }

  async watch(opts: WatchOptions, sink: WatchSink): Promise<WatchHandle> {
    if (this.closed) throw StorageError.unavailable('the store is closed');
    // etcd reports a compacted start only after accepting the watch; check first so
    // the caller gets the rejection the interface promises. A compaction racing with
    // this call still arrives, as Compacted, through sink.onError.
    const compacted = await this.compactedRevision();
    if (opts.fromRevision < compacted) throw StorageError.compacted(opts.fromRevision, compacted);
    return this.watches.add(opts.prefix, opts.fromRevision, sink);
  }

  async compact(revision: number): Promise<void> {
    try {
      await this.call(() => this.kv.compact({ revision, physical: false }), revision);
    } catch (err) {
      // Compacting at or below the compacted revision is a no-op, as in the SQLite backend.
      if (err instanceof StorageError && err.code === 'Compacted') return;
      throw err;
    }
    await this.recordCompacted(revision);
  }

  /**
   * etcd does not expose its compacted revision, so (as Kubernetes does with
   * its compact_rev_key) we keep the highest revision compacted through any
   * store sharing the cluster in one key, raised with a compare-and-swap.
   */
  private async recordCompacted(revision: number): Promise<void> {
    const key = this.codec.encode(COMPACT_KEY);
    for (;;) {
      const res = await this.call(() => this.kv.range({ key }));
      const cur = res.kvs[0];
      if (cur && Number(cur.value.toString()) >= revision) return;
      const txn = await this.txn({
        compare: [cur ? { key, target: 'Mod', result: 'Equal', mod_revision: cur.mod_revision } : { key, target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key, value: Buffer.from(String(revision)) } }],
        failure: [],
      });
      if (txn.succeeded) return;
    }
  }

  async currentRevision(): Promise<number> {
    const res = await this.call(() => this.kv.range({ key: this.codec.encode('\u0001'), count_only: true }));
    return Number(res.header.revision);
  }

  async compactedRevision(): Promise<number> {
    const res = await this.call(() => this.kv.range({ key: this.codec.encode(COMPACT_KEY) }));
    return res.kvs[0] ? Number(res.kvs[0].value.toString()) : 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watches.close();
    this.client.close();
  }

  // ---------------------------------------------------------------------------

  private precondition(key: Buffer, expected: number | undefined) {
    return expected === undefined
      ? { key, target: 'Create' as const, result: 'NotEqual' as const, create_revision: 0 }
      : { key, target: 'Mod' as const, result: 'Equal' as const, mod_revision: expected };
  }

  private failedPrecondition(key: string, res: ITxnResponse, expected: number | undefined): StorageError {
    const current = res.responses[0]?.response_range?.kvs[0];
    if (!current) return StorageError.keyNotFound(key);
    return StorageError.conflict(key, this.toKV(current), expected ?? -1);
  }

  private txn(req: Parameters<KVClient['txn']>[0]): Promise<ITxnResponse> {
    return this.call(() => this.kv.txn(req));
  }

  private async call<T>(fn: () => Promise<T>, requested?: number): Promise<T> {
    if (this.closed) throw StorageError.unavailable('the store is closed');
    try {
      return await fn();
    } catch (err) {
      throw await mapEtcdError(err, { requested, compacted: () => this.compactedRevision(), current: () => this.currentRevision() });
    }
  }

  private toKV(kv: RawKV): KeyValue {
    return { key: this.codec.decode(kv.key), value: kv.value, createRevision: Number(kv.create_revision), modRevision: Number(kv.mod_revision) };
  }
}

function requireOpt(v: string | undefined, what: string): string {
  if (!v) throw new Error(`TLS to etcd needs ${what}`);
  return v;
}
