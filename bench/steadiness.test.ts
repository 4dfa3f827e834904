import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spreadOf, steadiness } from './steadiness.js';

describe('spreadOf', () => {
  const cases: { name: string; samples: number[]; want: ReturnType<typeof spreadOf> }[] = [
    { name: 'one sample: no spread', samples: [500], want: { min: 500, median: 500, max: 500, spread: 0 } },
    { name: 'an odd count, unsorted: the middle one', samples: [900, 600, 700], want: { min: 600, median: 700, max: 900, spread: 0.5 } },
    { name: 'an even count: the mean of the middle two', samples: [400, 800, 500, 600], want: { min: 400, median: 550, max: 800, spread: 1 } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(spreadOf(c.samples), c.want));
  it('refuses no samples', () => assert.throws(() => spreadOf([]), /no samples/));
});

describe('steadiness', () => {
  it('measures the workload and prints its range', () => {
    const line = steadiness('in a test', 3, 20_000);
    assert.match(line, /^- machine steadiness in a test: one fixed JavaScript workload 3× — CPU \d+–\d+ ms, median \d+ ms \(max\/min − 1: \d+ %\)$/);
  });
});
