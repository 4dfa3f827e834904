// The `batch` mode (kube's plugin/pkg/audit/buffered): events go into a
// bounded buffer and the request goes on at once; a full buffer drops the
// event (apiserver_audit_error_total{plugin="buffered"} and a log line, "audit
// buffer queue blocked"). Batches of up to maxBatchSize leave when full or
// maxBatchWait after the previous one, at most throttleQPS per second (burst
// throttleBurst) when the throttle is on; with asyncDelegate (the webhook) a
// batch does not wait for the previous one to be delivered. Shutdown sends
// what is left.
import type { Backend } from './backend.js';
import { handlePluginError } from './metrics.js';
import type { AuditEvent } from './types.js';

export interface BatchConfig {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  readonly throttleEnable: boolean;
  readonly throttleQPS: number;
  readonly throttleBurst: number;
  readonly asyncDelegate: boolean;
}

export class BufferedBackend implements Backend {
  readonly name: string;
  private buffer: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending = false;
  private stopped = false;
  private lastSend: number;
  private tokens: number;
  private lastRefill: number;
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly delegate: Backend, private readonly c: BatchConfig, private readonly now: () => number = Date.now) {
    this.name = `buffered<${delegate.name}>`;
    this.lastSend = now();
    this.lastRefill = this.lastSend;
    this.tokens = c.throttleBurst;
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    for (let i = 0; i < events.length; i++) {
      if (this.stopped || this.buffer.length >= this.c.bufferSize) {
        handlePluginError('buffered', new Error(this.stopped ? 'audit backend shut down' : 'audit buffer queue blocked'), events.slice(i));
        return true;
      }
      this.buffer.push(events[i]!);
    }
    this.schedule();
    return true;
  }

  /** Arms the next send: at once when a batch is full, else when maxBatchWait since the last send has passed. */
  private schedule(): void {
    if (this.sending || this.timer || this.buffer.length === 0) return;
    const full = this.buffer.length >= this.c.maxBatchSize;
    const wait = full ? 0 : Math.max(0, this.lastSend + this.c.maxBatchWaitMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.send();
    }, wait);
  }

  /** Milliseconds until a throttle token is available (0: take one now). */
  private throttleWait(): number {
    if (!this.c.throttleEnable) return 0;
    const t = this.now();
    this.tokens = Math.min(this.c.throttleBurst, this.tokens + ((t - this.lastRefill) / 1000) * this.c.throttleQPS);
    this.lastRefill = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.c.throttleQPS) * 1000);
  }

  /**
   * Sends a batch, and at once every further full batch (Go's loop sends them
   * one after another without waiting for a timer); a partial batch waits for
   * maxBatchWait. Without asyncDelegate the next round waits for these
   * deliveries (the log backend writes the batches of one turn together).
   */
  private async send(): Promise<void> {
    if (this.sending || this.buffer.length === 0) return;
    this.sending = true;
    try {
      const sent: Promise<boolean>[] = [];
      do {
        for (let w = this.throttleWait(); w > 0 && !this.stopped; w = this.throttleWait()) await new Promise((r) => setTimeout(r, w));
        const batch = this.buffer.splice(0, this.c.maxBatchSize);
        if (batch.length === 0) break;
        this.lastSend = this.now();
        const p = Promise.resolve(this.delegate.processEvents(batch)).catch(() => false);
        if (this.c.asyncDelegate) {
          this.inflight.add(p);
          void p.finally(() => this.inflight.delete(p));
        } else sent.push(p);
      } while (this.buffer.length >= this.c.maxBatchSize);
      await Promise.all(sent);
    } finally {
      this.sending = false;
      this.schedule();
    }
  }

  run(): void {
    this.delegate.run?.();
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.sending) await new Promise((r) => setImmediate(r));
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.c.maxBatchSize);
      await Promise.resolve(this.delegate.processEvents(batch)).catch(() => false);
    }
    await Promise.all(this.inflight);
    await this.delegate.shutdown();
  }
}
