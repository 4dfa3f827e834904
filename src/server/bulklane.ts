// Turns for bulk work on the one event loop. A list of thousands of objects,
// or a watch's initial events, is written in pieces of about 64 KiB; between
// pieces its writer asks the lane for a turn. The lane hands out one turn per
// turn of the event loop, in the loop's check phase (setImmediate), so
// between any two pieces of bulk work the loop polls for I/O and runs what
// arrived — a small get waits for about one piece, not for every list that
// is being written. Writers wait in the order they asked (round-robin over
// the bodies being written); a writer alone may go on without waiting for
// up to `budgetMs` after its turn began. API Priority and Fairness bounds how
// many bodies are written at once; the lane bounds how long they hold the
// loop at a time.

export interface LaneClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Runs `fn` once the loop has polled for I/O (setImmediate). */
  defer(fn: () => void): void;
}

const realClock: LaneClock = { now: () => performance.now(), defer: (fn) => setImmediate(fn) };

/** How long a writer alone may go on before it lets the loop turn. */
export const BULK_SLICE_MS = 1;

export class BulkLane {
  private sliceStart = Number.NEGATIVE_INFINITY;
  private waiting: (() => void)[] = [];
  private scheduled = false;

  constructor(
    private readonly budgetMs = BULK_SLICE_MS,
    private readonly clock: LaneClock = realClock,
  ) {}

  /**
   * A writer asks to do its next piece: undefined when it may go on now (no
   * one waits and its slice is not used up); otherwise a promise resolved at
   * its turn (await it before doing more).
   */
  turn(): Promise<void> | undefined {
    if (this.waiting.length === 0 && this.clock.now() - this.sliceStart < this.budgetMs) return undefined;
    return new Promise<void>((resume) => {
      this.waiting.push(resume);
      this.schedule();
    });
  }

  /** How many writers wait for a turn. */
  get waiters(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.clock.defer(() => {
      this.scheduled = false;
      const next = this.waiting.shift();
      if (!next) return;
      this.sliceStart = this.clock.now();
      if (this.waiting.length > 0) this.schedule(); // the next writer's turn comes once the loop has turned again
      next();
    });
  }
}

/** The server's lane: one event loop, one lane. */
export const bulkLane = new BulkLane();
