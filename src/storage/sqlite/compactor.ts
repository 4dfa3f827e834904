// Compaction of the SQLite log, in bounded batches, plus the automatic
// compaction timer that keeps at least `retentionMs` of history and the WAL
// checkpoint that keeps the WAL file small.
//
// compact(R) first records R as the compacted revision (reads below it fail
// at once), then deletes superseded rows and tombstones in revision windows,
// one short transaction each, through the store's writer (writer.ts). The
// window adapts so a batch takes about `batchTargetMs`; writes queue between
// batches, so they interleave with a long compaction. Progress is stored, so
// a restart resumes an unfinished compaction.
import type { Statements } from './statements.js';
import type { LogWriter } from './writer.js';

export interface CompactionOptions {
  /** History kept by automatic compaction (default 5 minutes). 0 disables automatic compaction. */
  readonly retentionMs: number;
  /** How often the automatic compactor looks (default 60 s). */
  readonly intervalMs: number;
  /** Target duration of one compaction batch (default 25 ms; the limit is ~100 ms). */
  readonly batchTargetMs: number;
}

export const DEFAULT_COMPACTION: CompactionOptions = { retentionMs: 5 * 60_000, intervalMs: 60_000, batchTargetMs: 25 };

interface Deps extends Partial<CompactionOptions> {
  readonly currentRevision: () => number;
}

export interface BatchStat {
  readonly revisions: number;
  readonly ms: number;
}

export class Compactor {
  /** The compacted revision: reads and watches below it fail. */
  compacted: number;
  private done: number;
  private window = 500;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly samples: { at: number; rev: number }[] = [];
  private readonly opts: CompactionOptions;
  /** Durations of the most recent batches, for benchmarks and tests. */
  readonly recentBatches: BatchStat[] = [];

  constructor(private readonly writer: LogWriter, stmts: Statements, private readonly deps: Deps) {
    this.opts = {
      retentionMs: deps.retentionMs ?? DEFAULT_COMPACTION.retentionMs,
      intervalMs: deps.intervalMs ?? DEFAULT_COMPACTION.intervalMs,
      batchTargetMs: deps.batchTargetMs ?? DEFAULT_COMPACTION.batchTargetMs,
    };
    this.compacted = stmts.getMeta.get('compact_rev')?.value ?? 0;
    this.done = stmts.getMeta.get('compact_done')?.value ?? 0;
    if (this.done < this.compacted) this.running = this.sweep();
    if (this.opts.retentionMs > 0) {
      this.sample();
      this.timer = setInterval(() => this.tick(), this.opts.intervalMs);
      this.timer.unref();
    }
  }

  compact(revision: number): Promise<void> {
    let recorded: Promise<void> = Promise.resolve();
    if (revision > this.compacted) {
      this.compacted = revision;
      recorded = this.writer.setMeta('compact_rev', revision);
    }
    this.running = this.running.then(() => recorded).then(() => this.sweep());
    return this.running;
  }

  /** Stops the timer and further batches; resolves once the running batch is done. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stopped = true;
    await this.running.catch(() => {});
  }

  /** One automatic-compaction step: compact to the newest sample older than the retention. */
  private tick(): void {
    const now = this.sample();
    let target = 0;
    while (this.samples.length > 0 && this.samples[0]!.at <= now - this.opts.retentionMs) target = this.samples.shift()!.rev;
    if (target > this.compacted) {
      this.compact(target).catch((err) => console.error('storage: automatic compaction failed', err));
    }
    this.writer.checkpoint().catch((err: Error) => {
      if (!this.stopped) console.error('storage: WAL checkpoint failed', err);
    });
  }

  private sample(): number {
    const at = Date.now();
    this.samples.push({ at, rev: this.deps.currentRevision() });
    return at;
  }

  private async sweep(): Promise<void> {
    while (this.done < this.compacted && !this.stopped) {
      const from = this.done;
      const to = Math.min(this.compacted, from + this.window);
      const started = performance.now();
      await this.writer.compactBatch(from, to);
      const ms = performance.now() - started;
      this.done = to;
      this.recentBatches.push({ revisions: to - from, ms });
      if (this.recentBatches.length > 64) this.recentBatches.shift();
      // Keep batches near the target duration.
      if (ms > this.opts.batchTargetMs) this.window = Math.max(100, Math.floor(this.window / 2));
      else if (ms < this.opts.batchTargetMs / 4) this.window = Math.min(1_000_000, this.window * 2);
      await new Promise((r) => setImmediate(r)); // an inline writer answers at once: let the event loop run
    }
  }
}
