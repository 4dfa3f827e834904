import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Summary, SummaryCell } from './summary.js';

const within = (got: number, want: number, rel = 0.0101) =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${got} is not within ${rel * 100} % of ${want}`);

describe('SummaryCell quantiles', () => {
  const cases: { name: string; values: number[]; qs: number[]; want: number[] }[] = [
    { name: 'one value', values: [0.25], qs: [0.5, 0.9, 0.99], want: [0.25, 0.25, 0.25] },
    { name: '1..100', values: Array.from({ length: 100 }, (_, i) => i + 1), qs: [0.5, 0.9, 0.99], want: [50, 90, 99] },
    { name: 'latencies over decades', values: [0.001, 0.002, 0.003, 0.004, 0.005, 0.1, 0.2, 0.3, 0.4, 2], qs: [0.5, 0.9, 0.99], want: [0.005, 0.4, 2] },
    { name: 'zeros count below every positive value', values: [0, 0, 0, 1], qs: [0.5, 0.75, 0.99], want: [0, 0, 1] },
    { name: 'order of arrival does not matter', values: [9, 1, 5, 3, 7], qs: [0.5], want: [5] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const cell = new SummaryCell(60_000, 5, () => 0);
      for (const v of c.values) cell.observe(v);
      cell.quantiles(c.qs).forEach((got, i) => (c.want[i] === 0 ? assert.equal(got, 0) : within(got, c.want[i]!)));
      assert.equal(cell.count, c.values.length);
      within(cell.sum, c.values.reduce((a, b) => a + b, 0), 1e-12);
    });
  }

  it('a window with no observations reports NaN', () => {
    assert.deepEqual(new SummaryCell(1000, 5, () => 0).quantiles([0.5, 0.9]), [NaN, NaN]);
  });

  it('observations leave the window after maxAge; sum and count stay cumulative', () => {
    let now = 0;
    const cell = new SummaryCell(1000, 5, () => now); // a 5 s window in 1 s slices
    cell.observe(100);
    now = 2500;
    cell.observe(1);
    within(cell.quantiles([0.99])[0]!, 100);
    now = 4999; // the slice holding 100 (0–1 s) is still one of the last five
    within(cell.quantiles([0.99])[0]!, 100);
    now = 5000; // now it has left
    within(cell.quantiles([0.99])[0]!, 1);
    now = 60_000; // everything has left
    assert.ok(Number.isNaN(cell.quantiles([0.5])[0]));
    assert.equal(cell.count, 2);
    assert.equal(cell.sum, 101);
  });
});

describe('Summary exposition', () => {
  it("writes each series' quantiles, _sum and _count; a reset hides the series until it is recorded again", async () => {
    const s = new Summary({ name: 'x_seconds_summary', help: 'X.', labelNames: ['type'], maxAgeSeconds: 60, now: () => 0 });
    const admit = s.child({ type: 'admit' });
    admit.observe(0.5);
    s.child({ type: 'validate' }).observe(2);
    const got = await s.get();
    assert.equal(got.type, 'summary');
    assert.equal(got.help, '[ALPHA] X.');
    const admitValues = got.values.filter((v) => v.labels.type === 'admit');
    assert.deepEqual(admitValues.map((v) => [v.metricName ?? got.name, v.labels.quantile]), [
      ['x_seconds_summary', 0.5], ['x_seconds_summary', 0.9], ['x_seconds_summary', 0.99], ['x_seconds_summary_sum', undefined], ['x_seconds_summary_count', undefined],
    ]);
    within(admitValues[0]!.value, 0.5);
    s.reset();
    assert.deepEqual(s.values(), []);
    admit.observe(1);
    const after = s.values();
    assert.deepEqual([...new Set(after.map((v) => v.labels.type))], ['admit']);
    assert.equal(after.find((v) => v.metricName === 'x_seconds_summary_count')!.value, 1);
  });
});
