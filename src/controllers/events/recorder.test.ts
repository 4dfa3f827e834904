import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newAlreadyExists, newNotFound } from '../../api/meta/index.js';
import { FakeClock } from './clock.js';
import { EventRecorder } from './recorder.js';
import { EventsV1Recorder } from './v1recorder.js';
import type { CoreEvent } from './reference.js';
import type { EventsV1Event, EventSeries } from './series.js';
import type { CoreEventSink, EventsV1Sink } from './sinks.js';
import type { EventPatch } from './correlator.js';
import { validateEventV1, validateEventV1Update } from '../../api/events/v1/validation.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const POD = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name: 'p', uid: 'u1', resourceVersion: '3' } };
const EVENTS = { group: '', resource: 'events' };

/** A sink keeping events by name, as the server would; `gone` names vanish before the next write. */
class FakeCoreSink implements CoreEventSink {
  readonly stored = new Map<string, CoreEvent>();
  readonly calls: string[] = [];
  async create(e: CoreEvent): Promise<CoreEvent> {
    this.calls.push(`create ${e.count}`);
    if (this.stored.has(e.metadata.name)) throw newAlreadyExists(EVENTS, e.metadata.name);
    this.stored.set(e.metadata.name, e);
    return e;
  }
  async patch(e: CoreEvent, p: EventPatch): Promise<CoreEvent> {
    this.calls.push(`patch ${p.count}`);
    const cur = this.stored.get(e.metadata.name);
    if (!cur) throw newNotFound(EVENTS, e.metadata.name);
    const next = { ...cur, ...p };
    this.stored.set(e.metadata.name, next);
    return next;
  }
}

class FakeV1Sink implements EventsV1Sink {
  readonly stored = new Map<string, EventsV1Event>();
  readonly calls: string[] = [];
  async create(e: EventsV1Event): Promise<EventsV1Event> {
    this.calls.push(`create${e.series ? ` ${e.series.count}` : ''}`);
    this.stored.set(e.metadata.name, e);
    return e;
  }
  async patchSeries(e: EventsV1Event, series: EventSeries): Promise<EventsV1Event> {
    this.calls.push(`patch ${series.count}`);
    const cur = this.stored.get(e.metadata.name);
    if (!cur) throw newNotFound(EVENTS, e.metadata.name);
    const next = { ...cur, series };
    this.stored.set(e.metadata.name, next);
    return next;
  }
}

describe('EventRecorder (core/v1, correlated)', () => {
  it('30 identical events: one Event, patched to count 25, the rest dropped by the spam filter', async () => {
    const sink = new FakeCoreSink();
    const r = new EventRecorder(undefined, 'replicaset-controller', '', { sink, clock: new FakeClock(T0) });
    await Promise.all(Array.from({ length: 30 }, () => r.event(POD, 'Normal', 'SuccessfulCreate', 'Created pod: x')));
    assert.equal(sink.stored.size, 1);
    const [e] = sink.stored.values();
    assert.equal(e!.count, 25);
    assert.deepEqual(sink.calls, ['create 1', ...Array.from({ length: 24 }, (_, i) => `patch ${i + 2}`)]);
    assert.equal(e!.source.component, 'replicaset-controller');
    assert.match(e!.metadata.name, /^p\.[0-9a-f]+$/);
  });

  it('a repeat whose Event is gone is created again, with the next count', async () => {
    const sink = new FakeCoreSink();
    const r = new EventRecorder(undefined, 'c', '', { sink, clock: new FakeClock(T0) });
    await r.event(POD, 'Warning', 'Failed', 'x');
    sink.stored.clear();
    await r.event(POD, 'Warning', 'Failed', 'x');
    assert.deepEqual(sink.calls, ['create 1', 'patch 2', 'create 2']);
    await r.event(POD, 'Warning', 'Failed', 'x');
    assert.deepEqual(sink.calls.at(-1), 'patch 3');
  });

  it('a cluster-scoped object\'s events go to the default namespace', async () => {
    const sink = new FakeCoreSink();
    const r = new EventRecorder(undefined, 'c', '', { sink, clock: new FakeClock(T0) });
    await r.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, 'Normal', 'RegisteredNode', 'x');
    assert.equal([...sink.stored.values()][0]!.metadata.namespace, 'default');
  });

  it('a failed write is logged, not thrown, and later events still go through', async () => {
    const sink = new FakeCoreSink();
    let fail = true;
    const create = sink.create.bind(sink);
    sink.create = async (e) => {
      if (fail) {
        fail = false;
        throw new Error('boom');
      }
      return create(e);
    };
    const r = new EventRecorder(undefined, 'c', '', { sink, clock: new FakeClock(T0) });
    const errors: unknown[] = [];
    const orig = console.error;
    console.error = (...a: unknown[]) => void errors.push(a);
    try {
      await r.event(POD, 'Normal', 'A', 'x');
      await r.event(POD, 'Normal', 'B', 'y');
    } finally {
      console.error = orig;
    }
    assert.equal(errors.length, 1);
    assert.equal(sink.stored.size, 1);
  });
});

