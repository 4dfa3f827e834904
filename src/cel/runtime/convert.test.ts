import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Double, Duration, Timestamp, TypeValue } from '../values.js';
import * as C from './convert.js';
import { d, throwsCel, u } from './testutil.js';

// Rows follow the conformance suite's `conversions` section (cel-spec).
test('int()', () => {
  const rows: [unknown, unknown][] = [
    [u(42), 42],
    [u(2n ** 63n - 1n), 2n ** 63n - 1n],
    [d(-123.456), -123],
    [d(1.9), 1],
    [d(-7.9), -7],
    [d(11.5), 11],
    [d(-3.5), -3],
    [d(36028797018963968), 36028797018963968n],
    ['987', 987],
    ['-0', 0],
    ['0012', 12],
    ['9223372036854775807', 2n ** 63n - 1n],
    ['-9223372036854775808', -(2n ** 63n)],
    [new Timestamp(1095379199, 0), 1095379199],
    [new Duration(1_000_000_000n), 1_000_000_000],
    [new Duration(2n ** 62n), 2n ** 62n],
    [2n ** 60n, 2n ** 60n],
  ];
  for (const [v, want] of rows) assert.deepEqual(C.toInt(v), want, String(v));
  throwsCel(() => C.toInt(u(2n ** 64n - 1n)), 'integer overflow');
  throwsCel(() => C.toInt(d(9223372036854775807)), 'integer overflow');
  throwsCel(() => C.toInt(d(-9223372036854775808)), 'integer overflow');
  throwsCel(() => C.toInt(d(1e99)), 'integer overflow');
  throwsCel(() => C.toInt(d(NaN)), 'integer overflow');
  throwsCel(() => C.toInt('9223372036854775808'), "type conversion error from 'string' to 'int'");
  throwsCel(() => C.toInt('1.0'), "type conversion error from 'string' to 'int'");
  throwsCel(() => C.toInt(' 1'), "type conversion error from 'string' to 'int'");
  throwsCel(() => C.toInt('1_000'), "type conversion error from 'string' to 'int'");
});

test('uint()', () => {
  const rows: [unknown, unknown][] = [
    [1729, u(1729)],
    [2n ** 63n - 1n, u(2n ** 63n - 1n)],
    [d(3.14159265), u(3)],
    [d(25.5), u(25)],
    [d(-0.0), u(0)],
    [d(36028797018963968), u(36028797018963968n)],
    ['300', u(300)],
    ['18446744073709551615', u(2n ** 64n - 1n)],
  ];
  for (const [v, want] of rows) assert.deepEqual(C.toUint(v), want, String(v));
  throwsCel(() => C.toUint(-1), 'unsigned integer overflow');
  throwsCel(() => C.toUint(d(-0.5)), 'unsigned integer overflow');
  throwsCel(() => C.toUint(d(6.022e23)), 'unsigned integer overflow');
  throwsCel(() => C.toUint(d(18446744073709551615)), 'unsigned integer overflow');
  throwsCel(() => C.toUint('-1'), "type conversion error from 'string' to 'uint'");
  throwsCel(() => C.toUint('+1'), "type conversion error from 'string' to 'uint'");
  throwsCel(() => C.toUint('18446744073709551616'), "type conversion error from 'string' to 'uint'");
});

test('double()', () => {
  const rows: [unknown, number][] = [
    [0, 0],
    [1000000000000, 1000000000000],
    [2n ** 63n - 1n, 9223372036854775807],
    [u(2n ** 64n - 1n), 18446744073709551615],
    ['0', 0],
    ['-0.0', -0],
    ['123.456', 123.456],
    ['6.02214e23', 6.02214e23],
    ['-84.32e7', -843200000],
    ['.5', 0.5],
    ['5.', 5],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['0x1.8p1', 3],
    ['-0x10p-4', -1],
  ];
  for (const [v, want] of rows) assert.deepEqual(C.toDouble(v), new Double(want), String(v));
  assert.ok(Number.isNaN(C.toDouble('NaN').v));
  throwsCel(() => C.toDouble('1e400'), "type conversion error from 'string' to 'double'");
  throwsCel(() => C.toDouble('abc'), "type conversion error from 'string' to 'double'");
  throwsCel(() => C.toDouble(''), "type conversion error from 'string' to 'double'");
});

test('string()', () => {
  const rows: [unknown, string][] = [
    [123, '123'],
    [-456, '-456'],
    [u(9876), '9876'],
    [d(123.456), '123.456'],
    [d(-4.5e-3), '-0.0045'],
    [d(-1.23e4), '-12300'],
    [d(1e6), '1e+06'],
    [d(1e-5), '1e-05'],
    [d(Infinity), '+Inf'],
    [new Uint8Array([97, 98, 99]), 'abc'],
    [new Uint8Array([0xc3, 0xbf]), 'ÿ'],
    [true, 'true'],
    [new Timestamp(1234567890, 0), '2009-02-13T23:31:30Z'],
    [new Duration(1_000_000_000_000_000n), '1000000s'],
    [new Duration(1_500_000_000n), '1.5s'],
    [new Duration(-1n), '-0.000000001s'],
  ];
  for (const [v, want] of rows) assert.equal(C.toString(v), want, String(v));
  throwsCel(() => C.toString(new Uint8Array([0, 0xff])), 'invalid UTF-8 in bytes, cannot convert to string');
  throwsCel(() => C.toString(new Uint8Array([0xed, 0xa0, 0x80])), 'invalid UTF-8 in bytes, cannot convert to string');
});

test('bool(), bytes(), dyn(), type()', () => {
  for (const s of ['1', 't', 'T', 'true', 'TRUE', 'True']) assert.equal(C.toBool(s), true, s);
  for (const s of ['0', 'f', 'F', 'false', 'FALSE', 'False']) assert.equal(C.toBool(s), false, s);
  throwsCel(() => C.toBool('TrUe'), "type conversion error from 'string' to 'bool'");
  assert.deepEqual(C.toBytes('ÿ'), new Uint8Array([0xc3, 0xbf]));
  assert.deepEqual(C.toBytes(''), new Uint8Array([]));
  assert.equal(C.toDyn(5), 5);
  assert.deepEqual(C.toType(1), new TypeValue('int'));
  assert.deepEqual(C.toType(C.toType(1)), new TypeValue('type'));
});

test('timestamp() and duration()', () => {
  assert.deepEqual(C.toTimestamp(1000000000), new Timestamp(1000000000, 0));
  throwsCel(() => C.toTimestamp(253402300800), 'timestamp overflow');
  assert.deepEqual(C.toDuration('100s'), new Duration(100_000_000_000n));
});
