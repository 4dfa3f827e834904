// The slice tracker (stale informer views) and the trigger-time tracker.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SliceTracker } from './stale.js';
import { testPod, testService } from './testpods.js';
import { TriggerTimeTracker } from './triggertime.js';
import type { EndpointSlice } from './types.js';

const slice = (uid: string, rv: number) => ({ metadata: { uid, resourceVersion: String(rv) } }) as EndpointSlice;

describe('SliceTracker', () => {
  const rows: { name: string; steps: (t: SliceTracker) => void; listed: EndpointSlice[]; stale: boolean }[] = [
    { name: 'nothing written: never stale', steps: () => {}, listed: [slice('a', 1)], stale: false },
    { name: 'a write seen', steps: (t) => t.written('k', slice('a', 5)), listed: [slice('a', 5)], stale: false },
    { name: 'a newer version listed', steps: (t) => t.written('k', slice('a', 5)), listed: [slice('a', 7)], stale: false },
    { name: 'an older version listed', steps: (t) => t.written('k', slice('a', 5)), listed: [slice('a', 4)], stale: true },
    { name: 'a created slice not listed yet', steps: (t) => t.written('k', slice('a', 5)), listed: [], stale: true },
    { name: 'a deleted slice still listed', steps: (t) => t.expectDeletion('k', slice('a', 5)), listed: [slice('a', 5)], stale: true },
    { name: 'a deleted slice gone', steps: (t) => t.expectDeletion('k', slice('a', 5)), listed: [], stale: false },
    { name: 'a slice someone else deleted', steps: (t) => { t.written('k', slice('a', 5)); t.deleted('k', slice('a', 5)); }, listed: [], stale: false },
    { name: 'another service\'s writes do not count', steps: (t) => t.written('other', slice('a', 5)), listed: [], stale: false },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const t = new SliceTracker();
      r.steps(t);
      assert.equal(t.isStale('k', r.listed), r.stale);
    });
  }
  it('expected: an event of our own write needs no sync', () => {
    const t = new SliceTracker();
    t.written('k', slice('a', 5));
    assert.equal(t.expected('k', slice('a', 5)), true);
    assert.equal(t.expected('k', slice('a', 6)), false);
    assert.equal(t.expected('k', slice('b', 5)), false);
  });
});

describe('TriggerTimeTracker', () => {
  it('a new service: its creation time; then the earliest pod change since; nothing when nothing changed', () => {
    const t = new TriggerTimeTracker();
    const svc = testService();
    const p1 = testPod({ name: 'a', ip: '10.0.0.1', readySince: '2026-01-01T00:00:05Z' });
    assert.equal(t.compute(svc, [p1]), '2026-01-01T00:00:00Z');
    assert.equal(t.compute(svc, [p1]), undefined);
    const p1b = testPod({ name: 'a', ip: '10.0.0.1', ready: false, readySince: '2026-01-01T00:00:30Z' });
    const p2 = testPod({ name: 'b', ip: '10.0.0.2', readySince: '2026-01-01T00:00:20Z' });
    assert.equal(t.compute(svc, [p1b, p2]), '2026-01-01T00:00:20Z');
    t.delete('ns', 'svc');
    assert.equal(t.compute(svc, [p1b, p2]), '2026-01-01T00:00:00Z', 'forgotten: new again');
  });
});
