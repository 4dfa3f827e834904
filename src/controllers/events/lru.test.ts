import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruCache } from './lru.js';

describe('LruCache', () => {
  it('drops the least recently used entry past its bound; get refreshes an entry', () => {
    const l = new LruCache<string, number>(2);
    l.add('a', 1);
    l.add('b', 2);
    assert.equal(l.get('a'), 1);
    l.add('c', 3);
    assert.equal(l.has('b'), false);
    assert.equal(l.get('a'), 1);
    assert.equal(l.get('c'), 3);
    assert.equal(l.size, 2);
  });
  it('refuses a bound below 1', () => assert.throws(() => new LruCache(0), RangeError));
});
