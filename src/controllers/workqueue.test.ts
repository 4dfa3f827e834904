// The controllers' work queue: order, one sync at a time (or `workers` at once, never a key twice), retries, stop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkQueue } from './workqueue.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('WorkQueue', () => {
  it('syncs keys one at a time in the order added; adding a queued key again keeps its place', async () => {
    const seen: string[] = [];
    let active = 0;
    const q = new WorkQueue<string>(async (item) => {
      assert.equal(++active, 1, 'one sync at a time');
      await sleep(1);
      seen.push(item);
      active--;
      return true;
    }, { retryMs: 10, onError: () => assert.fail('no errors') });
    q.add('a', 'a');
    q.add('b', 'b');
    q.add('c', 'c');
    q.add('b', 'b2'); // still second, with the newer item
    // no timing assumed: wait for the three syncs (a loaded machine may take longer than a few ms)
    for (let i = 0; i < 500 && seen.length < 3; i++) await sleep(10);
    await sleep(20); // a fourth sync would show here
    assert.deepEqual(seen, ['a', 'b2', 'c']);
  });

  it('retries a key whose sync answered false or threw, after retryMs, until it is done', async () => {
    const attempts = new Map<string, number>();
    const errors: string[] = [];
    const q = new WorkQueue<string>(async (_item, key) => {
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      if (key === 'throws' && n === 1) throw new Error('boom');
      return key === 'slow' ? n >= 3 : true;
    }, { retryMs: 5, onError: (key, err) => errors.push(`${key}: ${(err as Error).message}`) });
    q.add('slow', 'slow');
    q.add('throws', 'throws');
    q.add('once', 'once');
    await sleep(80);
    assert.deepEqual(Object.fromEntries(attempts), { slow: 3, throws: 2, once: 1 });
    assert.deepEqual(errors, ['throws: boom']);
  });

  it('after stop no sync starts and pending retries are dropped', async () => {
    let syncs = 0;
    const q = new WorkQueue<string>(async () => (syncs++, false), { retryMs: 5, onError: () => {} });
    q.add('k', 'k');
    await sleep(1);
    q.stop();
    q.add('other', 'other');
    await sleep(30);
    assert.equal(syncs, 1);
    assert.equal(q.stopped, true);
  });

  it('with workers, that many keys sync at once, never one key twice at once; a key added while syncing runs again after', async () => {
    const releases = new Map<string, () => void>();
    const running = new Set<string>();
    let most = 0;
    const seen: string[] = [];
    const q = new WorkQueue<string>(async (item, key) => {
      assert.ok(!running.has(key), `${key} twice at once`);
      running.add(key);
      most = Math.max(most, running.size);
      await new Promise<void>((r) => releases.set(item, r));
      running.delete(key);
      seen.push(item);
      return true;
    }, { retryMs: 10, workers: 2, onError: () => assert.fail('no errors') });
    q.add('a', 'a1');
    q.add('b', 'b1');
    q.add('c', 'c1');
    q.add('a', 'a2'); // a is syncing: waits for it
    assert.deepEqual([...running].sort(), ['a', 'b']);
    releases.get('a1')!();
    for (let i = 0; i < 100 && !releases.has('c1'); i++) await sleep(5);
    assert.deepEqual([...running].sort(), ['b', 'c'], 'c (added before a again) goes first');
    releases.get('b1')!();
    for (let i = 0; i < 100 && !releases.has('a2'); i++) await sleep(5);
    releases.get('c1')!();
    releases.get('a2')!();
    for (let i = 0; i < 100 && seen.length < 4; i++) await sleep(5);
    assert.deepEqual(seen, ['a1', 'b1', 'c1', 'a2']);
    assert.equal(most, 2);
  });
});
