import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from './clock.js';
import { isomorphicKey, SeriesCache, type EventsV1Event } from './series.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const POD = { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1', resourceVersion: '5' };

function ev(over: Partial<EventsV1Event> = {}): EventsV1Event {
  return {
    metadata: { name: 'p.1', namespace: 'ns' }, eventTime: '2026-11-27T10:00:00.000000Z',
    reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-h', action: 'Scheduling',
    reason: 'FailedScheduling', regarding: POD, note: '0/1 nodes are available', type: 'Warning', ...over,
  };
}

describe('events/v1 series', () => {
  const keys: { name: string; a: Partial<EventsV1Event>; b: Partial<EventsV1Event>; same: boolean }[] = [
    { name: 'the note is not part of the key', a: {}, b: { note: 'other' }, same: true },
    { name: 'nor the event time or name', a: {}, b: { eventTime: '2026-11-27T11:00:00.000000Z', metadata: { name: 'p.2', namespace: 'ns' } }, same: true },
    { name: 'the reason is', a: {}, b: { reason: 'Scheduled' }, same: false },
    { name: 'the action is', a: {}, b: { action: 'Binding' }, same: false },
    { name: 'the type is', a: {}, b: { type: 'Normal' }, same: false },
    { name: 'the reporting instance is', a: {}, b: { reportingInstance: 'x' }, same: false },
    { name: 'the regarding object\'s resourceVersion is (a whole ObjectReference)', a: {}, b: { regarding: { ...POD, resourceVersion: '6' } }, same: false },
    { name: 'the related object is', a: {}, b: { related: { apiVersion: 'v1', kind: 'Pod', name: 'q' } }, same: false },
  ];
  for (const k of keys) {
    it(`key: ${k.name}`, () => assert.equal(isomorphicKey(ev(k.a)) === isomorphicKey(ev(k.b)), k.same));
  }

  it('first observation: create; second: the series {2, now} to patch; later ones counted without a write', () => {
    const clock = new FakeClock(T0);
    const c = new SeriesCache(clock);
    const first = ev();
    assert.equal(c.observe(first), first);
    clock.step(1500);
    assert.deepEqual(c.observe(ev({ note: 'changed' })), { ...first, series: { count: 2, lastObservedTime: '2026-11-27T10:00:01.500000Z' } });
    clock.step(1000);
    assert.equal(c.observe(ev()), undefined);
    assert.equal(c.observe(ev()), undefined);
    const [s] = c.series();
    assert.equal(s!.note, '0/1 nodes are available', 'the first note is kept');
    assert.deepEqual(s!.series, { count: 4, lastObservedTime: '2026-11-27T10:00:02.500000Z' });
  });

  it('finish: a series idle for 6 minutes is returned to write a last time; a lone event 6 minutes old is forgotten', () => {
    const clock = new FakeClock(T0);
    const c = new SeriesCache(clock);
    c.observe(ev());
    c.observe(ev());
    c.observe(ev({ reason: 'Other' }));
    clock.step(5 * 60_000);
    assert.deepEqual(c.finish(), []);
    assert.equal(c.size, 2);
    clock.step(60_001);
    const last = c.finish();
    assert.equal(last.length, 1);
    assert.equal(last[0]!.series!.count, 2);
    assert.equal(c.size, 1, 'the lone event is forgotten');
    c.forget(last[0]!);
    assert.equal(c.size, 0);
    const again = ev({ metadata: { name: 'p.2', namespace: 'ns' } });
    assert.equal(c.observe(again), again, 'a repeat after that starts a new event');
  });
});
