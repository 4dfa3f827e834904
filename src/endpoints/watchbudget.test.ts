// Which watches the budget closes when clients fall behind (table-driven, in memory).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WatchBudget, type BudgetedWatch } from './watchbudget.js';

interface Case {
  name: string;
  perWatch: number;
  total: number;
  /** Watches are named a, b, c… in the order they were added; each step sets one watch's unsent bytes. */
  watches: number;
  steps: [string, number][];
  closed: string[];
  buffered: number;
}

const cases: Case[] = [
  { name: 'under both caps nothing is closed', perWatch: 100, total: 250, watches: 3, steps: [['a', 90], ['b', 80], ['c', 70]], closed: [], buffered: 240 },
  { name: 'one watch over its own cap is closed', perWatch: 100, total: 1000, watches: 2, steps: [['a', 50], ['b', 101]], closed: ['b'], buffered: 50 },
  { name: 'over the total: the slowest goes first', perWatch: 100, total: 200, watches: 3, steps: [['a', 60], ['b', 90], ['c', 70]], closed: ['b'], buffered: 130 },
  { name: 'over the total: as many as needed, slowest first', perWatch: 1000, total: 60, watches: 4, steps: [['a', 10], ['b', 40], ['c', 30], ['d', 50]], closed: ['b', 'd'], buffered: 40 },
  { name: 'equally slow: the oldest goes first', perWatch: 100, total: 150, watches: 3, steps: [['c', 60], ['b', 60], ['a', 60]], closed: ['a'], buffered: 120 },
  { name: 'a drained watch frees its share', perWatch: 100, total: 150, watches: 2, steps: [['a', 90], ['a', 0], ['b', 90], ['a', 50]], closed: [], buffered: 140 },
];

for (const c of cases) {
  test(`WatchBudget: ${c.name}`, () => {
    const closed: string[] = [];
    const logs: string[] = [];
    const budget = new WatchBudget(c.perWatch, c.total, (line) => logs.push(line));
    const byName = new Map<string, BudgetedWatch>();
    for (let i = 0; i < c.watches; i++) {
      const name = String.fromCharCode(97 + i);
      const w: BudgetedWatch = { buffered: 0, name, close: () => closed.push(name) };
      byName.set(name, w);
      budget.add(w);
    }
    for (const [name, bytes] of c.steps) budget.update(byName.get(name)!, bytes);
    assert.deepEqual(closed, c.closed);
    assert.equal(budget.buffered, c.buffered);
    assert.equal(budget.size, c.watches - c.closed.length);
    assert.equal(logs.length, c.closed.length);
    for (const [i, name] of c.closed.entries()) assert.match(logs[i]!, new RegExp(`closing the watch ${name} as unresponsive`));
  });
}

test('WatchBudget: a removed watch no longer counts and is not closed', () => {
  const closed: string[] = [];
  const budget = new WatchBudget(100, 100, () => {});
  const a: BudgetedWatch = { buffered: 0, name: 'a', close: () => closed.push('a') };
  const b: BudgetedWatch = { buffered: 0, name: 'b', close: () => closed.push('b') };
  budget.add(a);
  budget.add(b);
  budget.update(a, 80);
  budget.remove(a);
  budget.update(a, 500);
  budget.update(b, 90);
  assert.deepEqual(closed, []);
  assert.equal(budget.buffered, 90);
});
