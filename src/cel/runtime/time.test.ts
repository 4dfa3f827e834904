import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Duration, Timestamp } from '../values.js';
import { throwsCel } from './testutil.js';
import * as T from './time.js';

const ts = T.parseTimestamp;
const dur = (s: string): Duration => T.parseDuration(s);

test('parseTimestamp (RFC 3339)', () => {
  const rows: [string, number, number][] = [
    ['2009-02-13T23:31:30Z', 1234567890, 0],
    ['1970-01-01T00:00:00Z', 0, 0],
    ['2023-02-03T23:31:20+00:00', 1675467080, 0],
    ['2009-02-13T23:31:20.123456789Z', 1234567880, 123456789],
    ['2009-02-13T23:31:20.1Z', 1234567880, 100000000],
    ['2009-02-14T01:31:30+02:00', 1234567890, 0],
    ['2009-02-13T20:01:30-03:30', 1234567890, 0],
    ['0001-01-01T00:00:00Z', T.MIN_UNIX, 0],
    ['9999-12-31T23:59:59.999999999Z', T.MAX_UNIX, 999999999],
    ['2000-02-29T00:00:00Z', 951782400, 0],
  ];
  for (const [s, sec, ns] of rows) assert.deepEqual(ts(s), new Timestamp(sec, ns), s);
  const bad = "type conversion error from 'string' to 'google.protobuf.Timestamp'";
  for (const s of ['2009-02-13', '2009-02-13T23:31:30', '2009-13-01T00:00:00Z', '2001-02-29T00:00:00Z', '2009-02-13T24:00:00Z', '10000-01-01T00:00:00Z', '2009-02-13t23:31:30Z']) {
    throwsCel(() => ts(s), bad);
  }
  throwsCel(() => ts('0000-01-01T00:00:00Z'), 'timestamp overflow');
});

test('formatTimestamp trims nanos', () => {
  assert.equal(T.formatTimestamp(new Timestamp(1234567890, 0)), '2009-02-13T23:31:30Z');
  assert.equal(T.formatTimestamp(new Timestamp(T.MAX_UNIX, 999999999)), '9999-12-31T23:59:59.999999999Z');
  assert.equal(T.formatTimestamp(new Timestamp(0, 120000000)), '1970-01-01T00:00:00.12Z');
  assert.equal(T.formatTimestamp(new Timestamp(T.MIN_UNIX, 0)), '0001-01-01T00:00:00Z');
  assert.equal(T.formatTimestamp(new Timestamp(-1, 0)), '1969-12-31T23:59:59Z');
});

test('calendar accessors in UTC, fixed offsets and IANA zones', () => {
  const t = ts('2009-02-13T23:31:30Z');
  const c = T.civilIn(t);
  assert.deepEqual([c.year, c.month, c.day, c.dayOfYear, c.dayOfWeek, c.hours, c.minutes, c.seconds], [2009, 2, 13, 43, 5, 23, 31, 30]);
  // Rows from the conformance suite's timestamp_selectors_tz.
  assert.equal(T.civilIn(t, 'Australia/Sydney').day, 14);
  assert.equal(T.civilIn(t, 'US/Central').day, 13);
  assert.equal(T.civilIn(t, '+11:00').day, 14);
  assert.equal(T.civilIn(ts('2009-02-13T02:00:00Z'), '-02:30').day, 12);
  assert.equal(T.civilIn(ts('2009-02-13T02:00:00Z'), 'America/St_Johns').day, 12);
  assert.equal(T.civilIn(t, 'US/Central').dayOfYear, 43);
  assert.equal(T.civilIn(t, '-09:30').year, 2009);
  assert.equal(T.civilIn(t, '02:00').hours, 1);
  assert.equal(T.civilIn(t, 'Asia/Kathmandu').minutes, 16);
  assert.equal(T.civilIn(t, '-00:00').seconds, 30);
  assert.equal(T.civilIn(t, 'UTC').dayOfWeek, 5);
  // Daylight saving time: New York is UTC-4 in July, UTC-5 in January.
  assert.equal(T.civilIn(ts('2023-07-01T12:00:00Z'), 'America/New_York').hours, 8);
  assert.equal(T.civilIn(ts('2023-01-01T12:00:00Z'), 'America/New_York').hours, 7);
  assert.equal(T.civilIn(ts('0001-01-01T00:00:00Z'), 'UTC').year, 1);
  throwsCel(() => T.civilIn(t, 'Mars/Olympus'), 'unknown time zone Mars/Olympus');
  throwsCel(() => T.civilIn(t, '+01:60'), 'timezone offset minutes out of range [0, 59]: +01:60');
  throwsCel(() => T.civilIn(t, 'x:00'), 'strconv.Atoi: parsing "x": invalid syntax');
});

