import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Double, Uint } from '../values.js';
import * as A from './arith.js';
import { throwsCel, u } from './testutil.js';

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);

test('int64 arithmetic', () => {
  const rows: [string, unknown, unknown][] = [
    ['1 + 2', A.addInt(1, 2), 3],
    ['safe overflow moves to bigint', A.addInt(Number.MAX_SAFE_INTEGER, 1), 2n ** 53n],
    ['bigint back to number', A.subInt(2n ** 53n, 1), Number.MAX_SAFE_INTEGER],
    ['max - 1', A.subInt(MAX, 1), MAX - 1n],
    ['mul big', A.mulInt(2 ** 31, 2 ** 31), 2n ** 62n],
    ['mul no -0', Object.is(A.mulInt(0, -5), 0), true],
    ['div truncates', A.divInt(-7, 2), -3],
    ['div no -0', Object.is(A.divInt(-1, 2), 0), true],
    ['div big', A.divInt(MAX, 2), MAX / 2n],
    ['mod sign of dividend', A.modInt(-7, 2), -1],
    ['mod no -0', Object.is(A.modInt(-4, 2), 0), true],
    ['mod big', A.modInt(MAX, 10), 7],
    ['neg', A.negInt(5), -5],
    ['neg 0', Object.is(A.negInt(0), 0), true],
    ['neg max', A.negInt(MAX), -MAX],
    ['min / 1', A.divInt(MIN, 1), MIN],
  ];
  for (const [name, got, want] of rows) assert.deepEqual(got, want, name);
});

test('int64 errors', () => {
  throwsCel(() => A.addInt(MAX, 1), 'integer overflow');
  throwsCel(() => A.subInt(MIN, 1), 'integer overflow');
  throwsCel(() => A.mulInt(MAX, 2), 'integer overflow');
  throwsCel(() => A.mulInt(MIN, -1), 'integer overflow');
  throwsCel(() => A.divInt(MIN, -1), 'integer overflow');
  throwsCel(() => A.modInt(MIN, -1), 'integer overflow');
  throwsCel(() => A.negInt(MIN), 'integer overflow');
  throwsCel(() => A.divInt(1, 0), 'division by zero');
  throwsCel(() => A.modInt(1, 0), 'modulus by zero');
});

test('uint64 arithmetic', () => {
  const U = 2n ** 64n - 1n;
  assert.deepEqual(A.addUint(u(1), u(2)), u(3));
  assert.deepEqual(A.addUint(u(U - 1n), u(1)), u(U));
  assert.deepEqual(A.subUint(u(U), u(U)), u(0));
  assert.deepEqual(A.mulUint(u(2n ** 32n), u(2n ** 31n)), u(2n ** 63n));
  assert.deepEqual(A.divUint(u(U), u(2)), u(U / 2n));
  assert.deepEqual(A.modUint(u(7), u(4)), u(3));
  throwsCel(() => A.addUint(u(U), u(1)), 'unsigned integer overflow');
  throwsCel(() => A.subUint(u(1), u(2)), 'unsigned integer overflow');
  throwsCel(() => A.mulUint(u(2n ** 32n), u(2n ** 32n)), 'unsigned integer overflow');
  throwsCel(() => A.divUint(u(1), u(0)), 'division by zero');
  throwsCel(() => A.modUint(u(1), u(0)), 'modulus by zero');
  assert.ok(A.addUint(u(1), u(1)) instanceof Uint);
});

test('double arithmetic follows IEEE 754', () => {
  assert.deepEqual(A.addDouble(new Double(0.5), 0.25), new Double(0.75));
  assert.deepEqual(A.divDouble(new Double(1), new Double(0)), new Double(Infinity));
  assert.ok(Number.isNaN(A.divDouble(new Double(0), new Double(0)).v));
  assert.deepEqual(A.negDouble(new Double(2)), new Double(-2));
  assert.deepEqual(A.mulDouble(new Double(3.5), new Double(40)), new Double(140));
  assert.deepEqual(A.subDouble(new Double(10.5), new Double(2)), new Double(8.5));
});

test('concatenation', () => {
  assert.deepEqual(A.concatBytes(new Uint8Array([1]), new Uint8Array([2, 3])), new Uint8Array([1, 2, 3]));
  assert.deepEqual(A.concatLists([1], [2, 3]), [1, 2, 3]);
  const l = [1];
  assert.equal(A.concatLists(l, []), l);
});
