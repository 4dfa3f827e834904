import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapSpaceStatistics } from 'node:v8';
import { keepYoungGenerationSmall, sizedByOptions } from './heap.js';

test('the young generation is left alone when the options size it', () => {
  const cases: [string[], string | undefined, boolean][] = [
    [[], undefined, false],
    [['--cpu-prof'], '--enable-source-maps', false],
    [['--max-semi-space-size=1'], undefined, true],
    [['--min-semi-space-size=4'], undefined, true],
    [['--semi-space-growth-factor=4'], undefined, true],
    [[], '--max-semi-space-size=64 --enable-source-maps', true],
    [['--max-old-space-size=100'], undefined, false],
  ];
  for (const [argv, env, want] of cases) assert.equal(sizedByOptions(argv, env), want, `${argv.join(' ')} / ${env}`);
  assert.equal(keepYoungGenerationSmall(['--max-semi-space-size=1'], undefined), false);
});

test('applied, the new space no longer grows under a burst of surviving objects', () => {
  const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;
  const before = newSpace();
  assert.equal(keepYoungGenerationSmall([], undefined), true);
  // a burst in which much survives each scavenge: V8 would grow the semi-spaces to their 16 MB maximum
  let keep: { i: number; s: string }[] = [];
  for (let i = 0; i < 2_000_000; i++) {
    keep.push({ i, s: `x${i}` });
    if (keep.length > 20_000) keep = [];
  }
  assert.ok(keep.length > 0);
  assert.ok(newSpace() <= Math.max(before, 4 << 20), `new space ${newSpace()} bytes (was ${before})`);
});
