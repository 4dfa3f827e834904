// What a queue set tells its level's metrics, with a fake clock: requests
// waiting and executing (initial stage) and seats in use, each with its
// denominator; seat demand over the nominal limit; a dispatch the free seats
// cannot accommodate (not counted while every seat is taken, as kube); epoch
// advances when R reaches kube's highR, successful or not; the last dispatch's
// R and S bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './clock.js';
import { HIGH_R, QueueSet, R_DECREMENT, type NewRequest, type StartResult, type Ticket, type WorkEstimate } from './queueset.js';
import type { LevelMetrics } from './metrics.js';
import type { RatioedGauge } from '../metrics/timingratio.js';

class Ratio implements RatioedGauge {
  n = 0;
  d = 1;
  set(n: number) { this.n = n; }
  add(x: number) { this.n += x; }
  setDenominator(d: number) { this.d = d; }
  get value(): [number, number] { return [this.n, this.d]; }
}

function recorder() {
  const m = { waiting: new Ratio(), executing: new Ratio(), seats: new Ratio(), demand: new Ratio(), noAccommodations: [] as string[], epochs: [] as boolean[] };
  const metrics: LevelMetrics = {
    waiting: m.waiting, executing: m.executing, seats: m.seats, demand: m.demand,
    noAccommodation: (fs) => m.noAccommodations.push(fs), epochAdvance: (ok) => m.epochs.push(ok),
  };
  return { m, metrics };
}

const ONE: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const req = (flow: string, estimate: WorkEstimate = ONE, maxWaitMs = 15_000, flowSchema = 'fs'): NewRequest => ({ flowSchema, distinguisher: flow, estimate, maxWaitMs });
const executed = (s: StartResult): Ticket => {
  assert.equal(s.kind, 'execute');
  return (s as { ticket: Ticket }).ticket;
};
const queuing = (queues: number, handSize: number, queueLengthLimit: number) => ({ queues, handSize, queueLengthLimit });

