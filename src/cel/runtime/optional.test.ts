import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Duration, Optional, Timestamp } from '../values.js';
import * as O from './optional.js';
import { cm, d, throwsCel, u } from './testutil.js';

test('ofNonZeroValue treats zero values as none', () => {
  const zeros = [null, false, 0, u(0), d(0), '', new Uint8Array(), [], {}, cm(), new Duration(0n), new Timestamp(-62135596800, 0)];
  for (const z of zeros) assert.equal(O.optionalOfNonZeroValue(z), Optional.none, String(z));
  const values = [true, 1, 2n ** 60n, u(1), d(0.5), 'a', new Uint8Array(1), [0], { a: 0 }, new Duration(1n), new Timestamp(0, 0)];
  for (const v of values) assert.deepEqual(O.optionalOfNonZeroValue(v), Optional.of(v), String(v));
});

test('optional accessors and indexing', () => {
  assert.equal(O.optionalValue(Optional.of(5)), 5);
  throwsCel(() => O.optionalValue(Optional.none), 'optional.none() dereference');
  assert.equal(O.optionalHasValue(Optional.none), false);
  assert.deepEqual(O.optionalOr(Optional.none, Optional.of(2)), Optional.of(2));
  assert.deepEqual(O.optionalOr(Optional.of(1), Optional.of(2)), Optional.of(1));
  assert.equal(O.optionalOrValue(Optional.none, 7), 7);
  assert.deepEqual(O.listOptIndex([1, 2], 1), Optional.of(2));
  assert.equal(O.listOptIndex([1, 2], 2), Optional.none);
  assert.equal(O.listOptIndex([1, 2], -1), Optional.none);
  assert.deepEqual(O.mapOptIndex({ a: 1 }, 'a'), Optional.of(1));
  assert.equal(O.mapOptIndex({ a: 1 }, 'b'), Optional.none);
  assert.deepEqual(O.optionalIndex(Optional.of([1]), 0), Optional.of(1));
  assert.equal(O.optionalIndex(Optional.none, 0), Optional.none);
  assert.deepEqual(O.listFirst([1, 2]), Optional.of(1));
  assert.deepEqual(O.listLast([1, 2]), Optional.of(2));
  assert.equal(O.listFirst([]), Optional.none);
  assert.deepEqual(O.optionalUnwrap([Optional.of(1), Optional.none, Optional.of(3)]), [1, 3]);
  throwsCel(() => O.optionalUnwrap([1]), 'value 1 is not optional');
});
