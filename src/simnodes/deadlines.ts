// Deadlines for many keys behind one timer: a min-heap of (time, key) with
// the latest time per key in a map (an entry whose time is no longer the
// key's is skipped when it surfaces). Thousands of pods waiting to complete
// or to be retried cost one pending setTimeout.
import type { Clock } from './clock.js';

interface Entry {
  readonly at: number;
  readonly key: string;
}

export class Deadlines {
  private readonly heap: Entry[] = [];
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private stopped = false;

  /** `onDue` gets the keys whose time has come, in time order. */
  constructor(private readonly clock: Clock, private readonly onDue: (keys: string[]) => void) {}

  /** Sets (or moves) the key's deadline. */
  set(key: string, at: number): void {
    if (this.stopped) return;
    this.due.set(key, at);
    this.push({ at, key });
    this.arm();
  }

  delete(key: string): void {
    this.due.delete(key);
  }

  has(key: string): boolean {
    return this.due.has(key);
  }

  get size(): number {
    return this.due.size;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due.clear();
    this.heap.length = 0;
  }

  /** Takes the keys due at `now` (exported for tests; the timer calls it). */
  takeDue(now: number): string[] {
    const keys: string[] = [];
    while (this.heap.length > 0 && this.heap[0]!.at <= now) {
      const e = this.pop();
      if (this.due.get(e.key) !== e.at) continue;
      this.due.delete(e.key);
      keys.push(e.key);
    }
    return keys;
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const keys = this.takeDue(this.clock.now());
    this.arm();
    if (keys.length > 0) this.onDue(keys);
  }

  private arm(): void {
    // drop stale heads so the timer waits for a live deadline
    while (this.heap.length > 0 && this.due.get(this.heap[0]!.key) !== this.heap[0]!.at) this.pop();
    if (this.stopped || this.heap.length === 0) return;
    const at = this.heap[0]!.at;
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - this.clock.now()));
    this.timer.unref();
  }

  private push(e: Entry): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.at <= e.at) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = e;
  }

  private pop(): Entry {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && h[r]!.at < h[l]!.at ? r : l;
        if (h[c]!.at >= last.at) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
