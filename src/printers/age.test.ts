// HumanDuration / ShortHumanDuration boundaries as apimachinery v1.27 prints them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanDuration, shortHumanDuration, since } from './age.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration', () => {
  const rows: [number, string][] = [
    [-2 * S, '<invalid>'], [-1999, '0s'], [-1 * S, '0s'], [-500, '0s'], [0, '0s'], [999, '0s'], [5 * S, '5s'],
    [119 * S, '119s'], [2 * M, '2m'], [3 * M + 20 * S, '3m20s'], [9 * M + 59 * S, '9m59s'], [10 * M, '10m'], [10 * M + 59 * S, '10m'],
    [179 * M, '179m'], [3 * H, '3h'], [3 * H + 5 * M, '3h5m'], [7 * H + 59 * M, '7h59m'], [8 * H, '8h'], [47 * H + 59 * M, '47h'],
    [2 * D, '2d'], [2 * D + 3 * H, '2d3h'], [7 * D + 23 * H, '7d23h'], [8 * D, '8d'], [8 * D + 5 * H, '8d'], [729 * D, '729d'],
    [730 * D, '2y'], [730 * D + 45 * D, '2y45d'], [8 * 365 * D - 1 * S, '7y364d'], [8 * 365 * D, '8y'], [20 * 365 * D + 100 * D, '20y'],
  ];
  for (const [ms, want] of rows) it(`${ms}ms → ${want}`, () => assert.equal(humanDuration(ms), want));
});

describe('shortHumanDuration', () => {
  const rows: [number, string][] = [
    [-2 * S, '<invalid>'], [-1 * S, '0s'], [0, '0s'], [59 * S, '59s'], [60 * S, '1m'], [59 * M + 59 * S, '59m'], [H, '1h'],
    [23 * H + 59 * M, '23h'], [D, '1d'], [364 * D, '364d'], [365 * D, '1y'], [800 * D, '2y'],
  ];
  for (const [ms, want] of rows) it(`${ms}ms → ${want}`, () => assert.equal(shortHumanDuration(ms), want));
});

describe('since', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  it('elapsed time', () => assert.equal(since('2024-05-01T11:56:40Z', now), '3m20s'));
  it('unset, empty, zero time and garbage are <unknown>', () => {
    for (const t of [undefined, null, '', '0001-01-01T00:00:00Z', 'yesterday', 5]) assert.equal(since(t, now), '<unknown>');
  });
  it('a timestamp in the future beyond the 1s tolerance is <invalid>', () => assert.equal(since('2024-05-01T12:00:05Z', now), '<invalid>'));
});
