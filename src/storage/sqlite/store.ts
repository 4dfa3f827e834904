// The embedded SQLite backend (better-sqlite3).
//
// Writes are queued and committed together: the writes that arrive while the
// previous batch is being committed join one transaction (group commit), and
// every transaction committed while an fsync runs is acknowledged by the next
// one, so one fsync covers many writes and durable throughput grows with
// concurrency. Each write still gets its own revision (row id). One batch is
// committed at a time, by a LogWriter (writer.ts): on a file, a batch of large
// values goes to the writer thread and its own connection, so the inserts and
// page writes leave the event loop; a batch of small values commits on this
// thread's connection, where that costs less than the trip. better-sqlite3 is
// synchronous, so reads see a consistent snapshot without explicit read
// transactions.
//
// Durability without blocking the event loop: with synchronous 'FULL' the
// connection runs at SQLite's NORMAL (the write-ahead log is synced at
// checkpoints, never torn) and the store itself fsyncs the log file on
// libuv's thread pool after each commit. A write is acknowledged — its
// promise settled, the watch hub notified, `currentRevision` advanced — only
// once an fsync that started after its commit has finished; reads are served
// at that acknowledged revision, so nobody sees a write that a power loss
// could still take back. Commits go on while an fsync runs and share the next.
//
//   enqueue ─► flush: COMMIT (no fsync; here or on the writer thread) ─► unsynced ─► fsync(wal) ─► settle: resolve · rev · hub.notify
import Database from 'better-sqlite3';
import { closeSync, fsync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DeleteResult, GetOptions, KeyValue, RangeOptions, RangeResult, Store, WatchEvent, WatchHandle, WatchOptions, WatchSink, WriteOptions } from '../interface.js';
import { StorageError } from '../errors.js';
import { checkKey, checkValueSize, prefixEnd } from '../limits.js';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';
import { prepare, type Statements } from './statements.js';
import { toKeyValue } from './rows.js';
import { WatchHub } from './watchers.js';
import { Compactor, type CompactionOptions } from './compactor.js';
import { configureWriting, InlineWriter, isRefusal, refusalError, ThreadWriter, type LogWriter, type WriteOp } from './writer.js';

export interface SqliteOptions {
  /** Database file, or ':memory:' for a store that lives as long as the process. */
  readonly path: string;
  /** 'FULL' (default) makes every acknowledged write durable; 'NORMAL' may lose the last writes on power loss. */
  readonly synchronous?: 'FULL' | 'NORMAL' | 'OFF';
  /** Most writes committed in one transaction. */
  readonly maxBatch?: number;
  readonly compaction?: Partial<CompactionOptions>;
  /** How the store syncs its write-ahead log (node:fs fsync; tests hold or fail it). */
  readonly syncLog?: (fd: number, done: (err: Error | null) => void) => void;
  /**
   * On a file: a batch whose values average at most this many bytes commits on the event loop's own
   * connection (cheaper there than a trip to the writer thread); larger ones go to the writer thread.
   * Default 4096; 0 sends every batch to the thread.
   */
  readonly inlineValueBytes?: number;
}

interface Pending {
  readonly op: WriteOp;
  resolve(e: WatchEvent): void;
  reject(err: Error): void;
}

/** A committed batch and each write's outcome, waiting to be acknowledged. */
interface Committed {
  readonly batch: Pending[];
  readonly results: (WatchEvent | StorageError)[];
}

export class SqliteStore implements Store {
  readonly backend = 'sqlite';
  /** The connection reads run on (on a file; in memory the only one, the writer's too). */
  private readonly db: Database.Database;
  private readonly stmts: Statements;
  private readonly writer: LogWriter;
  /** On a file: the same transactions on the event loop's connection, for batches of small values. */
  private readonly inline: InlineWriter | undefined;
  private readonly inlineValueBytes: number;
  /** A file's ownership lock: held until close, so a second server on the data directory fails at open. */
  private readonly lock: Database.Database | undefined;
  private readonly hub: WatchHub;
  private readonly compactor: Compactor;
  private readonly maxBatch: number;
  private queue: Pending[] = [];
  private flushScheduled = false;
  /** A batch is with the writer; the next one waits (and grows) until it is back. */
  private committing = false;
  /** The write-ahead log's descriptor when the store fsyncs it itself (synchronous 'FULL' on a file). */
  private readonly walFd: number | undefined;
  private readonly syncLog: NonNullable<SqliteOptions['syncLog']>;
  /** Batches committed since the running fsync started (acknowledged by the next one). */
  private unsynced: Committed[] = [];
  private syncing = false;
  private drained: (() => void)[] = [];
  /** The last acknowledged revision: reads, watches and compaction see nothing newer. */
  private rev: number;
  private readonly remainingCache = new Map<string, number>();
  private closed = false;
  private released = false;
  /** Set when the store stopped (a failed fsync, a dead writer thread): nothing after it is acknowledged. */
  private failure: StorageError | undefined;