describe('EventsV1Recorder (events.k8s.io/v1, series)', () => {
  const make = (sink: EventsV1Sink, clock: FakeClock) => new EventsV1Recorder(sink, 'default-scheduler', { clock, hostname: 'h', actions: { FailedScheduling: 'Scheduling' } });

  it('the event as kube-scheduler writes it: reporting controller and instance, action, regarding, note, eventTime', async () => {
    const sink = new FakeV1Sink();
    const r = make(sink, new FakeClock(T0));
    await r.event(POD, 'Warning', 'FailedScheduling', '0/1 nodes are available');
    r.stop();
    const [e] = sink.stored.values();
    assert.deepEqual({ ...e, metadata: undefined }, {
      metadata: undefined, eventTime: '2026-11-27T10:00:00.000000Z', reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-h',
      action: 'Scheduling', reason: 'FailedScheduling', regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1', resourceVersion: '3' },
      note: '0/1 nodes are available', type: 'Warning',
    });
    assert.match(e!.metadata.name, /^p\.[0-9a-f]+$/);
  });

  it('repeats: create, then a series patch at 2, then counted until the refresh writes them; the finish pass writes a last time and forgets', async () => {
    const sink = new FakeV1Sink();
    const clock = new FakeClock(T0);
    const r = make(sink, clock);
    for (let i = 0; i < 5; i++) {
      await r.event(POD, 'Warning', 'FailedScheduling', `try ${i}`);
      clock.step(1000);
    }
    assert.deepEqual(sink.calls, ['create', 'patch 2']);
    await r.refresh();
    assert.deepEqual(sink.calls, ['create', 'patch 2', 'patch 5']);
    const [e] = sink.stored.values();
    assert.deepEqual(e!.series, { count: 5, lastObservedTime: '2026-11-27T10:00:04.000000Z' });
    assert.equal(e!.note, 'try 0');
    clock.step(6 * 60_000);
    await r.finish();
    assert.deepEqual(sink.calls, ['create', 'patch 2', 'patch 5', 'patch 5']);
    await r.event(POD, 'Warning', 'FailedScheduling', 'later');
    assert.deepEqual(sink.calls.at(-1), 'create');
    assert.equal(sink.stored.size, 2);
    r.stop();
  });

  it('a series whose event is gone is created with its series', async () => {
    const sink = new FakeV1Sink();
    const r = make(sink, new FakeClock(T0));
    await r.event(POD, 'Warning', 'FailedScheduling', 'x');
    sink.stored.clear();
    await r.event(POD, 'Warning', 'FailedScheduling', 'x');
    r.stop();
    assert.deepEqual(sink.calls, ['create', 'patch 2', 'create 2']);
  });

  it('what it writes passes events.k8s.io/v1 validation: the create, and the series update of it', async () => {
    const sink = new FakeV1Sink();
    const clock = new FakeClock(T0);
    const r = make(sink, clock);
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'n' } };
    for (const obj of [POD, node]) {
      await r.event(obj, 'Warning', 'FailedScheduling', 'x');
      clock.step(10);
    }
    await r.event(POD, 'Warning', 'FailedScheduling', 'x');
    r.stop();
    const [first, onNode] = sink.stored.values();
    const asWritten = (e: EventsV1Event) => ({ apiVersion: 'events.k8s.io/v1', kind: 'Event', ...e }) as unknown as Record<string, unknown>;
    assert.deepEqual(validateEventV1(asWritten({ ...first!, series: undefined } as EventsV1Event)), []);
    assert.deepEqual(validateEventV1(asWritten(onNode!)), [], 'a cluster-scoped object\'s event, in default');
    assert.ok(first!.series);
    assert.deepEqual(validateEventV1Update(asWritten(first!), asWritten({ ...first!, series: undefined } as EventsV1Event)), []);
  });

  it('an explicit action and related object', async () => {
    const sink = new FakeV1Sink();
    const r = make(sink, new FakeClock(T0));
    await r.event(POD, 'Normal', 'Preempted', 'by q', 'Preempting', { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name: 'q' } });
    r.stop();
    const [e] = sink.stored.values();
    assert.equal(e!.action, 'Preempting');
    assert.deepEqual(e!.related, { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'q' });
  });
});
