import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CelError } from '../values.js';
import { inList, inMap, indexList, indexMap, size } from './containers.js';
import { celMapInsert, mapKeys, mapWith, mapWithAll } from './maps.js';
import { cm, d, throwsCel, u } from './testutil.js';

test('list indexing', () => {
  assert.equal(indexList(['a', 'b'], 1), 'b');
  assert.equal(indexList(['a', 'b'], u(0)), 'a');
  assert.equal(indexList(['a', 'b'], d(1)), 'b');
  throwsCel(() => indexList([1, 2, 3], 3), "index '3' out of range in list size '3'");
  throwsCel(() => indexList([1], -1), "index '-1' out of range in list size '1'");
  throwsCel(() => indexList([1], 2n ** 60n), `index '${2n ** 60n}' out of range in list size '1'`);
  throwsCel(() => indexList([1], d(0.5)), 'unsupported index value 0.5 in list');
  throwsCel(() => indexList([1], 'a'), "unsupported index type 'string' in list");
});

test('map indexing with heterogeneous numeric keys', () => {
  const m = cm([1, 'one'], [u(2), 'two'], ['k', 'v'], [true, 'yes']);
  assert.equal(indexMap(m, 1), 'one');
  assert.equal(indexMap(m, u(1)), 'one');
  assert.equal(indexMap(m, d(1)), 'one');
  assert.equal(indexMap(m, 2), 'two');
  assert.equal(indexMap(m, 'k'), 'v');
  assert.equal(indexMap(m, true), 'yes');
  assert.equal(indexMap(cm([2n ** 60n, 'big']), 2 ** 60), 'big'); // a JSON int beyond 2^53
  throwsCel(() => indexMap(m, d(1.5)), 'no such key: 1.5');
  throwsCel(() => indexMap(m, 'x'), 'no such key: x');
  const plain = { a: 1, toString: 2 };
  assert.equal(indexMap(plain, 'a'), 1);
  assert.equal(indexMap(plain, 'toString'), 2);
  throwsCel(() => indexMap({ a: 1 }, 'constructor'), 'no such key: constructor');
  throwsCel(() => indexMap({ a: 1 }, 1), 'no such key: 1');
});

test('membership and size', () => {
  assert.equal(inList(2, [1, u(2), 3]), true);
  assert.equal(inList(d(3), [1, 2, 3]), true);
  assert.equal(inList('a', ['b', 'c']), false);
  assert.equal(inMap('key1', { key1: 1 }), true);
  assert.equal(inMap(3, cm([1, 'one'], [2, 'two'])), false);
  assert.equal(inMap(u(2), cm([1, 'one'], [2, 'two'])), true);
  assert.equal(inMap(1, { 1: 'json keys are strings' }), false);
  assert.equal(size('a😀'), 2);
  assert.equal(size(new Uint8Array(3)), 3);
  assert.equal(size([1, 2]), 2);
  assert.equal(size({ a: 1, b: 2 }), 2);
  assert.equal(size(cm([1, 1])), 1);
  throwsCel(() => size(1), 'no such overload');
});

test('map literals reject repeated and invalid keys', () => {
  throwsCel(() => cm([1, 'a'], [u(1), 'b']), 'insert failed: key 1 already exists');
  throwsCel(() => cm([d(1.5), 'a']), 'unsupported key type');
  throwsCel(() => cm([null, 'a']), 'unsupported key type');
  const m = cm(['b', 1], [u(3), 2]);
  celMapInsert(m, false, 3);
  assert.deepEqual(mapKeys(m), ['b', u(3), false]);
  assert.ok(!(mapKeys({ x: 1 })[0] instanceof CelError));
});

test('map insertion for transformMap (copies; repeated keys are errors)', () => {
  const m = { a: 1 };
  const m2 = mapWith(m, 'b', 2);
  assert.equal(indexMap(m2, 'a'), 1);
  assert.equal(indexMap(m2, 'b'), 2);
  assert.deepEqual(m, { a: 1 });
  const m3 = mapWith(cm([1, 'x']), u(2), 'y');
  assert.equal(indexMap(m3, 2), 'y');
  throwsCel(() => mapWith(m2, 'a', 3), 'insert failed: key a already exists');
  throwsCel(() => mapWith(cm([1, 'x']), d(1), 'y'), 'insert failed: key 1 already exists');
  assert.equal(size(mapWithAll({ a: 1 }, cm(['b', 2], ['c', 3]))), 3);
  throwsCel(() => mapWithAll({ a: 1 }, { a: 2 }), 'insert failed: key a already exists');
});
