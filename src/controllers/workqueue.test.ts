// The controllers' work queue: order, one sync at a time, retries, stop.
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
});
