// The SQLite log's writers: every write of the store — appends, compaction
// batches, metadata, checkpoints — is one of LogTransactions' statements, run
// one batch at a time by a LogWriter. For a file the store has two: the
// writer thread (writerthread.ts, its own connection), so that large batches'
// inserts and page writes, compaction and checkpoints stay off the event
// loop, and the event loop's own connection for batches of small values; an
// in-memory database, which one connection holds alone, runs everything
// inline. Either way the store sees the same asynchronous interface and the
// same outcomes, plain data that crosses threads.
import type Database from 'better-sqlite3';
import type { KeyValue, WatchEvent } from '../interface.js';
import { Worker } from 'node:worker_threads';
import { StorageError } from '../errors.js';
import type { LogRow } from './schema.js';
import { prepare, type Statements } from './statements.js';
import { createRevisionOf, toKeyValue } from './rows.js';

export type WriteOp =
  | { readonly kind: 'create'; readonly key: string; readonly value: Uint8Array }
  | { readonly kind: 'update'; readonly key: string; readonly value: Uint8Array; readonly expected: number | undefined }
  | { readonly kind: 'delete'; readonly key: string; readonly expected: number | undefined };

/** A write the log refused, as data (StorageError does not survive a thread crossing). */
export interface Refusal {
  readonly refused: 'KeyExists' | 'KeyNotFound' | 'Conflict';
  readonly key: string;
  readonly current?: KeyValue;
  readonly expected?: number;
}

export type Outcome = WatchEvent | Refusal;

export const isRefusal = (o: Outcome): o is Refusal => (o as Refusal).refused !== undefined;

/** The StorageError a refusal stands for. */
export function refusalError(r: Refusal): StorageError {
  if (r.refused === 'KeyExists') return StorageError.keyExists(r.key);
  if (r.refused === 'KeyNotFound') return StorageError.keyNotFound(r.key);
  return StorageError.conflict(r.key, r.current!, r.expected ?? -1);
}

/** The writes of a store, one at a time, in order. A rejected promise means the commit itself failed (nothing of it was written). */
export interface LogWriter {
  commit(ops: readonly WriteOp[]): Promise<Outcome[]>;
  /** Deletes superseded rows and tombstones in (from, to] and records `to` as compacted so far. */
  compactBatch(from: number, to: number): Promise<void>;
  setMeta(key: string, value: number): Promise<void>;
  /** wal_checkpoint(TRUNCATE). */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
  /** Told once if the writer stops on its own (its thread died): nothing more will be written. */
  onDeath?: (err: Error) => void;
}

/** The write statements on one connection, synchronous: what a LogWriter runs. */
export class LogTransactions {
  private readonly stmts: Statements;

  constructor(private readonly db: Database.Database) {
    this.stmts = prepare(db);
  }

  /** One transaction for the whole batch; each op's outcome (a refused op writes nothing, the others go on). */
  commit(ops: readonly WriteOp[]): Outcome[] {
    const out: Outcome[] = [];
    this.db.transaction(() => {
      for (const op of ops) out.push(this.tryApply(op));
    }).immediate();
    return out;
  }

  compactBatch(from: number, to: number): void {
    this.db.transaction(() => {
      this.stmts.compactSuperseded.run({ from, to });
      this.stmts.compactTombstones.run({ from, to });
      this.stmts.setMeta.run('compact_done', to);
    }).immediate();
  }

  setMeta(key: string, value: number): void {
    this.stmts.setMeta.run(key, value);
  }

  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  private tryApply(op: WriteOp): Outcome {
    try {
      return this.apply(op);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        // Another writer won the race for this version (only possible across processes).
        const row = this.stmts.latest.get(op.key);
        if (row && !row.deleted) return op.kind === 'create' ? { refused: 'KeyExists', key: op.key } : { refused: 'Conflict', key: op.key, current: toKeyValue(row) };
        return { refused: 'KeyNotFound', key: op.key };
      }
      throw err;
    }
  }

  private apply(op: WriteOp): Outcome {
    const latest: LogRow | undefined = this.stmts.latest.get(op.key);
    const live = latest && !latest.deleted ? latest : undefined;
    if (op.kind === 'create') {
      if (live) return { refused: 'KeyExists', key: op.key };
      const id = this.insert(op.key, 1, 0, 0, latest?.id ?? 0, op.value);
      return { type: 'create', revision: id, kv: { key: op.key, value: op.value, createRevision: id, modRevision: id } };
    }
    if (!live) return { refused: 'KeyNotFound', key: op.key };
    const prev = toKeyValue(live);
    if (op.expected !== undefined && op.expected !== live.id) return { refused: 'Conflict', key: op.key, current: prev, expected: op.expected };
    const createRevision = createRevisionOf(live);
    if (op.kind === 'update') {
      const id = this.insert(op.key, 0, 0, createRevision, live.id, op.value);
      return { type: 'update', revision: id, kv: { key: op.key, value: op.value, createRevision, modRevision: id }, prev };
    }
    const id = this.insert(op.key, 0, 1, createRevision, live.id, null);
    return { type: 'delete', revision: id, key: op.key, prev };
  }

  private insert(name: string, created: number, deleted: number, createRevision: number, prevRevision: number, value: Uint8Array | null): number {
    const blob = value === null || Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return Number(this.stmts.insert.run(name, created, deleted, createRevision, prevRevision, blob).lastInsertRowid);
  }
}

