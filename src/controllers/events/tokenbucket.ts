// A passive token bucket (client-go flowcontrol's
// NewTokenBucketPassiveRateLimiterWithClock over golang.org/x/time/rate): it
// starts full with `burst` tokens, refills `qps` tokens a second up to
// `burst`, and tryAccept takes one token if there is one. Nothing waits.
import type { Clock } from './clock.js';

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly qps: number, private readonly burst: number, private readonly clock: Clock) {
    this.tokens = burst;
    this.last = clock.now();
  }

  tryAccept(): boolean {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
      this.last = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
