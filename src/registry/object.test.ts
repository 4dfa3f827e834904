// deepEqual: the registry's comparison of stored objects (no-op updates, generation).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepEqual } from './object.js';

describe('deepEqual', () => {
  const rows: [string, unknown, unknown, boolean][] = [
    ['same scalars', 1, 1, true],
    ['different scalars', 1, '1', false],
    ['null and an object', null, {}, false],
    ['key order does not matter', { a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    ['a nested difference', { a: { b: [1, 2] } }, { a: { b: [1, 3] } }, false],
    ['a missing key', { a: 1, b: 2 }, { a: 1 }, false],
    ['an extra key', { a: 1 }, { a: 1, b: 2 }, false],
    ['undefined values count as absent', { a: 1, b: undefined }, { a: 1 }, true],
    ['undefined on the other side too', { a: 1 }, { a: 1, c: undefined }, true],
    ['an array is not an object', [1], { 0: 1 }, false],
    ['arrays of different lengths', [1, 2], [1], false],
    ['a key only the other inherits', { toString: 'x' }, {}, false],
  ];
  for (const [name, a, b, want] of rows) it(name, () => {
    assert.equal(deepEqual(a, b), want);
    assert.equal(deepEqual(b, a), want);
  });
});
