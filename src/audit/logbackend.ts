// The log backend (kube's plugin/pkg/audit/log): each event becomes one line,
// JSON (an audit.k8s.io/v1 Event) or `legacy` (kube's EventString), written to
// the rotating file or to stdout for `--audit-log-path=-`. Events are encoded
// when they arrive (the caller may keep changing its record), straight into
// the batch's bytes (bytebatch.ts), and the lines of one event-loop turn are written together
// in one write; everyone who handed events in that turn waits for that write
// and learns whether it succeeded. A failed write counts
// `apiserver_audit_error_total{plugin="log"}` per event and logs the events, as
// kube's HandlePluginError.
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
   * bytes are valid during the call only (an asynchronous writer copies them).
   * Throws or rejects on failure.
   */
  writeChunk(bytes: Buffer, ends: readonly number[]): void | Promise<void>;
  close?(): void;
}

export const stdoutWriter: LineWriter = {
  writeChunk(bytes) {
    const copy = Buffer.from(bytes);
    return new Promise<void>((resolve, reject) => {
      process.stdout.write(copy, (err) => (err ? reject(err) : resolve()));
    });
  },
};

export class LogBackend implements Backend {
  readonly name = 'log';
  private readonly batch = new ByteBatch();
  private events: AuditEvent[] = [];
  private flushed: Promise<boolean> | undefined;
  private resolveFlush: ((ok: boolean) => void) | undefined;
  private writing: Promise<unknown> = Promise.resolve();

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
      setImmediate(() => this.flush());
    }
    return this.flushed;
  }

  private flush(): void {
    const events = this.events;
    const resolve = this.resolveFlush!;
    this.events = [];
    this.flushed = undefined;
    this.resolveFlush = undefined;
    const fail = (err: unknown) => {
      handlePluginError('log', err, events);
      resolve(false);
    };
    try {
      const r = this.out.writeChunk(this.batch.bytes(), this.batch.ends);
      if (r) this.writing = r.then(() => resolve(true), fail);
      else resolve(true);
    } catch (err) {
      fail(err);
    } finally {
      this.batch.reset();
    }
  }

  async shutdown(): Promise<void> {
    if (this.flushed) await this.flushed;
    await this.writing;
    this.out.close?.();
  }
}
