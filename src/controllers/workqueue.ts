// The work queue the controllers share: keys handled in the order they were
// added, one at a time or by `workers` at once but never one key twice at
// once (adding a queued key again keeps its place), and a
// key whose sync did not finish — it answered false or threw — added again
// after `retryMs`, at most one retry pending per key.

export interface WorkQueueOptions {
  readonly retryMs: number;
  /** Reports a failed sync (the key is retried). */
  readonly onError: (key: string, err: unknown) => void;
  /** How many keys sync at once (kube's --concurrent-*-syncs; default 1). A key never syncs twice at once. */
  readonly workers?: number;
}

export class WorkQueue<T> {
  private readonly items = new Map<string, T>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Keys whose sync is running; one added again meanwhile waits in `items` until it ends. */
  private readonly processing = new Set<string>();
  private stopped_ = false;

  /** `sync` handles one item; true when nothing is left to do for it. */
  constructor(private readonly sync: (item: T, key: string) => Promise<boolean>, private readonly opts: WorkQueueOptions) {}

  get stopped(): boolean {
    return this.stopped_;
  }

  add(key: string, item: T): void {
    if (this.stopped_) return;
    this.items.set(key, item);
    this.pump();
  }

  /** No more syncs start; pending retries are dropped. */
  stop(): void {
    this.stopped_ = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Starts syncs while workers are free, in the order keys were added, skipping keys already syncing. */
  private pump(): void {
    const workers = Math.max(1, this.opts.workers ?? 1);
    while (!this.stopped_ && this.processing.size < workers) {
      let next: [string, T] | undefined;
      for (const entry of this.items) {
        if (!this.processing.has(entry[0])) {
          next = entry;
          break;
        }
      }
      if (!next) return;
      const [key, item] = next;
      this.items.delete(key);
      this.processing.add(key);
      void this.run(key, item);
    }
  }

  private async run(key: string, item: T): Promise<void> {
    let done = false;
    try {
      done = await this.sync(item, key);
    } catch (err) {
      this.opts.onError(key, err);
    }
    this.processing.delete(key);
    if (!done && !this.timers.has(key) && !this.stopped_) {
      this.timers.set(key, setTimeout(() => {
        this.timers.delete(key);
        this.add(key, item);
      }, this.opts.retryMs).unref());
    }
    this.pump();
  }
}
