// Unsent watch output, per watch and for all watches of a server: the
// bound on what slow watch clients can make the server buffer. A watch past
// its own cap is closed; when all of them together pass the server's cap,
// the watches with the most unsent output (the slowest, the oldest among
// equals) are closed until the total is under it again — as Kubernetes
// terminates unresponsive watchers. Closing drops what was unsent (ending the
// response cleanly would keep it until sent); clients resume from their last
// resourceVersion.

/** One watch as the budget sees it. */
export interface BudgetedWatch {
  /** Unsent bytes when last counted. */
  buffered: number;
  /** For the log line. */
  readonly name: string;
  /** Closes the watch, dropping its unsent output. */
  close(): void;
}

/**
 * Unsent watch output, per watch and for all watches of a server. A watch
 * past `perWatch` is closed; when all of them pass `total`, the watches with
 * the most unsent output (the slowest; the oldest among equals) are closed
 * until the total is under the cap again.
 */
export class WatchBudget {
  private sum = 0;
  private readonly watches = new Set<BudgetedWatch>();

  constructor(
    readonly perWatch: number,
    readonly total: number,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  get buffered(): number {
    return this.sum;
  }

  get size(): number {
    return this.watches.size;
  }

  add(w: BudgetedWatch): void {
    this.watches.add(w);
  }

  remove(w: BudgetedWatch): void {
    if (!this.watches.delete(w)) return;
    this.sum -= w.buffered;
    w.buffered = 0;
  }

  /** Records a watch's unsent bytes, closing watches as the caps require. */
  update(w: BudgetedWatch, buffered: number): void {
    if (!this.watches.has(w)) return;
    this.sum += buffered - w.buffered;
    w.buffered = buffered;
    if (buffered > this.perWatch) this.shed(w, `over the cap of ${mib(this.perWatch)} for one watch`);
    while (this.sum > this.total) {
      let slowest: BudgetedWatch | undefined;
      for (const x of this.watches) if (!slowest || x.buffered > slowest.buffered) slowest = x; // a Set iterates oldest first
      if (!slowest || slowest.buffered === 0) break;
      this.shed(slowest, `all watches have ${mib(this.sum)} unsent, over the cap of ${mib(this.total)}; the slowest are closed first`);
    }
  }

  private shed(w: BudgetedWatch, why: string): void {
    this.log(`svc: closing the watch ${w.name} as unresponsive: ${mib(w.buffered)} of events unsent (${why}); its client resumes from its last resourceVersion`);
    this.remove(w);
    w.close();
  }
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
