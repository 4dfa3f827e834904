import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedHeap } from './heap.js';

type Item = { key: string; n: number };
const byN = () => new KeyedHeap<Item>((a, b) => a.n < b.n);
const drain = (h: KeyedHeap<Item>) => { const out: number[] = []; for (let x = h.pop(); x; x = h.pop()) out.push(x.n); return out; };

describe('KeyedHeap', () => {
  it('pops in order whatever the insertion order', () => {
    const h = byN();
    for (const n of [5, 3, 9, 1, 7, 2, 8, 6, 4, 0]) h.set(`k${n}`, { key: `k${n}`, n });
    assert.equal(h.size, 10);
    assert.deepEqual(drain(h), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(h.size, 0);
    assert.equal(h.pop(), undefined);
  });

  it('deletes and replaces by key, keeping the order', () => {
    const h = byN();
    for (let n = 0; n < 20; n++) h.set(`k${n}`, { key: `k${n}`, n });
    assert.ok(h.delete('k0'));
    assert.ok(h.delete('k13'));
    assert.ok(!h.delete('k13'));
    h.set('k19', { key: 'k19', n: -1 }); // replaced: moves to the front
    h.set('k1', { key: 'k1', n: 100 }); // replaced: moves to the back
    assert.equal(h.get('k5')?.n, 5);
    assert.ok(!h.has('k0'));
    assert.equal(h.peek()?.n, -1);
    assert.deepEqual(drain(h), [-1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 100]);
  });

  it('stays ordered under a random mix of operations (against a sorted array)', () => {
    const h = byN();
    const model = new Map<string, number>();
    let seed = 7;
    const rnd = (m: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % m);
    for (let step = 0; step < 5000; step++) {
      const op = rnd(4);
      const key = `k${rnd(200)}`;
      if (op < 2) { const n = rnd(1000); h.set(key, { key, n }); model.set(key, n); }
      else if (op === 2) { assert.equal(h.delete(key), model.delete(key)); }
      else if (model.size > 0) {
        const min = Math.min(...model.values());
        const top = h.pop()!;
        assert.equal(top.n, min);
        model.delete(top.key);
      }
      assert.equal(h.size, model.size);
    }
  });
});
