// A token bucket as golang.org/x/time/rate's Limiter (behind client-go's
// NewTokenBucketRateLimiter): it starts full with `burst` tokens, refills at
// `qps` per second up to `burst`, and tryAccept takes one token if there is
// one (kube's TryAccept: AllowN(now, 1)).

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(private readonly qps: number, private readonly burst: number, now: number) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token at `now` (milliseconds); false when none is left. */
  tryAccept(now: number): boolean {
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
      this.last = now;
    }
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Buckets by key, the least recently used dropped past `size` (kube's hashicorp/golang-lru). */
export class BucketCache {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly size: number, private readonly make: () => TokenBucket) {}

  get(key: string): TokenBucket {
    let b = this.buckets.get(key);
    if (b) {
      this.buckets.delete(key); // re-inserted last: Map order is recency
    } else {
      b = this.make();
      if (this.buckets.size >= this.size) this.buckets.delete(this.buckets.keys().next().value!);
    }
    this.buckets.set(key, b);
    return b;
  }

  get count(): number {
    return this.buckets.size;
  }
}
