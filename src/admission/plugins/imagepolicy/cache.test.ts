// The decision cache: per-entry expiry, recency on read, the least recently used entry evicted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExpiringLru } from './cache.js';

describe('ExpiringLru', () => {
  it('expires each entry at its own TTL; a read does not extend it', () => {
    let now = 0;
    const c = new ExpiringLru<string>(10, () => now);
    c.set('a', 'A', 100);
    c.set('b', 'B', 10);
    now = 9;
    assert.equal(c.get('b'), 'B');
    now = 10;
    assert.equal(c.get('b'), undefined);
    assert.equal(c.get('a'), 'A');
    now = 100;
    assert.equal(c.get('a'), undefined);
    c.set('z', 'Z', 0);
    assert.equal(c.size, 0, 'ttl 0 keeps nothing');
  });
  it('evicts the least recently used entry when full', () => {
    const c = new ExpiringLru<number>(2, () => 0);
    c.set('a', 1, 100);
    c.set('b', 2, 100);
    assert.equal(c.get('a'), 1); // a is now the most recent
    c.set('c', 3, 100);
    assert.deepEqual([c.get('a'), c.get('b'), c.get('c')], [1, undefined, 3]);
  });
});
