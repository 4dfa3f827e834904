// The clock the batch controllers read and wait on (kube's clock.Clock seam):
// the real one, or a fake that tests move by hand — a wait due by the new
// time fires when the fake is advanced.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once `ms` have passed on this clock; the returned function cancels. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return () => clearTimeout(t);
  },
};

export class FakeClock implements Clock {
  private waits: { at: number; fn: () => void }[] = [];

  constructor(private t: number) {}

  now(): number {
    return this.t;
  }

  after(ms: number, fn: () => void): () => void {
    const w = { at: this.t + Math.max(0, ms), fn };
    this.waits.push(w);
    return () => {
      this.waits = this.waits.filter((x) => x !== w);
    };
  }

  /** Moves the time on; waits now due fire in time order. */
  advance(ms: number): void {
    this.set(this.t + ms);
  }

  set(t: number): void {
    this.t = t;
    const due = this.waits.filter((w) => w.at <= t).sort((a, b) => a.at - b.at);
    this.waits = this.waits.filter((w) => w.at > t);
    for (const w of due) w.fn();
  }
}

/** kube's metav1.Time text (RFC 3339, seconds) of a clock reading. */
export { rfc3339 as timestamp } from '../../api/meta/time.js';
