import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket } from './bucket.js';

/** A clock the test moves (ms). */
function fakeClock(start = 1_000): { now: () => number; step: (ms: number) => void } {
  let t = start;
  return { now: () => t, step: (ms) => { t += ms; } };
}

/** tryAccept n times, the answers. */
const take = (b: TokenBucket, n: number) => Array.from({ length: n }, () => b.tryAccept());

describe('token bucket', () => {
  it('starts full: burst requests pass at once, the next is refused', () => {
    const c = fakeClock();
    assert.deepEqual(take(new TokenBucket(1, 3, c.now), 4), [true, true, true, false]);
  });

  const refills: [string, { qps: number; burst: number; stepMs: number }, boolean[]][] = [
    ['qps 1: one token after a second', { qps: 1, burst: 2, stepMs: 1000 }, [true, false]],
    ['qps 1: not yet after 999 ms', { qps: 1, burst: 2, stepMs: 999 }, [false]],
    ['qps 10: a token every 100 ms (two after 250 ms)', { qps: 10, burst: 5, stepMs: 250 }, [true, true, false]],
    ['never more than burst, however long it waited', { qps: 100, burst: 2, stepMs: 60_000 }, [true, true, false]],
  ];
  for (const [what, { qps, burst, stepMs }, after] of refills) {
    it(`refills: ${what}`, () => {
      const c = fakeClock();
      const b = new TokenBucket(qps, burst, c.now);
      take(b, burst);
      assert.equal(b.tryAccept(), false, 'empty');
      c.step(stepMs);
      assert.deepEqual(take(b, after.length), after);
    });
  }

  it('fractions of a token accumulate across refused requests', () => {
    const c = fakeClock();
    const b = new TokenBucket(2, 1, c.now);
    assert.equal(b.tryAccept(), true);
    c.step(300);
    assert.equal(b.tryAccept(), false, '0.6 token');
    c.step(200);
    assert.equal(b.tryAccept(), true, '0.6 + 0.4 = 1 token');
  });

  it('a clock going backwards adds nothing', () => {
    const c = fakeClock(10_000);
    const b = new TokenBucket(1, 1, c.now);
    assert.equal(b.tryAccept(), true);
    c.step(-5_000);
    assert.equal(b.tryAccept(), false);
    c.step(5_500);
    assert.equal(b.tryAccept(), false, 'refill counts from the latest time seen');
    c.step(500);
    assert.equal(b.tryAccept(), true);
  });
});

it('reserve: a token now while the burst lasts, then from the future at qps (the bucket in debt)', () => {
  let now = 0;
  const b = new TokenBucket(5, 2, () => now);
  assert.deepEqual([b.reserve(), b.reserve(), b.reserve(), b.reserve()], [0, 0, 200, 400]);
  now = 1000;
  assert.equal(b.reserve(), 0, 'five tokens refilled pay the debt of two; the bucket holds its burst again');
  assert.equal(b.tryAccept(), true);
});
