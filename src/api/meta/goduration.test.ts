// Go durations: parsing and printing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGoDuration, formatGoNanos, parseGoDuration } from './goduration.js';

describe('Go durations', () => {
  const rows: [string, number, string][] = [
    ['0', 0, '0s'],
    ['100ms', 100, '100ms'],
    ['1m30s', 90_000, '1m30s'],
    ['2m', 120_000, '2m0s'],
    ['4h', 14_400_000, '4h0m0s'],
    ['1.5s', 1500, '1.5s'],
    ['-30s', -30_000, '-30s'],
    ['500us', 0.5, '500µs'],
  ];
  for (const [text, ms, printed] of rows) {
    it(`${text} = ${ms} ms, printed ${printed}`, () => {
      assert.equal(parseGoDuration(text), ms);
      assert.equal(formatGoDuration(ms), printed);
    });
  }
  for (const [text, message] of [
    ['', 'time: invalid duration ""'],
    ['s', 'time: invalid duration "s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
  ] as const) {
    it(`rejects ${JSON.stringify(text)}`, () => assert.throws(() => parseGoDuration(text), { message }));
  }
});

describe("Go's time.Duration.String of nanoseconds", () => {
  const rows: [bigint, string][] = [
    [0n, '0s'], [1n, '1ns'], [1500n, '1.5µs'], [1_500_000n, '1.5ms'], [1_000_000_000n, '1s'], [30_000_000_000n, '30s'],
    [300_000_000_000n, '5m0s'], [1_800_000_000_000n, '30m0s'], [3_600_000_000_000n, '1h0m0s'], [3_723_500_000_000n, '1h2m3.5s'], [-2_000_000_000n, '-2s'],
  ];
  for (const [ns, want] of rows) it(want, () => assert.equal(formatGoNanos(ns), want));
});

describe("Go's time.Duration.String of milliseconds", () => {
  const rows: [number, string][] = [[0, '0s'], [5, '5ms'], [0.5, '500µs'], [0.0015, '1.5µs'], [1500, '1.5s'], [90_000, '1m30s'], [7_200_000, '2h0m0s'], [-250, '-250ms']];
  for (const [ms, want] of rows) it(want, () => assert.equal(formatGoDuration(ms), want));
});
