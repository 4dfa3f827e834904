// The timing ratio histogram with a hand-driven clock: each value weighs the
// nanoseconds it was held, a scrape weighs the current one up to now, the
// denominator divides, reset starts again; HELP and const labels as kube's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimingRatioHistogram, newTimingRatioHistogram } from './timingratio.js';
import { configureMetrics, exposition, resetMetrics } from './registry.js';
import { helpAndType, sampleSum } from '../testing/metricstext.js';

const MS = 1e6; // ns

function fixture(buckets = [0, 0.5, 1]) {
  let t = 0;
  const now = () => t;
  const h = new TimingRatioHistogram({ name: 'x', help: 'h', labelNames: ['l'], buckets });
  const g = h.child({ l: 'a' }, { now, denominator: 4 });
  const read = () => {
    const v = h.values();
    const bucket = (le: number | string) => v.find((s) => s.metricName === 'x_bucket' && s.labels.le === le)!.value;
    return { bucket, sum: v.find((s) => s.metricName === 'x_sum')!.value, count: v.find((s) => s.metricName === 'x_count')!.value };
  };
  return { h, g, read, advance: (ms: number) => (t += ms) };
}

describe('timing ratio histogram', () => {
  const cases: { name: string; steps: (f: ReturnType<typeof fixture>) => void; buckets: [number | string, number][]; sum: number; count: number }[] = [
    { name: 'nothing set: the initial 0 is held', steps: (f) => f.advance(10), buckets: [[0, 10 * MS], [0.5, 10 * MS], ['+Inf', 10 * MS]], sum: 0, count: 10 * MS },
    {
      name: 'values over the denominator, each weighed by how long it was held',
      steps: (f) => { f.g.set(2); f.advance(3); f.g.add(2); f.advance(5); f.g.set(8); f.advance(1); },
      // 2/4 for 3 ms, 4/4 for 5 ms, 8/4 for 1 ms (above every bound: +Inf only)
      buckets: [[0, 0], [0.5, 3 * MS], [1, 8 * MS], ['+Inf', 9 * MS]], sum: 0.5 * 3 * MS + 1 * 5 * MS + 2 * MS, count: 9 * MS,
    },
    {
      name: 'a new denominator changes the ratio from then on',
      steps: (f) => { f.g.set(2); f.advance(2); f.g.setDenominator(2); f.advance(2); },
      buckets: [[0.5, 2 * MS], [1, 4 * MS]], sum: 0.5 * 2 * MS + 2 * MS, count: 4 * MS,
    },
    { name: 'changes at one instant weigh nothing', steps: (f) => { f.g.set(4); f.g.set(0); f.advance(1); }, buckets: [[0, MS], [1, MS]], sum: 0, count: MS },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const f = fixture();
      c.steps(f);
      const r = f.read();
      for (const [le, n] of c.buckets) assert.equal(r.bucket(le), n, `le=${le}`);
      assert.equal(r.sum, c.sum);
      assert.equal(r.count, c.count);
    });
  }

  it('reset forgets what was accumulated; the value held goes on', () => {
    const f = fixture();
    f.g.set(4);
    f.advance(5);
    f.h.reset();
    assert.equal(f.read().count, 0);
    f.advance(2);
    const r = f.read();
    assert.equal(r.count, 2 * MS);
    assert.equal(r.bucket(1), 2 * MS);
    assert.equal(r.bucket(0.5), 0);
  });

  it('is exposed as a histogram with kube\'s HELP, const labels and all, and reset by DELETE /metrics (resetMetrics)', async () => {
    const m = newTimingRatioHistogram({ name: 'svc_test_timing_ratio', help: 'Observations.', labelNames: ['pl'], constLabels: { phase: 'executing' }, buckets: [0.5, 1] });
    let t = 0;
    m.child({ pl: 'p' }, { now: () => t, numerator: 1, denominator: 1 });
    t = 7;
    configureMetrics();
    let text = await exposition();
    assert.deepEqual(helpAndType(text, 'svc_test_timing_ratio'), { help: 'EXPERIMENTAL: [ALPHA] Observations.', type: 'histogram' });
    assert.equal(sampleSum(text, 'svc_test_timing_ratio_bucket', { phase: 'executing', pl: 'p', le: '1' }), 7 * MS);
    assert.equal(sampleSum(text, 'svc_test_timing_ratio_count', { phase: 'executing', pl: 'p' }), 7 * MS);
    resetMetrics();
    text = await exposition();
    assert.equal(sampleSum(text, 'svc_test_timing_ratio_count', { phase: 'executing', pl: 'p' }), 0);
  });
});