describe('queue set metrics', () => {
  it('denominators: the queues\' capacity, the limit (again after a new configuration), the nominal limit', () => {
    const { m, metrics } = recorder();
    const qs = new QueueSet('pl', new FakeClock(), 3, queuing(8, 2, 5), metrics);
    qs.setNominalLimit(4);
    assert.deepEqual([m.waiting.d, m.executing.d, m.seats.d, m.demand.d], [40, 3, 3, 4]);
    qs.setConfig(6, undefined);
    assert.deepEqual([m.waiting.d, m.executing.d, m.seats.d], [5, 6, 6], 'without queues: the last queue length limit alone, as kube');
    const reject = recorder();
    new QueueSet('r', new FakeClock(), 0, undefined, reject.metrics);
    assert.deepEqual([reject.m.waiting.d, reject.m.executing.d], [1, 1], 'never 0');
  });

  it('numerators follow requests through waiting, executing and release; a wide request that does not fit is a no-accommodation', () => {
    const { m, metrics } = recorder();
    const qs = new QueueSet('pl', new FakeClock(), 2, queuing(4, 1, 10), metrics);
    const a = executed(qs.start(req('a')));
    assert.deepEqual([m.waiting.n, m.executing.n, m.seats.n, m.demand.n], [0, 1, 1, 1]);
    const wide = qs.start(req('b', { initialSeats: 2, finalSeats: 0, additionalLatencyMs: 0 }, 15_000, 'wide-schema'));
    assert.equal(wide.kind, 'wait');
    assert.deepEqual([m.waiting.n, m.executing.n, m.seats.n, m.demand.n], [1, 1, 1, 3]);
    assert.deepEqual(m.noAccommodations, ['wide-schema'], 'one seat free, two wanted');
    a.finish();
    assert.deepEqual([m.waiting.n, m.executing.n, m.seats.n, m.demand.n], [0, 1, 2, 2]);
  });

  it('no dispatch attempt, so no no-accommodation, while every seat is taken', () => {
    const { m, metrics } = recorder();
    const qs = new QueueSet('pl', new FakeClock(), 1, queuing(4, 1, 10), metrics);
    executed(qs.start(req('a')));
    assert.equal(qs.start(req('b')).kind, 'wait');
    assert.equal(qs.start(req('c')).kind, 'wait');
    assert.deepEqual(m.noAccommodations, []);
    assert.equal(m.waiting.n, 2);
  });

  it('a request past its initial stage is not executing but holds its final seats until the additional latency ends', () => {
    const { m, metrics } = recorder();
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 4, undefined, metrics);
    const t = executed(qs.start(req('a', { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 1000 })));
    assert.deepEqual([m.executing.n, m.seats.n], [1, 3]);
    t.finish();
    assert.deepEqual([m.executing.n, m.seats.n], [0, 3]);
    clock.advance(1000);
    assert.deepEqual([m.executing.n, m.seats.n, m.demand.n], [0, 0, 0]);
  });

  it('the last dispatch from a queue (kube\'s SetDispatchMetrics): R, the request\'s S, and the next S bounds, discounted by the work in progress', () => {
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 2, queuing(1, 1, 10));
    assert.equal(qs.lastDispatch.seen, false);
    const a = executed(qs.start(req('a')));
    assert.deepEqual(qs.lastDispatch, { seen: true, r: 0, s: 0, sMin: 0, sMax: 0, dsMin: 0, dsMax: 0 });
    executed(qs.start(req('x')));
    // the queue's next S is 3 (a's work); a's seat in use discounts 3 seat-seconds
    assert.deepEqual(qs.lastDispatch, { seen: true, r: 0, s: 3, sMin: 3, sMax: 3, dsMin: 0, dsMax: 0 });
    assert.equal(qs.start(req('b')).kind, 'wait');
    clock.advance(1000); // R += 1 s × min(3 seats wanted, 2) / 1 queue
    a.finish(); // next S 6 − (3 − 1) for a's shorter run; b dispatched with x's seat in use
    assert.deepEqual(qs.lastDispatch, { seen: true, r: 2, s: 4, sMin: 4, sMax: 4, dsMin: 1, dsMax: 1 });
  });

  it('virtual time runs at min(seats, limit) / active queues: one queue, one seat, 1 seat-second per second, however many requests came before', () => {
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 1, queuing(1, 1, 10));
    for (let i = 0; i < 5; i++) executed(qs.start(req('a'))).finish();
    executed(qs.start(req('a')));
    const r0 = qs.virtualTime;
    clock.advance(1000);
    assert.equal(qs.start(req('b')).kind, 'wait');
    assert.equal(qs.virtualTime - r0, 1);
  });

  it('epoch advance: R wound back by half kube\'s range once it reaches highR; failed when a reading would go below 0', () => {
    // a queue whose next dispatch R lags R by more than the decrement
    const lag = recorder();
    const clock = new FakeClock();
    const qs = new QueueSet('pl', clock, 1, queuing(1, 1, 10), lag.metrics);
    executed(qs.start(req('a')));
    clock.advance((HIGH_R + 10) * 1000);
    assert.equal(qs.start(req('b', ONE, 1e16)).kind, 'wait');
    assert.deepEqual(lag.m.epochs, [false]);
    assert.ok(Math.abs(qs.virtualTime - (HIGH_R + 10 - R_DECREMENT)) < 1e-3, String(qs.virtualTime));

    // readings close to R: a long-running request's correction brings the queue's next dispatch R up to R
    const ok = recorder();
    const c2 = new FakeClock();
    const q2 = new QueueSet('pl', c2, 1, queuing(1, 1, 10), ok.metrics);
    const first = executed(q2.start(req('a')));
    assert.equal(q2.start(req('b', ONE, 1e16)).kind, 'wait');
    c2.advance((HIGH_R - 10) * 1000);
    first.finish(); // b dispatched at R = highR − 10
    assert.deepEqual(ok.m.epochs, []);
    c2.advance(20_000);
    assert.equal(q2.start(req('c', ONE, 1e16)).kind, 'wait');
    assert.deepEqual(ok.m.epochs, [true]);
    assert.ok(Math.abs(q2.virtualTime - (HIGH_R + 10 - R_DECREMENT)) < 1e-3, String(q2.virtualTime));
  });
});
