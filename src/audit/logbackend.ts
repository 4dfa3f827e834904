// The log backend (kube's plugin/pkg/audit/log): each event becomes one line,
// JSON (an audit.k8s.io/v1 Event) or `legacy` (kube's EventString), written to
// the rotating file or to stdout for `--audit-log-path=-`. Events are encoded
// when they arrive (the caller may keep changing its record), straight into
// the batch's bytes (bytebatch.ts). One write is under way at a time: the lines
// of one event-loop turn go out together, and while a write is under way the
// next batch collects in a second buffer and goes out when it ends. Everyone
// who handed events to a batch waits for its write and learns whether it
// succeeded. A failed write counts `apiserver_audit_error_total{plugin="log"}`
// per event and logs the events, as kube's HandlePluginError.
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

  processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    for (const ev of events) {
      // one string per event, then its UTF-8 bytes into the batch (measured faster than piece by piece)
      this.batch.put(this.format === 'legacy' ? eventString(ev) : eventJSON(ev, this.apiVersion));
      this.batch.endLine();
      this.events.push(ev);
    }
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
