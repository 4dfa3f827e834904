import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Deadlines } from './deadlines.js';

describe('Deadlines', () => {
  const table: { name: string; ops: ([ 'set', string, number ] | [ 'delete', string ])[]; at: number; due: string[]; left: number }[] = [
    { name: 'due keys in time order', ops: [['set', 'c', 30], ['set', 'a', 10], ['set', 'b', 20], ['set', 'd', 40]], at: 30, due: ['a', 'b', 'c'], left: 1 },
    { name: 'a moved key counts at its latest time', ops: [['set', 'a', 10], ['set', 'b', 20], ['set', 'a', 50]], at: 30, due: ['b'], left: 1 },
    { name: 'a key moved earlier', ops: [['set', 'a', 50], ['set', 'a', 5]], at: 10, due: ['a'], left: 0 },
    { name: 'deleted keys never come', ops: [['set', 'a', 10], ['set', 'b', 10], ['delete', 'a']], at: 100, due: ['b'], left: 0 },
    { name: 'nothing before its time', ops: [['set', 'a', 10]], at: 9, due: [], left: 1 },
  ];
  for (const c of table) {
    it(c.name, () => {
      const d = new Deadlines({ now: () => 0 }, () => {});
      for (const op of c.ops) (op[0] === 'set' ? d.set(op[1], op[2]) : d.delete(op[1]));
      assert.deepEqual(d.takeDue(c.at), c.due);
      assert.equal(d.size, c.left);
      d.stop();
    });
  }

  it('calls back with the keys due, from one timer', async () => {
    let now = 1000;
    const got: string[][] = [];
    const d = new Deadlines({ now: () => now }, (keys) => got.push(keys));
    d.set('x', 1000);
    d.set('y', 1000);
    d.set('later', 10_000_000);
    await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, [['x', 'y']]);
    assert.ok(d.has('later'));
    now = 2000;
    d.stop();
    assert.equal(d.size, 0);
  });
});
