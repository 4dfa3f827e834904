import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Timestamp } from '../values.js';
import { parseBase64, parseDate, parseDateTime, parseGoDuration, parseStrfmtDuration } from './formats.js';
import { goQuote } from '../goquote.js';

test('parseGoDuration: Go time.ParseDuration', () => {
  const ok: [string, bigint][] = [
    ['0', 0n], ['-0', 0n], ['1s', 1000000000n], ['1.5h', 5400000000000n], ['1h30m', 5400000000000n], ['-2m3.5s', -123500000000n],
    ['+5ms', 5000000n], ['.5s', 500000000n], ['1.s', 1000000000n], ['3us', 3000n], ['3µs', 3000n], ['3μs', 3000n], ['7ns', 7n],
    ['2562047h47m16.854775807s', 9223372036854775807n], ['-2562047h47m16.854775808s', -9223372036854775808n],
  ];
  for (const [s, n] of ok) assert.equal(parseGoDuration(s), n, s);
  const bad: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1e3s', 'time: unknown unit "e" in duration "1e3s"'],
    ['.s', 'time: invalid duration ".s"'],
    ['s', 'time: invalid duration "s"'],
    ['2562047h47m16.854775808s', 'time: invalid duration "2562047h47m16.854775808s"'],
    ['9999999999999999999h', 'time: invalid duration "9999999999999999999h"'],
  ];
  for (const [s, msg] of bad) assert.equal(parseGoDuration(s), msg, s);
});

test('parseStrfmtDuration: Go durations, else "<n> <unit>" pairs', () => {
  const day = 86400000000000n;
  const rows: [string, bigint | string][] = [
    ['90m', 5400000000000n],
    ['3 days', 3n * day],
    ['1 week 2 days', 9n * day],
    ['2 hours', 7200000000000n],
    ['5 wk', 35n * day],
    ['10 sec', 10000000000n],
    ['1d', day],
    ['soon', 'unable to parse soon as duration'],
    ['', 'unable to parse  as duration'],
  ];
  for (const [s, want] of rows) assert.equal(parseStrfmtDuration(s), want, s);
});

test('parseDateTime / parseDate: strfmt layouts', () => {
  const t0 = 1709294400; // 2024-03-01T12:00:00Z
  const ok: [string, Timestamp][] = [
    ['2024-03-01T12:00:00Z', new Timestamp(t0, 0)],
    ['2024-03-01T12:00:00.5Z', new Timestamp(t0, 500000000)],
    ['2024-03-01T12:00:00.123456789Z', new Timestamp(t0, 123456789)],
    ['2024-03-01T14:00:00+02:00', new Timestamp(t0, 0)],
    ['2024-03-01T10:30:00-01:30', new Timestamp(t0, 0)],
    ['2024-03-01T14:00:00.000+0200', new Timestamp(t0, 0)],
    ['2024-03-01T14:00:00.000000+0200', new Timestamp(t0, 0)],
    ['2024-03-01T12:00:00', new Timestamp(t0, 0)],
    ['2024-03-01T12:00Z', new Timestamp(t0, 0)],
    ['2024-03-01T12:00', new Timestamp(t0, 0)],
    ['2024-02-29T00:00:00Z', new Timestamp(1709164800, 0)],
    ['1969-12-31T23:59:59Z', new Timestamp(-1, 0)],
    ['0001-01-01T00:00:00Z', new Timestamp(-62135596800, 0)],
    ['', new Timestamp(0, 0)],
  ];
  for (const [s, t] of ok) assert.deepEqual(parseDateTime(s), t, s);
  for (const s of ['2024-03-01', '2024-03-01 12:00:00Z', '2024-03-01T12:00:00+0200', '2024-03-01T12:00+02:00', '2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-03-01T24:00:00Z', 'x']) {
    assert.equal(typeof parseDateTime(s), 'string', s);
  }
  assert.deepEqual(parseDate('2024-03-01'), new Timestamp(1709251200, 0));
  assert.equal(parseDate('2024-3-1'), 'parsing time "2024-3-1" as "2006-01-02": cannot parse "2024-3-1" as "2006-01-02"');
});

test('parseBase64: Go StdEncoding', () => {
  const text = (b: Uint8Array | string) => (typeof b === 'string' ? b : new TextDecoder().decode(b));
  assert.equal(text(parseBase64('aGVsbG8=')), 'hello');
  assert.equal(text(parseBase64('aGVsbG8h')), 'hello!');
  assert.equal(text(parseBase64('aGVs\nbG8=')), 'hello');
  assert.equal(text(parseBase64('')), '');
  assert.equal(parseBase64('aGVsbG8'), 'illegal base64 data at input byte 4');
  assert.equal(parseBase64('a'), 'illegal base64 data at input byte 0');
  assert.equal(parseBase64('aG='), 'illegal base64 data at input byte 3');
  assert.equal(parseBase64('aG=x'), 'illegal base64 data at input byte 2');
  assert.equal(parseBase64('aGVs='), 'illegal base64 data at input byte 4');
  assert.equal(parseBase64('aG==='), 'illegal base64 data at input byte 4');
  assert.equal(text(parseBase64('aG==')), 'h');
  assert.equal(text(parseBase64('aGU=\n')), 'he');
  assert.equal(parseBase64('aGV-bG8='), 'illegal base64 data at input byte 3');
  assert.equal(parseBase64('a==='), 'illegal base64 data at input byte 1');
  assert.equal(parseBase64('aGVsbG8=aGVs'), 'illegal base64 data at input byte 8');
});

test('goQuote: strconv.Quote', () => {
  const rows: [string, string][] = [
    ['abc', '"abc"'], ['a"b\\c', '"a\\"b\\\\c"'], ['\n\t\u0001\u007f', '"\\n\\t\\x01\\x7f"'], ['é😀', '"é😀"'], ['\u200b', '"\\u200b"'], ['a\ud800', '"a\ufffd"'], ['\u{e0001}', '"\\U000e0001"'],
  ];
  for (const [s, q] of rows) assert.equal(goQuote(s), q, s);
});
