// The queue set with a fake clock: immediate dispatch, the Reject level,
// queue-full, time-out and cancel, fairness between flows (dispatch order),
// shuffle sharding onto the flow's hand, wide requests, final seats held for
// the additional latency, and a raised limit dispatching what waits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './clock.js';
import { QueueSet, type NewRequest, type StartResult, type Started, type Ticket, type WorkEstimate } from './queueset.js';
import { deal } from './dealer.js';
import { hashFlowID } from './classify.js';

const ONE: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const req = (flow: string, estimate: WorkEstimate = ONE, maxWaitMs = 15_000): NewRequest => ({ flowSchema: 'fs', distinguisher: flow, estimate, maxWaitMs });
const flush = () => new Promise<void>((r) => setImmediate(r));
const executed = (s: StartResult): Ticket => {
  assert.equal(s.kind, 'execute');
  return (s as { ticket: Ticket }).ticket;
};
const queuing = (queues: number, handSize: number, queueLengthLimit: number) => ({ queues, handSize, queueLengthLimit });

describe('queue set', () => {
  it('runs a request at once while seats are free', () => {
    const qs = new QueueSet('pl', new FakeClock(), 2, queuing(8, 2, 10));
    executed(qs.start(req('a')));
    executed(qs.start(req('a')));
    assert.equal(qs.totSeatsInUse, 2);
    assert.equal(qs.start(req('a')).kind, 'wait');
    assert.equal(qs.totWaiting, 1);
  });

  it('a level without queues rejects what does not fit (concurrency-limit)', () => {
    const qs = new QueueSet('pl', new FakeClock(), 2, undefined);
    const t = executed(qs.start(req('a')));
    executed(qs.start(req('b')));
    assert.deepEqual(qs.start(req('c')), { kind: 'reject', reason: 'concurrency-limit' });
    t.finish();
    executed(qs.start(req('c')));
  });

  it('rejects with queue-full when no seat is free and the chosen queue is full', () => {
    const qs = new QueueSet('pl', new FakeClock(), 1, queuing(1, 1, 2));
    executed(qs.start(req('a')));
    assert.equal(qs.start(req('a')).kind, 'wait');
    assert.equal(qs.start(req('b')).kind, 'wait');
    assert.deepEqual(qs.start(req('c')), { kind: 'reject', reason: 'queue-full' });
  });

  it('a waiting request times out, and one cancelled leaves its queue', async () => {
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 1, queuing(4, 1, 10));
    executed(qs.start(req('a')));
    const timed = qs.start(req('b', ONE, 1000));
    const cancelled = qs.start(req('c', ONE, 5000));
    assert.equal(timed.kind, 'wait');
    assert.equal(cancelled.kind, 'wait');
    clock.advance(999);
    assert.equal(qs.totWaiting, 2);
    clock.advance(1);
    assert.deepEqual(await (timed as { result: Promise<Started> }).result, { kind: 'reject', reason: 'time-out' });
    (cancelled as { cancel(): void }).cancel();
    assert.deepEqual(await (cancelled as { result: Promise<Started> }).result, { kind: 'reject', reason: 'cancelled' });
    assert.equal(qs.totWaiting, 0);
    assert.equal(clock.pendingTimers, 0);
  });

  it('a flooding flow cannot starve another: dispatch alternates', async () => {
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 1, queuing(64, 6, 100));
    const order: string[] = [];
    const running: Ticket[] = [];
    const submit = (flow: string) => {
      const s = qs.start(req(flow));
      if (s.kind === 'execute') {
        order.push(flow);
        running.push(s.ticket);
      } else if (s.kind === 'wait') {
        void s.result.then((r) => {
          if (r.kind === 'execute') {
            order.push(flow);
            running.push(r.ticket);
          }
        });
      }
    };
    for (let i = 0; i < 20; i++) submit('flood');
    for (let i = 0; i < 5; i++) submit('calm');
    while (running.length > 0) {
      clock.advance(10);
      running.shift()!.finish();
      await flush();
    }
    assert.equal(order.length, 25);
    // the calm flow's five requests are among the first eleven dispatched, not behind the twenty
    assert.deepEqual(order.slice(0, 11).filter((f) => f === 'calm').length, 5);
    assert.deepEqual(order.slice(11), Array(14).fill('flood'));
  });

  it('shuffle-shards a flow onto the shortest queues of its hand', () => {
    const qs = new QueueSet('pl', new FakeClock(), 1, queuing(16, 4, 100));
    executed(qs.start(req('x')));
    for (let i = 0; i < 8; i++) assert.equal(qs.start(req('alice')).kind, 'wait');
    const hand = deal(hashFlowID('fs', 'alice'), 16, 4);
    const pending = qs.dumpQueues().map((q) => q.pendingRequests);
    for (const [i, n] of pending.entries()) assert.equal(n, hand.includes(i) ? 2 : 0, `queue ${i}`);
  });

  it('a wide request waits for its seats; a request wider than the limit runs alone', async () => {
    const qs = new QueueSet('pl', new FakeClock(), 4, queuing(8, 2, 10));
    const small = executed(qs.start(req('a')));
    const wide = qs.start(req('b', { initialSeats: 4, finalSeats: 0, additionalLatencyMs: 0 }));
    assert.equal(wide.kind, 'wait');
    small.finish();
    const w = await (wide as { result: Promise<Started> }).result;
    assert.equal(w.kind, 'execute');
    assert.equal(qs.totSeatsInUse, 4);
    (w as { ticket: Ticket }).ticket.finish();
    executed(qs.start(req('c', { initialSeats: 9, finalSeats: 0, additionalLatencyMs: 0 })));
    assert.equal(qs.totSeatsInUse, 9);
  });

  it('holds the final seats for the additional latency after the handler ends', () => {
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 4, queuing(8, 2, 10));
    const t = executed(qs.start(req('a', { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 50 })));
    assert.equal(qs.totSeatsInUse, 3);
    t.finish();
    assert.equal(qs.totSeatsInUse, 3);
    clock.advance(49);
    assert.equal(qs.totSeatsInUse, 3);
    clock.advance(1);
    assert.equal(qs.totSeatsInUse, 0);
  });

  it('a raised limit dispatches what waits; fewer queues re-deal the waiting', async () => {
    const qs = new QueueSet('pl', new FakeClock(), 1, queuing(8, 2, 10));
    executed(qs.start(req('a')));
    const waiting = [qs.start(req('b')), qs.start(req('c'))];
    qs.setConfig(1, queuing(4, 2, 10));
    assert.equal(qs.dumpQueues().length, 4);
    assert.equal(qs.totWaiting, 2);
    qs.setConfig(3, queuing(4, 2, 10));
    for (const w of waiting) assert.equal((await (w as { result: Promise<Started> }).result).kind, 'execute');
    assert.equal(qs.totSeatsInUse, 3);
  });

  it('integrates seat demand over time', () => {
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 2, queuing(8, 2, 10));
    qs.demand.reset();
    const t = executed(qs.start(req('a')));
    clock.advance(1000);
    t.finish();
    clock.advance(1000);
    const r = qs.demand.reset();
    assert.equal(r.average, 0.5);
    assert.equal(r.max, 1);
    assert.equal(r.deviation, 0.5);
  });
});