/**
 * How a connection that writes the log is set up: SQLite's checkpoints every
 * 1,000 pages, the WAL truncated back to 64 MiB, and `synchronous` (NORMAL
 * when the store fsyncs the log itself).
 */
export function configureWriting(db: Database.Database, synchronous: 'FULL' | 'NORMAL' | 'OFF'): void {
  db.pragma('wal_autocheckpoint = 1000');
  db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  db.pragma(`synchronous = ${synchronous}`);
}

/** A LogWriter on the caller's own connection (the event loop's). */
export class InlineWriter implements LogWriter {
  private readonly tx: LogTransactions;

  constructor(db: Database.Database) {
    this.tx = new LogTransactions(db);
  }

  commit(ops: readonly WriteOp[]): Promise<Outcome[]> {
    return run(() => this.tx.commit(ops));
  }
  compactBatch(from: number, to: number): Promise<void> {
    return run(() => this.tx.compactBatch(from, to));
  }
  setMeta(key: string, value: number): Promise<void> {
    return run(() => this.tx.setMeta(key, value));
  }
  checkpoint(): Promise<void> {
    return run(() => this.tx.checkpoint());
  }
  async close(): Promise<void> {}
}

function run<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

/** `v`'s bytes in a SharedArrayBuffer (as they are, when they are there already). */
function shared(v: Uint8Array): Uint8Array {
  if (v.buffer instanceof SharedArrayBuffer) return v;
  const out = new Uint8Array(new SharedArrayBuffer(v.byteLength));
  out.set(v);
  return out;
}

/** A request to the writer thread and its reply (writerthread.ts). */
export type ThreadRequest =
  | { readonly id: number; readonly call: 'commit'; readonly ops: readonly WriteOp[] }
  | { readonly id: number; readonly call: 'compactBatch'; readonly from: number; readonly to: number }
  | { readonly id: number; readonly call: 'setMeta'; readonly key: string; readonly value: number }
  | { readonly id: number; readonly call: 'checkpoint' | 'close' };

/** A request before it is numbered. */
type ThreadCall = ThreadRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

export type ThreadReply = { readonly id: number; readonly result?: unknown; readonly error?: { message: string; code?: string } };

export interface ThreadWriterOptions {
  readonly path: string;
  /** The writer connection's synchronous setting. */
  readonly synchronous: 'FULL' | 'NORMAL' | 'OFF';
}

/**
 * A LogWriter on its own worker thread and connection. Values cross by copy
 * into shared memory; a committed create or update comes back without its
 * value (the caller has it) and is given the caller's own bytes again. The
 * thread keeps the process alive only while a call is outstanding.
 */
export class ThreadWriter implements LogWriter {
  private readonly worker: Worker;
  private next = 1;
  private readonly calls = new Map<number, { resolve(v: unknown): void; reject(err: Error): void }>();
  private dead: Error | undefined;
  private closing = false;
  onDeath?: (err: Error) => void;

  constructor(opts: ThreadWriterOptions) {
    // The thread inherits the process's node options (a worker's default), except under --input-type, which node
    // refuses in a worker: a script run as `node --input-type=module -e …` would lose its store at once. Then it
    // gets none (an explicit list may not hold V8 flags such as --expose-gc either; those are process-wide anyway).
    const inputType = process.execArgv.some((a) => a.startsWith('--input-type'));
    this.worker = new Worker(new URL('./writerthread.js', import.meta.url), { workerData: opts, ...(inputType ? { execArgv: [] } : {}) });
    this.worker.unref();
    this.worker.on('message', (m: ThreadReply) => {
      const c = this.calls.get(m.id);
      if (!c) return;
      this.calls.delete(m.id);
      if (this.calls.size === 0) this.worker.unref();
      if (m.error) c.reject(Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {}));
      else c.resolve(m.result);
    });
    const die = (err: Error) => {
      if (this.dead) return;
      this.dead = err;
      for (const c of this.calls.values()) c.reject(err);
      this.calls.clear();
      if (!this.closing) this.onDeath?.(err);
    };
    this.worker.on('error', die);
    this.worker.on('exit', (code) => die(new Error(`the SQLite writer thread exited (code ${code})`)));
  }

  private call<T>(req: ThreadCall): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      if (this.calls.size === 0) this.worker.ref();
      this.calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  async commit(ops: readonly WriteOp[]): Promise<Outcome[]> {
    // Values cross as copies in shared memory: one memcpy, instead of the serializer copying them twice.
    const sent = ops.map((op) => (op.kind === 'delete' ? op : { ...op, value: shared(op.value) }));
    const out = await this.call<Outcome[]>({ call: 'commit', ops: sent });
    for (let i = 0; i < out.length; i++) {
      const o = out[i]!;
      const op = ops[i]!;
      if (!isRefusal(o) && o.type !== 'delete' && op.kind !== 'delete') out[i] = { ...o, kv: { ...o.kv, value: op.value } };
    }
    return out;
  }
  compactBatch(from: number, to: number): Promise<void> {
    return this.call({ call: 'compactBatch', from, to });
  }
  setMeta(key: string, value: number): Promise<void> {
    return this.call({ call: 'setMeta', key, value });
  }
  checkpoint(): Promise<void> {
    return this.call({ call: 'checkpoint' });
  }
  async close(): Promise<void> {
    if (this.dead) return;
    this.closing = true;
    await this.call({ call: 'close' }).catch(() => {});
    this.worker.ref(); // until it has exited
    await this.worker.terminate();
  }
}
