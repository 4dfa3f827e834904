import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Duration, Timestamp, TypeValue } from '../values.js';
import { stringFormat } from './format.js';
import { cm, d, throwsCel, u } from './testutil.js';

// Rows from the conformance suite's string_ext/format and format_errors.
test('string.format', () => {
  const rows: [string, unknown[], string][] = [
    ['no substitution', [], 'no substitution'],
    ['%% and also %%', [], '% and also %'],
    ['%%%s%%', ['text'], '%text%'],
    ['%d %d %d, %s %s %s', [1, 2, 3, 'A', 'B', 'C'], '1 2 3, A B C'],
    ['%.3f', [d(1.2345)], '1.234'],
    ['%b', [5], '101'],
    ['%b', [u(64)], '1000000'],
    ['%b', [true], '1'],
    ['%o', [11], '13'],
    ['%o', [u(65535)], '177777'],
    ['%x', [30], '1e'],
    ['%X', [30], '1E'],
    ['%X', [u(6000)], '1770'],
    ['%x', ['Hello world!'], '48656c6c6f20776f726c6421'],
    ['%X', [new Uint8Array([98, 121, 116, 101])], '62797465'],
    ['%.6e', [d(1052.032911275)], '1.052033e+03'],
    ['%f', [d(2.71828)], '2.718280'],
    ['%e', [d(2.71828)], '2.718280e+00'],
    ['%e', [d(NaN)], 'NaN'],
    ['%e', [d(Infinity)], 'Infinity'],
    ['%d', [d(-Infinity)], '-Infinity'],
    ['%f', [d(NaN)], 'NaN'],
    ['%d', [u(64)], '64'],
    ['%s', [null], 'null'],
    ['%s', [999999999999], '999999999999'],
    ['%s', [new Uint8Array([120, 121, 122])], 'xyz'],
    ['%s', [new TypeValue('string')], 'string'],
    ['%s', [new Timestamp(1675467080, 0)], '2023-02-03T23:31:20Z'],
    ['%s', [new Duration(6347_000_000_000n)], '6347s'],
    ['%s', [['abc', d(3.14), null, [9, 8, 7, 6], new Timestamp(1675467080, 0)]], '[abc, 3.14, null, [9, 8, 7, 6], 2023-02-03T23:31:20Z]'],
    ['%s', [{ key1: new Uint8Array([120, 121, 122]), key5: null, key2: new Duration(7200_000_000_000n), key4: true, key3: d(2.71828) }], '{key1: xyz, key2: 7200s, key3: 2.71828, key4: true, key5: null}'],
    ['%s', [cm([1, 'value1'], [u(2), 'value2'], [true, d(NaN)])], '{1: value1, 2: value2, true: NaN}'],
    ['%s', [cm(['strKey', 'x'], [6, new Duration(422_000_000_000n)], [true, 42])], '{6: 422s, strKey: x, true: 42}'],
    ['%s, %s', [32, d(56.8)], '32, 56.8'],
    ['%.3f', [d(4.5)], '4.500'],
    ['%.0f', [d(123)], '123'],
    ['%.0f', [d(3.5001)], '4'],
    ['%.0f', [d(1.5)], '2'],
    ['%.0f', [d(2.5)], '2'],
    ['%.3f', [d(-123.4999)], '-123.500'],
    ['%.5f', [d(-1.2)], '-1.20000'],
    ['%.2f', [7], '7.00'],
  ];
  for (const [fmt, args, want] of rows) assert.equal(stringFormat(fmt, args), want, `${fmt} ${String(args)}`);
});

test('string.format errors', () => {
  throwsCel(() => stringFormat('%a', [1]), 'could not parse formatting clause: unrecognized formatting clause "a"');
  throwsCel(() => stringFormat('%E', [d(0.5)]), 'could not parse formatting clause: unrecognized formatting clause "E"');
  throwsCel(() => stringFormat('%d %d %d', [0, 1]), 'index 2 out of range');
  throwsCel(() => stringFormat('%b', ['abc']), 'error during formatting: only ints, uints, and bools can be formatted as binary, was given string');
  throwsCel(
    () => stringFormat('%d', [new Duration(1n)]),
    'error during formatting: decimal clause can only be used on ints, uints, and doubles, was given google.protobuf.Duration',
  );
  throwsCel(() => stringFormat('%o', ['s']), 'error during formatting: octal clause can only be used on ints and uints, was given string');
  throwsCel(() => stringFormat('%x', [d(0.5)]), 'error during formatting: only ints, uints, bytes, and strings can be formatted as hex, was given double');
  throwsCel(() => stringFormat('%e', [null]), 'error during formatting: scientific clause can only be used on ints, uints, and doubles, was given null_type');
  throwsCel(() => stringFormat('%f', [null]), 'error during formatting: fixed-point clause can only be used on ints, uints, and doubles, was given null_type');
});
