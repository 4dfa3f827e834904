// The clock the queue sets and the config controller read: real time in the
// server, a hand-driven one in tests (so dispatch order and timeouts are
// deterministic and no test waits).
export interface Clock {
  /** Milliseconds. */
  now(): number;
  /** Runs fn once after ms; returns a cancel function. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => performance.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

/** A clock that moves only when told to; due timers run in order of their due time. */
export class FakeClock implements Clock {
  private t = 0;
  private seq = 0;
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  now(): number {
    return this.t;
  }
  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + ms, seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = end;
  }
  get pendingTimers(): number {
    return this.timers.length;
  }
}
