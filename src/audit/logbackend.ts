// The log backend (kube's plugin/pkg/audit/log): each event becomes one line,
// JSON (an audit.k8s.io/v1 Event) or `legacy` (kube's EventString), written to
// the rotating file or to stdout for `--audit-log-path=-`. Events are encoded
// when they arrive (the caller may keep changing its record), straight into
// the batch's bytes (bytebatch.ts). One write is under way at a time: the lines
// of one event-loop turn go out together, and while a write is under way the
// next batch collects in a second buffer and goes out when it ends. Everyone
// who handed events to a batch waits for its write and learns whether it
// succeeded. A failed write counts `apiserver_audit_error_total{plugin="log"}`
// per event and logs the events, as kube's HandlePluginError. A line longer
// than the file takes (maxsize) is refused on its own when it arrives, as
// kube's event-by-event writes fail it alone: the turn's other lines go out.
import type { Backend } from './backend.js';
import { ByteBatch } from './bytebatch.js';
import { eventJSON, eventString, DEFAULT_EVENT_VERSION } from './encode.js';
import { handlePluginError } from './metrics.js';
import type { AuditEvent } from './types.js';

export type LogFormat = 'json' | 'legacy';
export const LOG_FORMATS: readonly LogFormat[] = ['legacy', 'json'];

/** Where lines go: the rotating file, stdout, or a test's sink. */
export interface LineWriter {
  /**
   * Writes a batch of lines: their bytes and the offset where each ends. The
   * bytes stay unchanged until the returned promise settles (or the call
   * returns); one call at a time. Throws or rejects on failure.
   */
  writeChunk(bytes: Buffer, ends: readonly number[]): void | Promise<void>;
  /** The longest line (bytes, newline included) it takes; a longer one is refused alone (lumberjack's error). */
  readonly maxLine?: number;
  close?(): void;
}

export const stdoutWriter: LineWriter = {
  writeChunk(bytes) {
    return new Promise<void>((resolve, reject) => {
      process.stdout.write(bytes, (err) => (err ? reject(err) : resolve()));
    });
  },
};

export class LogBackend implements Backend {
  readonly name = 'log';
  /** The batch collecting events; `spare` is the one being written (or free). */
  private batch = new ByteBatch();
  private spare = new ByteBatch();
  private events: AuditEvent[] = [];
  private flushed: Promise<boolean> | undefined;
  private resolveFlush: ((ok: boolean) => void) | undefined;
  /** The write under way, if any. */
  private writing: Promise<unknown> | undefined;

  constructor(private readonly out: LineWriter, private readonly format: LogFormat = 'json', private readonly apiVersion: string = DEFAULT_EVENT_VERSION) {}

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    let refused: AuditEvent[] | undefined;
    const max = this.out.maxLine;
    for (const ev of events) {
      // one string per event into the batch (measured faster than piece by piece)
      const line = this.format === 'legacy' ? eventString(ev) : eventJSON(ev, this.apiVersion);
      // at most 3 bytes per character and the newline: measured only when that could pass the limit
      if (max !== undefined && line.length * 3 + 1 > max) {
        const n = Buffer.byteLength(line) + 1;
        if (n > max) {
          // kube writes event by event: a line too long for the file fails that event alone
          handlePluginError('log', new Error(`write length ${n} exceeds maximum file size ${max}`), [ev]);
          (refused ??= []).push(ev);
          continue;
        }
      }
      this.batch.put(line);
      this.batch.endLine();
      this.events.push(ev);
    }
    if (refused) {
      if (refused.length === events.length) return false;
      return this.enqueue().then(() => false);
    }
    return this.enqueue();
  }

  /** The promise of the batch collecting now, its write scheduled. */
  private enqueue(): Promise<boolean> {
    if (!this.flushed) {
      this.flushed = new Promise<boolean>((r) => (this.resolveFlush = r));
      // a write under way starts the next one when it ends
      if (!this.writing) setImmediate(() => this.flush());
    }
    return this.flushed;
  }

  private flush(): void {
    if (!this.flushed) return;
    const events = this.events;
    const resolve = this.resolveFlush!;
    const batch = this.batch;
    this.batch = this.spare;
    this.spare = batch;
    this.events = [];
    this.flushed = undefined;
    this.resolveFlush = undefined;
    const done = (ok: boolean, err?: unknown) => {
      if (!ok) handlePluginError('log', err, events);
      batch.reset();
      this.writing = undefined;
      resolve(ok);
      if (this.flushed) this.flush();
    };
    let r: void | Promise<void>;
    try {
      r = this.out.writeChunk(batch.bytes(), batch.ends);
    } catch (err) {
      return done(false, err);
    }
    if (r) this.writing = r.then(() => done(true), (err: unknown) => done(false, err));
    else done(true);
  }

  async shutdown(): Promise<void> {
    while (this.flushed || this.writing) {
      if (this.writing) await this.writing;
      else await this.flushed;
    }
    this.out.close?.();
  }
}
