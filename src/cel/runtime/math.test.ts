import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Double } from '../values.js';
import * as M from './math.js';
import { d, throwsCel, u } from './testutil.js';

test('greatest and least over mixed numerics and lists', () => {
  assert.deepEqual(M.greatest([1]), 1);
  assert.deepEqual(M.greatest([u(1), u(2)]), u(2));
  assert.deepEqual(M.greatest([d(-42), d(-21.5), d(-100)]), d(-21.5));
  assert.deepEqual(M.greatest([[d(-42), d(-21.5), d(-100)]]), d(-21.5));
  assert.deepEqual(M.greatest([1, d(1.5), u(2)]), u(2));
  assert.deepEqual(M.least([[5, u(3), d(4.5)]]), u(3));
  assert.deepEqual(M.least([-1, u(0)]), -1);
  assert.deepEqual(M.greatest([d(1), 1]), d(1)); // ties keep the first
  throwsCel(() => M.greatest([[]]), 'math.@max(list) argument must not be empty');
  throwsCel(() => M.least([[]]), 'math.@min(list) argument must not be empty');
  throwsCel(() => M.greatest([1, 'a']), 'no such overload: math.@max');
  throwsCel(() => M.least([['a']]), 'no such overload: math.@min');
  throwsCel(() => M.greatest([d(NaN), 1]), 'NaN values cannot be ordered: math.@max');
});

test('rounding, abs, sign, predicates, sqrt', () => {
  const rows: [string, unknown, unknown][] = [
    ['ceil', M.ceil(d(1.2)), d(2)],
    ['floor', M.floor(d(-1.2)), d(-2)],
    ['round half away from zero', M.round(d(-2.5)), d(-3)],
    ['round half up', M.round(d(2.5)), d(3)],
    ['round', M.round(d(1.4)), d(1)],
    ['trunc', M.trunc(d(-1.9)), d(-1)],
    ['abs double', M.absDouble(d(-1.5)), d(1.5)],
    ['abs int', M.absInt(-5), 5],
    ['abs big int', M.absInt(-(2n ** 62n)), 2n ** 62n],
    ['sign double', M.signDouble(d(-0.5)), d(-1)],
    ['sign zero', M.signDouble(d(0)), d(0)],
    ['sign int', M.signInt(-9), -1],
    ['sign big int', M.signInt(2n ** 62n), 1],
    ['sign uint', M.signUint(u(5)), u(1)],
    ['sign uint zero', M.signUint(u(0)), u(0)],
    ['isInf', M.isInf(d(-Infinity)), true],
    ['isNaN', M.isNaN(d(NaN)), true],
    ['isFinite', M.isFinite(d(Infinity)), false],
    ['sqrt int', M.sqrt(81), d(9)],
    ['sqrt uint', M.sqrt(u(4)), d(2)],
    ['sqrt negative', Number.isNaN((M.sqrt(d(-1)) as Double).v), true],
  ];
  for (const [name, got, want] of rows) assert.deepEqual(got, want, name);
  assert.ok(Number.isNaN(M.signDouble(d(NaN)).v));
  throwsCel(() => M.absInt(-(2n ** 63n)), 'integer overflow');
});

test('bitwise operations as int64/uint64', () => {
  const rows: [string, unknown, unknown][] = [
    ['and', M.bitAndInt(3, 5), 1],
    ['or', M.bitOrInt(3, 5), 7],
    ['xor', M.bitXorInt(3, 5), 6],
    ['not', M.bitNotInt(1), -2],
    ['not big', M.bitNotInt(2n ** 62n), -(2n ** 62n) - 1n],
    ['and big', M.bitAndInt(-1, 2n ** 62n), 2n ** 62n],
    ['and uint', M.bitAndUint(u(3), u(5)), u(1)],
    ['not uint', M.bitNotUint(u(0)), u(2n ** 64n - 1n)],
    ['xor uint', M.bitXorUint(u(2n ** 64n - 1n), u(1)), u(2n ** 64n - 2n)],
    ['shl', M.bitShiftLeftInt(1, 2), 4],
    ['shl into sign bit', M.bitShiftLeftInt(1, 63), -(2n ** 63n)],
    ['shl 64 is 0', M.bitShiftLeftInt(1, 64), 0],
    ['shl 200 is 0', M.bitShiftLeftInt(1, 200), 0],
    ['shr negative is logical', M.bitShiftRightInt(-1024, 3), 2n ** 61n - 128n],
    ['shr', M.bitShiftRightInt(1024, 3), 128],
    ['shl uint', M.bitShiftLeftUint(u(1), 63), u(2n ** 63n)],
    ['shl uint wraps', M.bitShiftLeftUint(u(2n ** 63n), 1), u(0)],
    ['shr uint', M.bitShiftRightUint(u(1024), 3), u(128)],
    ['shr uint 64', M.bitShiftRightUint(u(1024), 64), u(0)],
  ];
  for (const [name, got, want] of rows) assert.deepEqual(got, want, name);
  throwsCel(() => M.bitShiftLeftUint(u(1), -1), 'math.bitShiftLeft() negative offset: -1');
  throwsCel(() => M.bitShiftRightInt(1, -2), 'math.bitShiftRight() negative offset: -2');
});
