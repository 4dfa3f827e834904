// The per-key bound: slots per key, waiting in order, leaving the queue on abort.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedLimiter } from './limiter.js';

describe('KeyedLimiter', () => {
  it('runs perKey calls of a key at once, the next when one releases, other keys freely', async () => {
    const l = new KeyedLimiter(2);
    const a1 = await l.acquire('a');
    const a2 = await l.acquire('a');
    const order: string[] = [];
    const a3 = l.acquire('a').then((r) => (order.push('a3'), r));
    const a4 = l.acquire('a').then((r) => (order.push('a4'), r));
    const b1 = await l.acquire('b');
    assert.deepEqual(l.load('a'), { running: 2, waiting: 2 });
    assert.deepEqual(l.load('b'), { running: 1, waiting: 0 });
    a1();
    a1(); // a second release of the same slot frees nothing more
    const r3 = await a3;
    assert.deepEqual(order, ['a3']);
    assert.deepEqual(l.load('a'), { running: 2, waiting: 1 });
    a2();
    const r4 = await a4;
    assert.deepEqual(order, ['a3', 'a4']);
    r3();
    r4();
    b1();
    assert.deepEqual(l.load('a'), { running: 0, waiting: 0 });
  });

  it('drops a waiting call whose signal aborts, with the signal\'s reason; an aborted signal never takes a slot', async () => {
    const l = new KeyedLimiter(1);
    const held = await l.acquire('k');
    const ac = new AbortController();
    const waiting = l.acquire('k', ac.signal);
    const after = l.acquire('k');
    ac.abort(new Error('deadline'));
    await assert.rejects(waiting, /deadline/);
    assert.deepEqual(l.load('k'), { running: 1, waiting: 1 });
    held();
    (await after)();
    await assert.rejects(l.acquire('k', ac.signal), /deadline/);
    assert.deepEqual(l.load('k'), { running: 0, waiting: 0 });
  });

  it('tryAcquire takes a free slot at once and nothing when the key is full; its slot serves the queue like any other', async () => {
    const l = new KeyedLimiter(2);
    const t1 = l.tryAcquire('k');
    const a2 = await l.acquire('k');
    assert.ok(t1);
    assert.equal(l.tryAcquire('k'), undefined);
    assert.deepEqual(l.load('k'), { running: 2, waiting: 0 });
    const queued = l.acquire('k');
    assert.deepEqual(l.load('k'), { running: 2, waiting: 1 });
    t1();
    t1(); // once only
    const a3 = await queued;
    assert.deepEqual(l.load('k'), { running: 2, waiting: 0 });
    assert.equal(l.tryAcquire('k'), undefined);
    a2();
    a3();
    assert.deepEqual(l.load('k'), { running: 0, waiting: 0 });
    const t4 = l.tryAcquire('k');
    assert.deepEqual(l.load('k'), { running: 1, waiting: 0 });
    t4!();
    assert.deepEqual(l.load('k'), { running: 0, waiting: 0 });
  });

  it('keeps idle keys up to a bound, then drops only idle ones', () => {
    const l = new KeyedLimiter(1);
    const held = l.tryAcquire('busy')!;
    for (let i = 0; i < 300; i++) l.tryAcquire(`k${i}`)!();
    const keys = (l as unknown as { keys: Map<string, unknown> }).keys;
    assert.ok(keys.size <= 257, `idle keys are dropped past the bound (${keys.size} kept)`);
    assert.deepEqual(l.load('busy'), { running: 1, waiting: 0 });
    assert.equal(l.tryAcquire('busy'), undefined, 'the busy key still holds its one slot');
    held();
    assert.deepEqual(l.load('busy'), { running: 0, waiting: 0 });
    assert.deepEqual(l.load('k299'), { running: 0, waiting: 0 });
  });

  it('refuses a bound below one', () => {
    assert.throws(() => new KeyedLimiter(0), RangeError);
  });
});
