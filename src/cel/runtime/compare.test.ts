import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Duration, Timestamp } from '../values.js';
import { celCompare, compareStrings } from './compare.js';
import { d, throwsCel, u } from './testutil.js';

const rows: [string, unknown, unknown, number][] = [
  ['int < int', 1, 2, -1],
  ['int = int', 3, 3, 0],
  ['big int > int', 2n ** 62n, 5, 1],
  ['negative big < positive', -(2n ** 62n), 0, -1],
  ['int < uint', -1, u(0), -1],
  ['uint > int', u(2n ** 64n - 1n), 2n ** 63n - 1n, 1],
  ['int vs double', 1, d(1.1), -1],
  ['double vs int equal', d(2), 2, 0],
  ['double vs uint', d(-1), u(1), -1],
  ['double beyond int64', d(1e19), 2n ** 63n - 1n, 1],
  ['double vs double', d(2.4), d(2), 1],
  ['json double vs int', 2.5, 3, -1],
  ['strings', 'a', 'b', -1],
  ['strings prefix', 'ab', 'a', 1],
  ['strings by code point (U+FFFD < U+1F600)', '\ufffd', '😀', -1],
  ['bools', false, true, -1],
  ['bools equal', true, true, 0],
  ['bytes', new Uint8Array([1, 2]), new Uint8Array([1, 3]), -1],
  ['bytes prefix', new Uint8Array([1]), new Uint8Array([1, 0]), -1],
  ['timestamps by seconds', new Timestamp(1, 0), new Timestamp(2, 0), -1],
  ['timestamps by nanos', new Timestamp(1, 5), new Timestamp(1, 4), 1],
  ['durations', new Duration(-1n), new Duration(1n), -1],
];

test('celCompare', () => {
  for (const [name, a, b, want] of rows) {
    assert.equal(celCompare(a, b), want, name);
    assert.equal(celCompare(b, a), -want || 0, `${name} (reversed)`);
  }
});

test('celCompare errors', () => {
  throwsCel(() => celCompare(d(NaN), 1), 'NaN values cannot be ordered');
  throwsCel(() => celCompare(1, d(NaN)), 'NaN values cannot be ordered');
  throwsCel(() => celCompare(u(1), d(NaN)), 'NaN values cannot be ordered');
  throwsCel(() => celCompare('a', 1), 'no such overload');
  throwsCel(() => celCompare(true, 1), 'no such overload');
  throwsCel(() => celCompare(null, null), 'no such overload');
  throwsCel(() => celCompare([1], [2]), 'no such overload');
  throwsCel(() => celCompare(new Timestamp(0, 0), new Duration(0n)), 'no such overload');
});

test('compareStrings orders by code point, not UTF-16 unit', () => {
  assert.equal(compareStrings('\uffff', '\u{10000}'), -1); // JS '<' says the opposite
  assert.equal(compareStrings('\u{10000}', '\u{10001}'), -1);
  assert.equal(compareStrings('', ''), 0);
});
