// The running part the three endpoint controllers share: once the controller
// may list and watch its resource, its informer handlers are wired, the
// informers started and synced, and only then do keys (namespace/name of a
// Service or Endpoints) reach `sync`, one at a time, retried after `retryMs`
// when a sync answers false (a stale informer view) or throws (logged).
import { StartWhenAuthorized, type ControllerClient, type Target } from '../client.js';
import type { ControllerContext } from '../context.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';

export interface SyncLoopOptions {
  readonly ctx: ControllerContext;
  readonly client: ControllerClient;
  /** What the controller must be allowed to list and watch before it starts. */
  readonly target: Target;
  /** For log lines: "endpoint controller". */
  readonly label: string;
  readonly retryMs?: number;
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
  private readonly ready = new Promise<void>((r) => (this.markReady = r));

  constructor(private readonly opts: SyncLoopOptions) {
    this.queue = new WorkQueue(async (key) => {
      await this.ready;
      return opts.sync(key);
    }, {
      retryMs: opts.retryMs ?? 500,
      onError: (key, err) => console.error(`${opts.label}: syncing ${key}: ${(err as Error).message}`),
    });
    this.starter = new StartWhenAuthorized(opts.client, opts.target, opts.label, () => this.run());
  }

  readonly enqueue = (key: string): void => this.queue.add(key, key);

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
  }

  private async run(): Promise<void> {
    const informers = this.opts.wire(this.enqueue);
    await this.opts.ctx.informers.start();
    await Promise.all(informers.map((i) => i.waitForSync()));
    this.markReady();
    this.opts.synced?.(this.enqueue);
  }
}

/** namespace/name of an object. */
export const keyOf = (o: { metadata: { namespace?: string; name?: string } }): string => `${o.metadata.namespace}/${o.metadata.name}`;
