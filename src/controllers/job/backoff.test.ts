import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { nextBackoffRecord, NO_FAILURES, remainingBackoff, type BackoffRecord } from './backoff.js';

const at = (s: number) => new Date(s * 1000).toISOString();
const pod = (finishedSec: number): ApiObject => ({ metadata: {}, status: { containerStatuses: [{ state: { terminated: { finishedAt: at(finishedSec) } } }] } });

describe('nextBackoffRecord', () => {
  const cases: { name: string; prev: BackoffRecord; succeeded: number[]; failed: number[]; want: BackoffRecord }[] = [
    { name: 'nothing new', prev: { failuresAfterLastSuccess: 2, lastFailureTime: 5000 }, succeeded: [], failed: [], want: { failuresAfterLastSuccess: 2, lastFailureTime: 5000 } },
    { name: 'failures add up; the latest is the last failure', prev: { failuresAfterLastSuccess: 1, lastFailureTime: 1000 }, succeeded: [], failed: [30, 20], want: { failuresAfterLastSuccess: 3, lastFailureTime: 30_000 } },
    { name: 'a success resets', prev: { failuresAfterLastSuccess: 4, lastFailureTime: 1000 }, succeeded: [10], failed: [], want: NO_FAILURES },
    { name: 'only failures after the last success count', prev: NO_FAILURES, succeeded: [20], failed: [10, 25, 30], want: { failuresAfterLastSuccess: 2, lastFailureTime: 30_000 } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(nextBackoffRecord(c.prev, c.succeeded.map(pod), c.failed.map(pod), 0), c.want));
});

describe('remainingBackoff (base 10 s, cap 360 s)', () => {
  const cases: { failures: number; elapsedMs: number; want: number }[] = [
    { failures: 0, elapsedMs: 0, want: 0 },
    { failures: 1, elapsedMs: 0, want: 10_000 },
    { failures: 1, elapsedMs: 4_000, want: 6_000 },
    { failures: 2, elapsedMs: 0, want: 20_000 },
    { failures: 4, elapsedMs: 0, want: 80_000 },
    { failures: 7, elapsedMs: 0, want: 360_000 },
    { failures: 20, elapsedMs: 100_000, want: 260_000 },
    { failures: 3, elapsedMs: 50_000, want: 0 },
  ];
  for (const c of cases) {
    it(`${c.failures} failures, ${c.elapsedMs} ms after the last`, () => {
      assert.equal(remainingBackoff({ failuresAfterLastSuccess: c.failures, lastFailureTime: 1_000_000 }, 1_000_000 + c.elapsedMs, 10_000, 360_000), c.want);
    });
  }
});
