import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpuShare, fmtRatios, pairedRatios } from './report.js';

describe('pairedRatios', () => {
  const cases: { name: string; a: number[]; b: number[]; ratios: number[]; median: number; pooled: number }[] = [
    { name: 'one round', a: [80], b: [100], ratios: [0.8], median: 0.8, pooled: 0.8 },
    { name: 'an odd count: the middle ratio; the ratios stay in round order', a: [90, 40, 70], b: [100, 100, 100], ratios: [0.9, 0.4, 0.7], median: 0.7, pooled: 0.03 / (1 / 90 + 1 / 40 + 1 / 70) },
    { name: 'an even count: the mean of the middle two', a: [50, 90, 60, 10], b: [100, 100, 100, 100], ratios: [0.5, 0.9, 0.6, 0.1], median: 0.55, pooled: 0.04 / (1 / 50 + 1 / 90 + 1 / 60 + 1 / 10) },
    { name: 'each round against its own pair, not best against best', a: [100, 50], b: [200, 50], ratios: [0.5, 1], median: 0.75, pooled: (1 / 200 + 1 / 50) / (1 / 100 + 1 / 50) },
    // a burst that halves one phase of b: the median passes over it, the whole run's rate keeps it
    { name: 'pooled: the whole run\'s time, bursts included', a: [90, 90, 90], b: [100, 50, 100], ratios: [0.9, 1.8, 0.9], median: 0.9, pooled: (0.01 + 0.02 + 0.01) / (3 / 90) },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = pairedRatios(c.a, c.b);
      assert.deepEqual(r.ratios, c.ratios);
      assert.ok(Math.abs(r.median - c.median) < 1e-12, `median ${r.median}, want ${c.median}`);
      assert.ok(Math.abs(r.pooled - c.pooled) < 1e-12, `pooled ${r.pooled}, want ${c.pooled}`);
    });
  }
  it('refuses phases that do not pair', () => {
    assert.throws(() => pairedRatios([1, 2], [1]), /2 and 1 phases/);
    assert.throws(() => pairedRatios([], []), /0 and 0 phases/);
  });
  it('formats the rounds as percentages', () => {
    assert.equal(fmtRatios(pairedRatios([71, 80, 74], [100, 100, 100])), '71, 80, 74 %');
  });
});

describe('cpuShare', () => {
  const cases: { name: string; a: number[]; b: number[]; share: number }[] = [
    { name: 'one phase each', a: [500], b: [400], share: 0.8 },
    { name: 'sums, not the mean of per-phase shares', a: [100, 300], b: [100, 100], share: 0.5 },
    { name: 'b costlier than a', a: [100, 100], b: [150, 150], share: 1.5 },
  ];
  for (const c of cases) {
    it(c.name, () => assert.ok(Math.abs(cpuShare(c.a, c.b) - c.share) < 1e-12, `${cpuShare(c.a, c.b)}, want ${c.share}`));
  }
  it('refuses phases that do not pair', () => {
    assert.throws(() => cpuShare([1, 2], [1]), /2 and 1 phases/);
    assert.throws(() => cpuShare([], []), /0 and 0 phases/);
  });
});
