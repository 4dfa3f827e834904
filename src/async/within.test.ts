import { test } from 'node:test';
import assert from 'node:assert/strict';
import { within } from './within.js';

test('within: true when the work fulfils in time, false when the time passes first, the work\'s error when it rejects in time', async () => {
  const never = new Promise<void>(() => undefined);
  const rows: { work: () => Promise<unknown>; ms: number; want: boolean | RegExp }[] = [
    { work: () => Promise.resolve('x'), ms: 1000, want: true },
    { work: () => new Promise((r) => setTimeout(r, 5)), ms: 1000, want: true },
    { work: () => never, ms: 10, want: false },
    { work: () => new Promise((r) => setTimeout(r, 1000).unref()), ms: 10, want: false },
    { work: () => Promise.reject(new Error('boom')), ms: 1000, want: /boom/ },
  ];
  for (const [i, r] of rows.entries()) {
    if (r.want instanceof RegExp) await assert.rejects(within(r.work(), r.ms), r.want, `row ${i}`);
    else assert.equal(await within(r.work(), r.ms), r.want, `row ${i}`);
  }
});
