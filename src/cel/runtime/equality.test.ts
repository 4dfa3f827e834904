import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Duration, Optional, Timestamp, TypeValue } from '../values.js';
import { celEquals } from './equality.js';
import { cm, d, u } from './testutil.js';

const rows: [string, unknown, unknown, boolean][] = [
  ['int == int', 1, 1, true],
  ['int != int', 1, 2, false],
  ['int == uint', 1, u(1), true],
  ['int == double', 1, d(1), true],
  ['uint == double', u(2), d(2), true],
  ['double == int (fraction)', d(1.5), 1, false],
  ['json non-integral number is a double', 1.5, d(1.5), true],
  ['big int == big int', 2n ** 60n, 2n ** 60n, true],
  ['big int == big uint', 2n ** 60n, u(2n ** 60n), true],
  ['big int == double (as cel-go: int converted to double)', 2n ** 60n + 1n, d(2 ** 60), true],
  ['int max == 2^63 double (cel-go rounds the int)', 2n ** 63n - 1n, d(2 ** 63), true],
  ['negative int != uint', -1, u(2n ** 64n - 1n), false],
  ['JSON int beyond 2^53 == bigint int', 2 ** 60, 2n ** 60n, true],
  ['JSON int beyond 2^53 == uint', 2 ** 60, u(2n ** 60n), true],
  ['JSON int beyond 2^53 != other bigint', 2 ** 60, 2n ** 60n + 1n, false],
  ['NaN != NaN', d(NaN), d(NaN), false],
  ['int != NaN', 1, d(NaN), false],
  ['string', 'a', 'a', true],
  ['string vs int', '1', 1, false],
  ['bool', true, true, true],
  ['bool vs int', true, 1, false],
  ['null', null, null, true],
  ['null vs 0', null, 0, false],
  ['bytes', new Uint8Array([1, 2]), new Uint8Array([1, 2]), true],
  ['bytes differ', new Uint8Array([1, 2]), new Uint8Array([1, 3]), false],
  ['bytes vs string', new Uint8Array([97]), 'a', false],
  ['lists element-wise heterogeneous', [1, 'a', [u(2)]], [d(1), 'a', [2]], true],
  ['lists differ in length', [1], [1, 2], false],
  ['list vs map', [], {}, false],
  ['plain maps', { a: 1, b: [2] }, { b: [2], a: 1 }, true],
  ['plain map vs CelMap', { a: 1 }, cm(['a', d(1)]), true],
  ['CelMap numeric keys heterogeneous', cm([1, 'x'], [u(2), 'y']), cm([u(1), 'x'], [2, 'y']), true],
  ['maps differ in value', { a: 1 }, { a: 2 }, false],
  ['maps differ in keys', { a: 1 }, { b: 1 }, false],
  ['maps differ in size', { a: 1 }, { a: 1, b: 2 }, false],
  ['timestamps', new Timestamp(10, 5), new Timestamp(10, 5), true],
  ['timestamps differ in nanos', new Timestamp(10, 5), new Timestamp(10, 6), false],
  ['durations', new Duration(1000n), new Duration(1000n), true],
  ['duration vs timestamp', new Duration(0n), new Timestamp(0, 0), false],
  ['types', new TypeValue('int'), new TypeValue('int'), true],
  ['types differ', new TypeValue('int'), new TypeValue('uint'), false],
  ['optionals none', Optional.none, Optional.none, true],
  ['optionals of equal values', Optional.of(1), Optional.of(d(1)), true],
  ['optional vs none', Optional.of(1), Optional.none, false],
];

test('celEquals', () => {
  for (const [name, a, b, want] of rows) {
    assert.equal(celEquals(a, b), want, `${name}: a == b`);
    assert.equal(celEquals(b, a), want, `${name}: b == a`);
  }
});