  private constructor(db: Database.Database, opts: SqliteOptions, parts: { walFd: number | undefined; lock: Database.Database | undefined; writer: LogWriter }) {
    this.db = db;
    this.walFd = parts.walFd;
    this.lock = parts.lock;
    this.writer = parts.writer;
    this.inline = parts.writer instanceof ThreadWriter ? new InlineWriter(db) : undefined;
    this.inlineValueBytes = opts.inlineValueBytes ?? 4096;
    this.syncLog = opts.syncLog ?? fsync;
    this.stmts = prepare(db);
    this.maxBatch = opts.maxBatch ?? 1024;
    this.rev = this.stmts.seq.get()?.seq ?? 0;
    this.compactor = new Compactor(this.writer, this.stmts, { ...opts.compaction, currentRevision: () => this.rev });
    this.hub = new WatchHub({ stmts: () => this.stmts, currentRevision: () => this.rev, compactedRevision: () => this.compactor.compacted });
    this.writer.onDeath = (err) => this.stop(`the SQLite writer stopped (${err.message})`, StorageError.unavailable(`the SQLite writer stopped: ${err.message}`, err));
  }

  /**
   * Opens (creating if needed) the store; a file that cannot be opened fails
   * with a message naming the cause. A file gets a writer thread with its own
   * connection for batches of large values; reads and the other batches stay
   * on this thread's connection.
   */
  static open(opts: SqliteOptions): SqliteStore {
    let db: Database.Database | undefined;
    let lock: Database.Database | undefined;
    let walFd: number | undefined;
    const memory = opts.path === ':memory:';
    try {
      if (!memory) {
        mkdirSync(dirname(opts.path), { recursive: true });
        lock = ownershipLock(opts.path);
      }
      db = new Database(opts.path, { timeout: 5000 });
      if (!memory) {
        const mode = db.pragma('journal_mode = WAL', { simple: true });
        if (mode !== 'wal') throw new Error(`could not enable WAL mode (got ${String(mode)})`);
      }
      const synchronous = opts.synchronous ?? 'FULL';
      const ownSync = synchronous === 'FULL' && !memory;
      // This connection commits small batches too (see inlineValueBytes): set up as the writer thread's is.
      configureWriting(db, ownSync ? 'NORMAL' : synchronous);
      db.exec(SCHEMA);
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version === 0) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      else if (version !== SCHEMA_VERSION) throw new Error(`schema version ${version} is not supported (expected ${SCHEMA_VERSION})`);
      if (ownSync) walFd = openLog(opts.path);
      const writer = memory ? new InlineWriter(db) : new ThreadWriter({ path: opts.path, synchronous: ownSync ? 'NORMAL' : synchronous });
      return new SqliteStore(db, opts, { walFd, lock, writer });
    } catch (err) {
      if (walFd !== undefined) closeSync(walFd);
      db?.close();
      lock?.close();
      const msg = (err as Error).message;
      const hint = /locked|busy/i.test(msg) ? ' (is another server using this data directory?)' : '';
      throw new Error(`cannot open SQLite store at ${opts.path}: ${msg}${hint}`, { cause: err });
    }
  }

  async get(key: string, opts: GetOptions = {}): Promise<KeyValue | null> {
    this.checkOpen();
    const rev = this.readRevision(opts.revision);
    // At the acknowledged revision: rows committed after it still wait for their fsync.
    const row = this.stmts.atRevision.get(key, rev);
    return row && !row.deleted ? toKeyValue(row) : null;
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    this.checkOpen();
    const rev = this.readRevision(opts.revision);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const after = opts.startAfter !== undefined && opts.startAfter >= prefix;
    const params = { lo: after ? opts.startAfter : prefix, end: prefixEnd(prefix), rev, limit: limit === 0 ? -1 : limit + 1 };
    const rows = (after ? this.stmts.rangeAfter : this.stmts.rangeFrom).all(params);
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    const items = rows.map(toKeyValue);
    const remaining = more ? this.remainingAfter(prefix, rev, opts.startAfter, items) : 0;
    return { items, revision: rev, more, remaining };
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    checkKey(key);
    checkValueSize(key, value);
    return this.enqueue({ kind: 'create', key, value }).then((e) => (e as { kv: KeyValue }).kv);
  }

  async update(key: string, value: Uint8Array, opts: WriteOptions = {}): Promise<KeyValue> {
    checkKey(key);
    checkValueSize(key, value);
    return this.enqueue({ kind: 'update', key, value, expected: opts.expectedModRevision }).then((e) => (e as { kv: KeyValue }).kv);
  }

  async delete(key: string, opts: WriteOptions = {}): Promise<DeleteResult> {
    checkKey(key);
    return this.enqueue({ kind: 'delete', key, expected: opts.expectedModRevision }).then((e) => ({ revision: e.revision, prev: (e as { prev: KeyValue }).prev }));
  }

  async watch(opts: WatchOptions, sink: WatchSink): Promise<WatchHandle> {
    this.checkOpen();
    const compacted = this.compactor.compacted;
    if (opts.fromRevision < compacted) throw StorageError.compacted(opts.fromRevision, compacted);
    return this.hub.add(opts.prefix, opts.fromRevision, sink);
  }

  async compact(revision: number): Promise<void> {
    this.checkOpen();
    if (revision > this.rev) throw StorageError.futureRevision(revision, this.rev);
    await this.compactor.compact(revision);
  }

  async currentRevision(): Promise<number> {
    this.checkOpen();
    return this.rev;
  }

  async compactedRevision(): Promise<number> {
    return this.compactor.compacted;
  }

  /** Truncates the WAL file (also done by the compactor's timer). */
  checkpoint(): Promise<void> {
    return this.writer.checkpoint();
  }

  get watcherCount(): number {
    return this.hub.size;
  }

  async close(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (!this.closed) this.flush();
    this.closed = true; // new writes are refused; the queued ones still commit and sync
    await this.idle();
    await this.compactor.stop();
    this.hub.failAll(StorageError.unavailable('the store was closed'));
    await this.writer.close();
    if (this.walFd !== undefined) closeSync(this.walFd);
    this.db.close();
    this.lock?.close();
  }

  // --- reads ---------------------------------------------------------------

  private readRevision(requested: number | undefined): number {
    if (requested === undefined || requested === 0) return this.rev;
    if (requested > this.rev) throw StorageError.futureRevision(requested, this.rev);
    if (requested < this.compactor.compacted) throw StorageError.compacted(requested, this.compactor.compacted);
    return requested;
  }

  /**
   * Keys left after a page. A snapshot never changes, so the count of the
   * previous page of the same paged range (same prefix, revision and start)
   * gives this one without another scan: one count per paged list, not per page.
   */
  private remainingAfter(prefix: string, rev: number, startAfter: string | undefined, items: KeyValue[]): number {
    const last = items[items.length - 1]!.key;
    const before = startAfter === undefined ? undefined : this.remainingCache.get(`${rev}\0${prefix}\0${startAfter}`);
    const n = before !== undefined ? before - items.length : this.stmts.countAfter.get({ lo: last, end: prefixEnd(prefix), rev })!.n;
    if (startAfter !== undefined) this.remainingCache.delete(`${rev}\0${prefix}\0${startAfter}`);
    this.remainingCache.set(`${rev}\0${prefix}\0${last}`, n);
    if (this.remainingCache.size > 1024) this.remainingCache.delete(this.remainingCache.keys().next().value!);
    return n;
  }

  private checkOpen(): void {
    if (this.closed) throw StorageError.unavailable('the store is closed');
  }

  // --- writes: group commit ------------------------------------------------

  private enqueue(op: WriteOp): Promise<WatchEvent> {
    if (this.closed) return Promise.reject(StorageError.unavailable('the store is closed'));
    return new Promise<WatchEvent>((resolve, reject) => {
      this.queue.push({ op, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Sends the queued writes to the writer as one batch, unless a batch is there already (its return sends the next). */
  private flush(): void {
    this.flushScheduled = false;
    if (this.committing || this.queue.length === 0) return;
    const batch = this.queue.length > this.maxBatch ? this.queue.splice(0, this.maxBatch) : this.queue.splice(0);
    this.committing = true;
    const ops = batch.map((p) => p.op);
    const next = () => {
      this.committing = false;
      this.flush();
      this.checkIdle();
    };
    this.writerFor(ops).commit(ops).then(
      (outcomes) => {
        this.committed(batch, outcomes.map((o) => (isRefusal(o) ? refusalError(o) : o)));
        next();
      },
      (err: Error) => {
        const failure = this.failure ?? StorageError.unavailable(`commit failed: ${err.message}`, err);
        for (const p of batch) p.reject(failure);
        next();
      },
    );
  }

  /** The writer thread, or this thread's connection when the batch's values are small on average. */
  private writerFor(ops: readonly WriteOp[]): LogWriter {
    if (this.inline === undefined) return this.writer;
    let bytes = 0;
    for (const op of ops) if (op.kind !== 'delete') bytes += op.value.byteLength;
    return bytes <= this.inlineValueBytes * ops.length ? this.inline : this.writer;
  }

  /** A batch is in the log: acknowledged now (no own sync) or by the next fsync. */
  private committed(batch: Pending[], results: (WatchEvent | StorageError)[]): void {
    if (this.failure) {
      for (const p of batch) p.reject(this.failure);
      return;
    }
    if (this.walFd === undefined) this.settle([{ batch, results }]);
    else {
      this.unsynced.push({ batch, results });
      this.sync();
    }
  }

  /** Resolves once nothing is queued, committing or waiting for a sync. */
  private idle(): Promise<void> {
    return new Promise<void>((r) => {
      this.drained.push(r);
      this.checkIdle();
    });
  }

  private checkIdle(): void {
    if (this.committing || this.syncing || this.queue.length > 0 || this.unsynced.length > 0) return;
    for (const r of this.drained.splice(0)) r();
  }

  /** Starts an fsync of the log covering every batch committed so far, unless one runs (then the next covers them). */
  private sync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    this.syncing = true;
    const covered = this.unsynced;
    this.unsynced = [];
    this.syncLog(this.walFd!, (err) => {
      this.syncing = false;
      if (err) this.fail(covered, err);
      else this.settle(covered);
      if (this.unsynced.length > 0) this.sync();
      else this.checkIdle();
    });
  }

  /** Acknowledges durable batches: each write's outcome, the new revision, one notification of their events. */
  private settle(committed: readonly Committed[]): void {
    const events: WatchEvent[] = [];
    for (const { batch, results } of committed) {
      for (let i = 0; i < batch.length; i++) {
        const r = results[i]!;
        if (r instanceof StorageError) batch[i]!.reject(r);
        else {
          events.push(r);
          batch[i]!.resolve(r);
        }
      }
    }
    if (events.length > 0) this.rev = events[events.length - 1]!.revision;
    this.hub.notify(events);
  }

  /**
   * An fsync failed: whether those writes are on disk is unknown (and a retry
   * would not tell — the kernel may have dropped the dirty pages), so the
   * store stops: the covered and later writes fail, and so does every
   * request after; a restart recovers from what the disk holds.
   */
  private fail(covered: Committed[], err: Error): void {
    const failure = StorageError.unavailable(`the write-ahead log could not be synced: ${err.message}`, err);
    for (const { batch } of covered) for (const p of batch) p.reject(failure);
    this.stop(`fsync of the SQLite write-ahead log failed (${err.message})`, failure);
  }

  /** The store cannot go on (a failed fsync, a dead writer): every pending and later request fails with `failure`. */
  private stop(why: string, failure: StorageError): void {
    if (this.failure) return;
    console.error(`svc: ${why}; the store stops accepting requests`);
    this.failure = failure;
    for (const { batch } of this.unsynced.splice(0)) for (const p of batch) p.reject(failure);
    for (const p of this.queue.splice(0)) p.reject(failure);
    this.closed = true;
    this.hub.failAll(failure);
    this.checkIdle();
  }
}

/**
 * Opens the write-ahead log the store fsyncs (SQLite keeps the same file,
 * truncating it in place, while it holds the exclusive lock) and syncs the
 * directory once, so that the log file itself survives a power loss.
 */
function openLog(path: string): number {
  const fd = openSync(`${path}-wal`, 'r+');
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return fd;
}

/**
 * Takes the data directory's ownership lock: a small database beside the
 * store held in exclusive locking mode until close, so a second server (this
 * process or another) fails to open the same file with "database is locked".
 */
function ownershipLock(path: string): Database.Database {
  const lock = new Database(`${path}.lock`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.pragma('journal_mode = OFF'); // its content does not matter: no journal file beside it
    lock.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER); BEGIN EXCLUSIVE; DELETE FROM owner; INSERT INTO owner VALUES (' + process.pid + '); COMMIT');
    return lock;
  } catch (err) {
    lock.close();
    throw err;
  }
}
