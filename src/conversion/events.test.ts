// Event: core v1 (the storage of both) ⇄ events.svc.io/v1 — every field has
// a partner, so conversions lose nothing either way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convert } from './index.js';
import { schemaProblems } from './testing.js';

type O = Record<string, unknown>;
const toEventsV1 = (o: O) => convert(o, { group: 'events.svc.io', version: 'v1', kind: 'Event' });
const toCore = (o: O) => convert(o, { group: '', version: 'v1', kind: 'Event' });

const META = { name: 'web-1.1763a', namespace: 'shop', annotations: { note: 'kept' } };
const POD = { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: '9f1c', apiVersion: 'v1', resourceVersion: '812', fieldPath: 'spec.containers{app}' };
const NODE = { kind: 'Node', name: 'node-a', uid: '77aa', apiVersion: 'v1' };

/** The same event in both forms, fields in each type's Go order. */
const core: O = {
  kind: 'Event', apiVersion: 'v1', metadata: META,
  involvedObject: POD, reason: 'BackOff', message: 'Back-off restarting failed container', source: { component: 'kubelet', host: 'node-a' },
  firstTimestamp: '2023-06-01T08:00:00Z', lastTimestamp: '2023-06-01T08:05:00Z', count: 7, type: 'Warning',
  eventTime: '2023-06-01T08:00:00.123456Z', series: { count: 7, lastObservedTime: '2023-06-01T08:05:00.000001Z' },
  action: 'Restarting', related: NODE, reportingComponent: 'kubelet', reportingInstance: 'node-a',
};
const eventsV1: O = {
  kind: 'Event', apiVersion: 'events.svc.io/v1', metadata: META,
  eventTime: '2023-06-01T08:00:00.123456Z', series: { count: 7, lastObservedTime: '2023-06-01T08:05:00.000001Z' },
  reportingController: 'kubelet', reportingInstance: 'node-a', action: 'Restarting', reason: 'BackOff', regarding: POD, related: NODE,
  note: 'Back-off restarting failed container', type: 'Warning', deprecatedSource: { component: 'kubelet', host: 'node-a' },
  deprecatedFirstTimestamp: '2023-06-01T08:00:00Z', deprecatedLastTimestamp: '2023-06-01T08:05:00Z', deprecatedCount: 7,
};

describe('Event core v1 ⇄ events.svc.io/v1', () => {
  it('core → events/v1: renamed fields, in events/v1 order', () => {
    const out = toEventsV1(core);
    assert.deepEqual(out, eventsV1);
    assert.deepEqual(Object.keys(out), Object.keys(eventsV1));
    assert.deepEqual(schemaProblems(out), []);
  });
  it('events/v1 → core: renamed fields, in core v1 order', () => {
    const out = toCore(eventsV1);
    assert.deepEqual(out, core);
    assert.deepEqual(Object.keys(out), Object.keys(core));
    assert.deepEqual(schemaProblems(out), []);
  });
  const sparse: [string, O][] = [
    ['an old-style core event (no eventTime, no series)', { kind: 'Event', apiVersion: 'v1', metadata: META, involvedObject: POD, reason: 'Pulled', message: 'pulled', source: { component: 'kubelet' }, firstTimestamp: '2023-06-01T08:00:00Z', lastTimestamp: '2023-06-01T08:00:00Z', count: 1, type: 'Normal' }],
    ['a new-style core event (no deprecated fields)', { kind: 'Event', apiVersion: 'v1', metadata: META, involvedObject: POD, reason: 'Scheduled', message: 'ok', type: 'Normal', eventTime: '2023-06-01T08:00:00.000000Z', action: 'Binding', reportingComponent: 'default-scheduler', reportingInstance: 'sched-1' }],
  ];
  for (const [name, stored] of [['every field', core] as [string, O], ...sparse]) {
    it(`storage → events/v1 → storage loses nothing: ${name}`, () => assert.deepEqual(toCore(toEventsV1(stored)), stored));
    it(`events/v1 → storage → events/v1 loses nothing: ${name}`, () => {
      const v1 = toEventsV1(stored);
      assert.deepEqual(toEventsV1(toCore(v1)), v1);
    });
  }
  it('fields neither version has are dropped, as a Go decode drops them', () => {
    assert.deepEqual(toEventsV1({ kind: 'Event', apiVersion: 'v1', metadata: META, involvedObject: POD, note: 'not a core field' }), {
      kind: 'Event', apiVersion: 'events.svc.io/v1', metadata: META, regarding: POD,
    });
  });
});
