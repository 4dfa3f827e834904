// Concurrency limits: kube's nominal limits of the bootstrap levels for a
// server limit of 600, lendable and borrowing limits, the fair allocation,
// demand smoothing, and borrowing between levels over a configuration.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fairAllocation, levelLimits, updateDemandStats } from './concurrency.js';
import { FlowControlConfig } from './config.js';
import { FakeClock } from './clock.js';
import { MANDATORY_PRIORITY_LEVELS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.js';
import type { ApiObject } from '../registry/object.js';

describe('concurrency limits', () => {
  it('the bootstrap levels\' nominal limits at 600 seats (kube\'s documented figures)', () => {
    const config = new FlowControlConfig(new FakeClock(), 600);
    config.apply([], [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]);
    const got = Object.fromEntries(config.levels.filter((l) => !l.exempt).map((l) => [l.name, [l.limits.nominalCL, l.limits.lendableCL]]));
    assert.deepEqual(got, {
      'catch-all': [13, 0], system: [74, 24], 'node-high': [98, 25], 'leader-election': [25, 0], 'workload-high': [98, 49], 'workload-low': [245, 221], 'global-default': [49, 25],
    });
  });

  it('borrowing limit: a percentage of the nominal, else the server limit', () => {
    assert.deepEqual(levelLimits(100, [{ shares: 1, lendablePercent: 50, borrowingLimitPercent: 200 }, { shares: 3, lendablePercent: 0, borrowingLimitPercent: undefined }]), [
      { nominalCL: 25, lendableCL: 13, borrowingCL: 50 }, { nominalCL: 75, lendableCL: 0, borrowingCL: 100 },
    ]);
  });

  const rows: [string, number, { target: number; lower: number; upper: number }[], number[]][] = [
    ['targets that fit are scaled up to the sum', 10, [{ target: 2, lower: 0, upper: 10 }, { target: 2, lower: 0, upper: 10 }], [5, 5]],
    ['a lower bound holds', 10, [{ target: 0.1, lower: 4, upper: 10 }, { target: 1, lower: 0, upper: 10 }], [4, 6]],
    ['an upper bound caps, the rest goes elsewhere', 10, [{ target: 5, lower: 0, upper: 2 }, { target: 5, lower: 0, upper: 10 }], [2, 8]],
    ['an idle level (target 0) counts as 0.001', 10, [{ target: 0, lower: 0, upper: 10 }, { target: 1, lower: 1, upper: 9 }], [1, 9]],
  ];
  for (const [name, required, items, want] of rows) {
    it(`fair allocation: ${name}`, () => assert.deepEqual(fairAllocation(required, items)!.allocs.map((x) => Math.round(x * 1000) / 1000), want));
  }
  it('fair allocation: bounds that cannot meet the sum', () => {
    assert.equal(fairAllocation(3, [{ target: 2, lower: 2, upper: 5 }, { target: 2, lower: 2, upper: 5 }]), undefined);
    assert.equal(fairAllocation(30, [{ target: 2, lower: 2, upper: 5 }, { target: 2, lower: 2, upper: 5 }]), undefined);
  });

  it('smooths demand: an envelope above the smoothed value is taken at once, a fall decays', () => {
    const s = { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 };
    updateDemandStats(s, { average: 10, deviation: 2, max: 15 });
    assert.equal(s.smoothed, 12);
    updateDemandStats(s, { average: 0, deviation: 0, max: 0 });
    assert.equal(Math.round(s.smoothed * 1000) / 1000, 11.724);
  });

  it('a busy level borrows what an idle level lends', () => {
    const clock = new FakeClock();
    const pl = (name: string, lendablePercent: number): ApiObject => ({
      metadata: { name }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 50, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues: 8, handSize: 2, queueLengthLimit: 50 } } } },
    }) as ApiObject;
    const config = new FlowControlConfig(clock, 20);
    config.apply([], [pl('busy', 0), pl('idle', 100), MANDATORY_PRIORITY_LEVELS[1]!, { ...MANDATORY_PRIORITY_LEVELS[0]!, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 0, limitResponse: { type: 'Reject' } } } } as ApiObject]);
    const busy = config.level('busy')!;
    assert.equal(busy.limits.nominalCL, 10);
    for (let i = 0; i < 30; i++) busy.qs.start({ flowSchema: 'fs', distinguisher: `u${i}`, estimate: { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 }, maxWaitMs: 60_000 });
    clock.advance(10_000);
    config.adjustBorrowing();
    assert.equal(busy.currentCL, 20);
    assert.equal(config.level('idle')!.currentCL, 0);
    assert.equal(busy.qs.totExecuting, 20);
  });
});
