import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Lru } from './lru.js';

describe('LRU of buckets', () => {
  it('evicts the least recently used key when a new one comes past the size', () => {
    const lru = new Lru<string, number>(2);
    let made = 0;
    const get = (k: string) => lru.getOrAdd(k, () => ++made);
    assert.equal(get('a'), 1);
    assert.equal(get('b'), 2);
    assert.equal(get('a'), 1, 'a used again: b is now the oldest');
    assert.equal(get('c'), 3);
    assert.equal(lru.has('b'), false);
    assert.equal(lru.has('a'), true);
    assert.equal(lru.length, 2);
    assert.equal(get('b'), 4, 'b comes back new');
    assert.equal(lru.has('a'), false, 'a was the oldest then');
  });

  it('a get of a present key refreshes it; of an absent one adds nothing', () => {
    const lru = new Lru<string, number>(2);
    lru.getOrAdd('a', () => 1);
    lru.getOrAdd('b', () => 2);
    assert.equal(lru.get('a'), 1);
    assert.equal(lru.get('zzz'), undefined);
    lru.getOrAdd('c', () => 3);
    assert.deepEqual([lru.has('a'), lru.has('b'), lru.has('c')], [true, false, true]);
  });

  for (const size of [0, -1, 1.5]) {
    it(`refuses size ${size}`, () => assert.throws(() => new Lru(size), RangeError));
  }
});
