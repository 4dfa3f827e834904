import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectionDue, HeapCollector } from './collector.js';

const MB = 1 << 20;

test('a collection is due past live × (1 + growth) + slack', () => {
  const cases: [used: number, live: number, due: boolean][] = [
    [10 * MB, 10 * MB, false],
    [16.5 * MB, 10 * MB, false], // 10 × 1.25 + 4 = 16.5: not past it
    [16.6 * MB, 10 * MB, true],
    [5 * MB, 0, true],
    [4 * MB, 0, false],
    [27 * MB, 18 * MB, true], // 18 × 1.25 + 4 = 26.5
    [26 * MB, 18 * MB, false],
  ];
  for (const [used, live, due] of cases) assert.equal(collectionDue(used, live), due, `${used / MB} MB used, ${live / MB} MB live`);
  assert.equal(collectionDue(30 * MB, 10 * MB, { growth: 1, slackBytes: 0 }), true);
  assert.equal(collectionDue(20 * MB, 10 * MB, { growth: 1, slackBytes: 0 }), false);
});

test('the collector collects when due and takes what survived as the next baseline', () => {
  let used = 10 * MB;
  const runs: number[] = [];
  const c = new HeapCollector({ heapUsed: () => used, collect: () => { runs.push(used); used = 12 * MB; } });
  used = 16 * MB; // 10 × 1.25 + 4 = 16.5
  assert.equal(c.tick(), false);
  used = 20 * MB;
  assert.equal(c.tick(), true); // collected down to 12 MB live
  used = 18 * MB; // 12 × 1.25 + 4 = 19
  assert.equal(c.tick(), false);
  used = 20 * MB;
  assert.equal(c.tick(), true);
  assert.deepEqual(runs, [20 * MB, 20 * MB]);
  assert.equal(c.collections, 2);
});

test("V8's own collection frees a burst's garbage", () => {
  const c = new HeapCollector();
  let garbage: unknown[] = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` }));
  assert.equal(garbage.length, 200_000);
  garbage = [];
  assert.equal(c.tick(), true);
  assert.equal(c.collections, 1);
  assert.equal(c.tick(), false); // nothing new since
});

test("V8's collection compacts: the old generation goes back to about the live size", async () => {
  const { getHeapSpaceStatistics } = await import('node:v8');
  const old = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!;
  const c = new HeapCollector();
  // live objects spread thinly over many old-generation pages: a non-compacting collection keeps those pages
  let live: object[] = [];
  for (let i = 0; i < 400_000; i++) {
    const o = { i, s: `y${i}` };
    if (i % 4 === 0) live.push(o);
    if (i % 50_000 === 0) await new Promise((r) => setImmediate(r));
  }
  live = live.filter((_, i) => i % 3 === 0);
  c.tick();
  const after = old();
  assert.ok(live.length > 0);
  assert.ok(after.space_size < after.space_used_size * 1.5 + (2 << 20), `old space ${after.space_size} bytes for ${after.space_used_size} used`);
});
