// Go durations: parsing and printing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGoDuration, parseGoDuration } from './duration.js';

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
