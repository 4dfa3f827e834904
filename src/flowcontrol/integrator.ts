// Seat demand over time (kube's fairqueuing integrator): a value set at
// moments, integrated over the clock's time, read and restarted by the
// borrowing adjustment every 10 s.
import type { Clock } from './clock.js';

/** Seat demand over time (kube's integrator): average, deviation and maximum since the last reset. */
export class DemandIntegrator {
  private start: number;
  private last: number;
  private value = 0;
  private sum = 0;
  private sumSq = 0;
  private max = 0;
  constructor(private readonly clock: Clock) {
    this.start = this.last = clock.now();
  }
  /** A new value; `at`: the clock's time when the caller has just read it. */
  set(v: number, at = this.clock.now()): void {
    this.advance(at);
    this.value = v;
    if (v > this.max) this.max = v;
  }
  private advance(now = this.clock.now()): void {
    const dt = now - this.last;
    this.sum += this.value * dt;
    this.sumSq += this.value * this.value * dt;
    this.last = now;
  }
  /** The results since the last reset; a new period starts with the current value. */
  reset(): { average: number; deviation: number; max: number } {
    this.advance();
    const span = this.last - this.start;
    const average = span > 0 ? this.sum / span : this.value;
    const variance = span > 0 ? this.sumSq / span - average * average : 0;
    const out = { average, deviation: Math.sqrt(Math.max(0, variance)), max: this.max };
    this.start = this.last;
    this.sum = this.sumSq = 0;
    this.max = this.value;
    return out;
  }
}
