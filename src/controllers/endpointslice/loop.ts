// The running part the three endpoint controllers share: once the controller
// may list and watch its resource, its informer handlers are wired, the
// informers started and synced, and only then do keys (namespace/name of a
// Service or Endpoints) reach `sync`, one at a time. A sync that answers false
// (a stale informer view, pods left out) or throws (logged) is retried with
// kube's per-item exponential backoff — `retryMs`, doubling up to
// `maxBackoffMs` — and dropped after MAX_RETRIES; events add the key at once
// whatever its backoff, and a sync that succeeds forgets its failures.
import { StartWhenAuthorized, type ControllerClient, type Target } from '../client.js';
import type { ControllerContext } from '../context.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';

/** kube's maxRetries in the endpoint controllers. */
export const MAX_RETRIES = 15;

export interface SyncLoopOptions {
  readonly ctx: ControllerContext;
  readonly client: ControllerClient;
  /** What the controller must be allowed to list and watch before it starts. */
  readonly target: Target;
  /** For log lines: "endpoint controller". */
  readonly label: string;
  /** The first retry's delay (default 500 ms; kube's endpointslice controller: 1 s). */
  readonly retryMs?: number;
  /** The longest delay (default 1000 s, as kube's). */
  readonly maxBackoffMs?: number;
  readonly sync: (key: string) => Promise<boolean>;
  /** Adds the informer handlers (they call `enqueue`); answers the informers to wait for. */
  readonly wire: (enqueue: (key: string) => void) => readonly SharedInformer[];
  /** After the first sync of every informer (kube's checkLeftoverEndpoints). */
  readonly synced?: (enqueue: (key: string) => void) => void;
}

export class SyncLoop {
  private readonly queue: WorkQueue<string>;
  private readonly starter: StartWhenAuthorized;
  private markReady!: () => void;
  private isReady = false;
  private readonly ready = new Promise<void>((r) => (this.markReady = r));

  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly opts: SyncLoopOptions) {
    this.queue = new WorkQueue(async (key) => {
      await this.ready;
      let done = false;
      try {
        done = await opts.sync(key);
      } catch (err) {
        console.error(`${opts.label}: syncing ${key}: ${(err as Error).message}`);
      }
      if (done) this.failures.delete(key);
      else this.retryLater(key);
      return true;
    }, { retryMs: opts.retryMs ?? 500, onError: () => {} });
    this.starter = new StartWhenAuthorized(opts.client, opts.target, opts.label, () => this.run());
  }

  private retryLater(key: string): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    if (n > MAX_RETRIES) {
      console.error(`${this.opts.label}: dropping ${key} out of the queue after ${MAX_RETRIES} retries`);
      this.failures.delete(key);
      return;
    }
    this.failures.set(key, n);
    if (this.timers.has(key)) return;
    const delay = Math.min((this.opts.retryMs ?? 500) * 2 ** (n - 1), this.opts.maxBackoffMs ?? 1_000_000);
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.enqueue(key);
    }, delay).unref());
  }

  readonly enqueue = (key: string): void => this.queue.add(key, key);

  /** Whether every informer has delivered its first list (and every key then known is queued). */
  get synced(): boolean {
    return this.isReady;
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async run(): Promise<void> {
    const informers = this.opts.wire(this.enqueue);
    await this.opts.ctx.informers.start();
    await Promise.all(informers.map((i) => i.waitForSync()));
    this.isReady = true;
    this.markReady();
    this.opts.synced?.(this.enqueue);
  }
}

/** namespace/name of an object. */
export const keyOf = (o: { metadata: { namespace?: string; name?: string } }): string => `${o.metadata.namespace}/${o.metadata.name}`;