test('parseDuration (Go syntax)', () => {
  const rows: [string, bigint][] = [
    ['0', 0n],
    ['100s', 100_000_000_000n],
    ['1h45m47s', 6347_000_000_000n],
    ['-1.5h', -5400_000_000_000n],
    ['+2m', 120_000_000_000n],
    ['300ms', 300_000_000n],
    ['1us', 1000n],
    ['1µs', 1000n],
    ['1μs', 1000n],
    ['999999999ns', 999999999n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['2562047h47m16.854775807s', 2n ** 63n - 1n],
    ['-2562047h47m16.854775808s', -(2n ** 63n)],
    ['200000h', 200000n * 3600n * 1_000_000_000n], // beyond 2^53 ns: the BigInt path
    ['-0s', 0n],
    ['1h1h', 7200_000_000_000n],
  ];
  for (const [s, ns] of rows) assert.deepEqual(dur(s), new Duration(ns), s);
  const bad = "type conversion error from 'string' to 'google.protobuf.Duration'";
  for (const s of ['', '1', 's', '1d', '.s', '-', '1h 2m', '1h-2m', '1constructor', '320000000000s', '2562047h47m16.854775808s']) throwsCel(() => dur(s), bad);
});

test('duration arithmetic, accessors and printing', () => {
  assert.equal(T.formatDuration(dur('1h30m')), '5400s');
  assert.equal(T.formatDuration(dur('1.5s')), '1.5s');
  assert.equal(T.formatDuration(dur('0')), '0s');
  assert.equal(T.durationHours(dur('10000s')), 2);
  assert.equal(T.durationMinutes(dur('3730s')), 62);
  assert.equal(T.durationSeconds(dur('3730s')), 3730);
  assert.equal(T.durationMilliseconds(dur('1.321s')), 1321);
  assert.equal(T.durationHours(dur('-90m')), -1);
  assert.deepEqual(T.addDurations(dur('600s'), dur('50s')), dur('650s'));
  assert.deepEqual(T.subDurations(dur('900s'), dur('42s')), dur('858s'));
  throwsCel(() => T.addDurations(new Duration(2n ** 63n - 1n), dur('1ns')), 'integer overflow');
});

test('timestamp arithmetic and range', () => {
  // Rows from the conformance suite's timestamp_arithmetic and timestamp_range.
  assert.deepEqual(T.addTimestampDuration(ts('2009-02-13T23:00:00Z'), dur('240s')), ts('2009-02-13T23:04:00Z'));
  assert.deepEqual(
    T.addTimestampDuration(ts('0001-01-01T00:00:01.000000001Z'), dur('-999999999ns')),
    ts('0001-01-01T00:00:00.000000002Z'),
  );
  assert.deepEqual(
    T.addTimestampDuration(ts('0001-01-01T00:00:01.999999999Z'), dur('999999999ns')),
    ts('0001-01-01T00:00:02.999999998Z'),
  );
  assert.deepEqual(T.subTimestampDuration(ts('2009-02-13T23:10:00Z'), dur('600s')), ts('2009-02-13T23:00:00Z'));
  assert.deepEqual(T.subTimestamps(ts('2009-02-13T23:31:00Z'), ts('2009-02-13T23:29:00Z')), dur('120s'));
  assert.deepEqual(T.subTimestamps(ts('2009-02-13T23:31:00.5Z'), ts('2009-02-13T23:31:01Z')), dur('-0.5s'));
  throwsCel(() => T.addTimestampDuration(ts('0001-01-01T00:00:00Z'), dur('-1ns')), 'timestamp overflow');
  throwsCel(() => T.addTimestampDuration(ts('9999-12-31T23:59:59.999999999Z'), dur('1ns')), 'timestamp overflow');
  throwsCel(() => T.subTimestamps(ts('9999-12-31T23:59:59Z'), ts('0001-01-01T00:00:00Z')), 'integer overflow');
  throwsCel(() => T.timestampFromSeconds(T.MIN_UNIX - 1), 'timestamp overflow');
});
