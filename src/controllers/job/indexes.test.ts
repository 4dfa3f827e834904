import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { completionIndex, formatIndexes, parseIndexes, pendingIndexes } from './indexes.js';

describe('completedIndexes', () => {
  const cases: { text: string; completions: number; want: number[]; formatted: string }[] = [
    { text: '', completions: 5, want: [], formatted: '' },
    { text: '0', completions: 5, want: [0], formatted: '0' },
    { text: '1,3-5,7', completions: 10, want: [1, 3, 4, 5, 7], formatted: '1,3-5,7' },
    { text: '0-2,3', completions: 10, want: [0, 1, 2, 3], formatted: '0-3' },
    { text: '2-8', completions: 5, want: [2, 3, 4], formatted: '2-4' },
    { text: 'x,1,,3-a', completions: 5, want: [1], formatted: '1' },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.text)} below ${c.completions}`, () => {
      const got = parseIndexes(c.text, c.completions);
      assert.deepEqual(got, c.want);
      assert.equal(formatIndexes(got), c.formatted);
    });
  }
});

describe('pendingIndexes', () => {
  const cases: { active: number[]; succeeded: number[]; count: number; completions: number; want: number[] }[] = [
    { active: [], succeeded: [], count: 2, completions: 4, want: [0, 1] },
    { active: [0], succeeded: [1, 3], count: 5, completions: 5, want: [2, 4] },
    { active: [1], succeeded: [0], count: 1, completions: 3, want: [2] },
    { active: [0, 1, 2], succeeded: [], count: 2, completions: 3, want: [] },
  ];
  for (const c of cases) it(JSON.stringify(c), () => assert.deepEqual(pendingIndexes(c.active, c.succeeded, c.count, c.completions), c.want));
});

describe('completionIndex', () => {
  const cases: [string | undefined, number | undefined][] = [['3', 3], ['0', 0], [undefined, undefined], ['-1', undefined], ['1a', undefined], ['', undefined]];
  for (const [v, want] of cases) {
    it(`${v}`, () => assert.equal(completionIndex({ metadata: { ...(v === undefined ? {} : { annotations: { 'batch.kubernetes.io/job-completion-index': v } }) } }), want));
  }
});
