// The work queue the controllers share: keys handled one at a time in the
// order they were added (adding a queued key again keeps its place), and a
// key whose sync did not finish — it answered false or threw — added again
// after `retryMs`, at most one retry pending per key.

export interface WorkQueueOptions {
  readonly retryMs: number;
  /** Reports a failed sync (the key is retried). */
  readonly onError: (key: string, err: unknown) => void;
}

export class WorkQueue<T> {
  private readonly items = new Map<string, T>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private running = false;
  private stopped_ = false;

  /** `sync` handles one item; true when nothing is left to do for it. */
  constructor(private readonly sync: (item: T, key: string) => Promise<boolean>, private readonly opts: WorkQueueOptions) {}

  get stopped(): boolean {
    return this.stopped_;
  }

  add(key: string, item: T): void {
    this.items.set(key, item);
    void this.drain();
  }

  /** No more syncs start; pending retries are dropped. */
  stop(): void {
    this.stopped_ = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.items.size > 0 && !this.stopped_) {
        const [key, item] = this.items.entries().next().value!;
        this.items.delete(key);
        let done = false;
        try {
          done = await this.sync(item, key);
        } catch (err) {
          this.opts.onError(key, err);
        }
        if (!done && !this.timers.has(key) && !this.stopped_) {
          this.timers.set(key, setTimeout(() => {
            this.timers.delete(key);
            this.add(key, item);
          }, this.opts.retryMs).unref());
        }
      }
    } finally {
      this.running = false;
    }
  }
}
