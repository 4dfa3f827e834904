// deepEqual: the registry's comparison of stored objects (no-op updates, generation); deepFreeze: what shared objects are made; nowTimestamp: creation and condition times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepEqual, deepFreeze, nowTimestamp } from './object.js';

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

describe('deepFreeze', () => {
  const rows: [string, () => unknown, (v: any) => unknown[]][] = [
    ['an object, its nested objects and arrays', () => ({ a: { b: [{ c: 1 }, [2, { d: 3 }]] }, e: null }), (v) => [v, v.a, v.a.b, v.a.b[0], v.a.b[1], v.a.b[1][1]]],
    ['an array at the top', () => [{ a: 1 }, [{ b: 2 }]], (v) => [v, v[0], v[1], v[1][0]]],
    ['a __proto__ key of decoded JSON', () => JSON.parse('{"__proto__":{"x":{"y":1}}}'), (v) => [v, Object.getOwnPropertyDescriptor(v, '__proto__')!.value, Object.getOwnPropertyDescriptor(v, '__proto__')!.value.x]],
  ];
  for (const [name, make, parts] of rows) it(name, () => {
    const v = make();
    assert.equal(deepFreeze(v), v);
    for (const p of parts(v)) assert.ok(Object.isFrozen(p));
  });
  it('scalars and null pass through', () => {
    for (const s of [1, 'a', true, null, undefined]) assert.equal(deepFreeze(s), s);
  });
});

describe('nowTimestamp', () => {
  const rows: [string, number, string][] = [
    ['a whole second', Date.UTC(2024, 0, 2, 3, 4, 5), '2024-01-02T03:04:05Z'],
    ['the same second again', Date.UTC(2024, 0, 2, 3, 4, 5) + 999, '2024-01-02T03:04:05Z'],
    ['the next second', Date.UTC(2024, 0, 2, 3, 4, 6) + 1, '2024-01-02T03:04:06Z'],
    ['an earlier second', Date.UTC(1999, 11, 31, 23, 59, 59) + 500, '1999-12-31T23:59:59Z'],
    ['back to a later one', Date.UTC(2024, 0, 2, 3, 4, 5), '2024-01-02T03:04:05Z'],
  ];
  for (const [name, ms, want] of rows) it(name, () => assert.equal(nowTimestamp(ms), want));
});
