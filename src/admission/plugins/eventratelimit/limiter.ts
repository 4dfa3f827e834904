// One limit of the configuration enforced (kube's limitEnforcer): its key
// function and its buckets — one for Server, an LRU of `cacheSize` (0: 4096)
// buckets by key for the other types. Every request looked at takes a token
// from its bucket (a refused one too, if there was one to take) and touches
// its key in the LRU.
import type { AdmissionAttributes } from '../../../registry/admission.js';
import { TokenBucket, monotonicClock, type Clock } from './bucket.js';
import { DEFAULT_CACHE_SIZE, type Limit, type LimitType } from './config.js';
import { KEY_FUNCS, type KeyFunc } from './keys.js';
import { Lru } from './lru.js';

export class LimitEnforcer {
  readonly type: LimitType;
  private readonly key: KeyFunc;
  private readonly bucketFor: (key: string) => TokenBucket;
  /** The LRU of buckets (absent for Server); tests look. */
  readonly buckets: Lru<string, TokenBucket> | undefined;

  constructor(limit: Limit, now: Clock = monotonicClock) {
    this.type = limit.type;
    this.key = KEY_FUNCS[limit.type];
    const make = () => new TokenBucket(limit.qps, limit.burst, now);
    if (limit.type === 'Server') {
      const single = make();
      this.bucketFor = () => single;
    } else {
      const lru = new Lru<string, TokenBucket>(limit.cacheSize === 0 ? DEFAULT_CACHE_SIZE : limit.cacheSize);
      this.buckets = lru;
      this.bucketFor = (key) => lru.getOrAdd(key, make);
    }
  }

  /** undefined when the request's bucket had a token; else kube's reason. */
  accept(a: AdmissionAttributes): string | undefined {
    const key = this.key(a);
    if (this.bucketFor(key).tryAccept()) return undefined;
    return `limit reached on type ${this.type} for key ${key}`;
  }
}
