// A token bucket as client-go's flowcontrol token bucket limiter builds it
// over golang.org/x/time/rate: it starts full (`burst` tokens), gains `qps`
// tokens a second continuously (fractions count), never holds more than
// `burst`, and tryAccept takes one whole token when there is one. A clock
// that goes backwards adds nothing.

/** Milliseconds on a monotonic clock; injected by tests. */
export type Clock = () => number;

export const monotonicClock: Clock = () => performance.now();

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: Clock = monotonicClock,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token if the bucket has one (after refilling for the time passed). */
  tryAccept(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /**
   * Takes a token now or from the future (rate.Limiter's Reserve, what
   * client-go's blocking Wait does): the milliseconds until it is the
   * caller's; the bucket goes into debt meanwhile.
   */
  reserve(): number {
    this.refill();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.qps) * 1000);
  }

  private refill(): void {
    const t = this.now();
    if (t > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
      this.last = t;
    }
  }

  /** The tokens held now (tests look). */
  available(): number {
    const t = this.now();
    return t > this.last ? Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps) : this.tokens;
  }
}
