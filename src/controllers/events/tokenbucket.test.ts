import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './clock.js';
import { TokenBucket } from './tokenbucket.js';
import { LruCache } from './lru.js';

describe('TokenBucket', () => {
  const cases: { name: string; qps: number; burst: number; steps: (number | 'take')[]; want: boolean[] }[] = [
    { name: 'starts full: burst tokens, then refused', qps: 1, burst: 3, steps: ['take', 'take', 'take', 'take'], want: [true, true, true, false] },
    { name: 'refills qps tokens a second', qps: 2, burst: 1, steps: ['take', 'take', 499, 'take', 1, 'take'], want: [true, false, false, true] },
    { name: 'never above burst', qps: 10, burst: 2, steps: ['take', 'take', 60_000, 'take', 'take', 'take'], want: [true, true, true, true, false] },
    { name: 'one in 5 minutes (the spam filter\'s rate)', qps: 1 / 300, burst: 1, steps: ['take', 299_999, 'take', 1, 'take'], want: [true, false, true] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const clock = new FakeClock(0);
      const b = new TokenBucket(c.qps, c.burst, clock);
      const got: boolean[] = [];
      for (const s of c.steps) {
        if (s === 'take') got.push(b.tryAccept());
        else clock.step(s);
      }
      assert.deepEqual(got, c.want);
    });
  }
});

describe('LruCache', () => {
  it('drops the least recently used entry past its bound; get refreshes an entry', () => {
    const l = new LruCache<string, number>(2);
    l.add('a', 1);
    l.add('b', 2);
    assert.equal(l.get('a'), 1);
    l.add('c', 3);
    assert.equal(l.has('b'), false);
    assert.equal(l.get('a'), 1);
    assert.equal(l.get('c'), 3);
    assert.equal(l.size, 2);
  });
  it('refuses a bound below 1', () => assert.throws(() => new LruCache(0), RangeError));
});
