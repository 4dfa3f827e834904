import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, rfc3339 } from './clock.js';
import { EventCorrelator, combinedMessage, type CorrelateResult } from './correlator.js';
import type { CoreEvent } from './reference.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const POD = { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1' };

let seq = 0;
function ev(clock: FakeClock, over: { message?: string; reason?: string; type?: 'Normal' | 'Warning'; name?: string; component?: string } = {}): CoreEvent {
  const at = rfc3339(clock.now());
  const involvedObject = over.name ? { ...POD, name: over.name, uid: `u-${over.name}` } : POD;
  return {
    metadata: { name: `${involvedObject.name}.${(seq++).toString(16)}`, namespace: 'ns' },
    involvedObject, reason: over.reason ?? 'Started', message: over.message ?? 'hello', type: over.type ?? 'Normal',
    source: { component: over.component ?? 'ctl' }, firstTimestamp: at, lastTimestamp: at, count: 1,
    reportingComponent: over.component ?? 'ctl', reportingInstance: '',
  };
}

/** What the correlator makes of a sequence: w = written as new, p<count> = patch to that count, c = combined (new), s = skipped. */
function outcome(r: CorrelateResult): string {
  if (r.skip) return 's';
  if (r.patch) return `${r.event.message.startsWith('(combined') ? 'cp' : 'p'}${r.patch.count}`;
  return r.event.message.startsWith('(combined') ? 'c' : 'w';
}

interface Step { readonly event?: Parameters<typeof ev>[1]; readonly times?: number; readonly advanceMs?: number }

const cases: { name: string; steps: Step[]; want: string }[] = [
  { name: 'a new event is written', steps: [{}], want: 'w' },
  { name: 'identical events: the first written, repeats patch its count', steps: [{ times: 4 }], want: 'w p2 p3 p4' },
  {
    name: '9 different messages of one reason are written as they are; the 10th is combined, the 11th counts up the combined one',
    steps: Array.from({ length: 11 }, (_, i) => ({ event: { message: `m${i}` } })),
    want: 'w w w w w w w w w c cp2',
  },
  {
    name: 'similar events more than 10 minutes apart start over',
    steps: [...Array.from({ length: 9 }, (_, i) => ({ event: { message: `m${i}` } })), { advanceMs: 601_000 }, { event: { message: 'm9' } }],
    want: 'w w w w w w w w w w',
  },
  {
    name: 'different reasons are not similar',
    steps: Array.from({ length: 11 }, (_, i) => ({ event: { message: `m${i}`, reason: `R${i}` } })),
    want: 'w w w w w w w w w w w',
  },
  { name: 'spam filter: 25 events of one source about one object, then dropped', steps: [{ times: 27 }], want: ['w', ...Array.from({ length: 24 }, (_, i) => `p${i + 2}`), 's', 's'].join(' ') },
  {
    name: 'spam filter: the budget refills one event every 5 minutes (dropped ones were still counted)',
    steps: [{ times: 26 }, { advanceMs: 300_000 }, { times: 2 }],
    want: ['w', ...Array.from({ length: 24 }, (_, i) => `p${i + 2}`), 's', 'p27', 's'].join(' '),
  },
  {
    name: 'spam filter: per object — another object has its own budget',
    steps: [{ times: 26 }, { event: { name: 'q' } }],
    want: ['w', ...Array.from({ length: 24 }, (_, i) => `p${i + 2}`), 's', 'w'].join(' '),
  },
  {
    name: 'spam filter: per source — another component has its own budget',
    steps: [{ times: 26 }, { event: { component: 'other' } }],
    want: ['w', ...Array.from({ length: 24 }, (_, i) => `p${i + 2}`), 's', 'w'].join(' '),
  },
  {
    name: 'spam filter (v1.27): the type is not part of the budget key',
    steps: [{ times: 25 }, { event: { type: 'Warning' } }],
    want: ['w', ...Array.from({ length: 24 }, (_, i) => `p${i + 2}`), 's'].join(' '),
  },
];

describe('EventCorrelator', () => {
  for (const c of cases) {
    it(c.name, () => {
      const clock = new FakeClock(T0);
      const corr = new EventCorrelator({ clock });
      const got: string[] = [];
      for (const s of c.steps) {
        if (s.advanceMs !== undefined) {
          clock.step(s.advanceMs);
          continue;
        }
        for (let i = 0; i < (s.times ?? 1); i++) got.push(outcome(corr.correlate(ev(clock, s.event))));
      }
      assert.equal(got.join(' '), c.want);
    });
  }

  it('a repeat is a patch of the first event: its name and firstTimestamp, count + 1, the new lastTimestamp and message', () => {
    const clock = new FakeClock(T0);
    const corr = new EventCorrelator({ clock });
    const first = corr.correlate(ev(clock));
    assert.ok(!first.skip);
    corr.updateState({ ...first.event, metadata: { ...first.event.metadata, resourceVersion: '7' } });
    clock.step(5_000);
    const again = corr.correlate(ev(clock));
    assert.ok(!again.skip);
    assert.equal(again.event.metadata.name, first.event.metadata.name);
    assert.equal(again.event.metadata.resourceVersion, '7');
    assert.equal(again.event.firstTimestamp, '2026-11-27T10:00:00Z');
    assert.deepEqual(again.patch, { count: 2, lastTimestamp: '2026-11-27T10:00:05Z', message: 'hello' });
  });

  it('the combined event: a new event named after the object, the aggregate message, no reporting fields; then patched with the latest message', () => {
    const clock = new FakeClock(T0);
    const corr = new EventCorrelator({ clock });
    let last: CorrelateResult | undefined;
    for (let i = 0; i < 10; i++) last = corr.correlate(ev(clock, { message: `m${i}` }));
    assert.ok(last && !last.skip && !last.patch);
    assert.equal(last.event.message, combinedMessage('m9'));
    assert.match(last.event.metadata.name, /^p\.[0-9a-f]+$/);
    assert.equal(last.event.count, 1);
    assert.equal(last.event.reportingComponent, undefined);
    const next = corr.correlate(ev(clock, { message: 'm10' }));
    assert.ok(!next.skip);
    assert.equal(next.event.metadata.name, last.event.metadata.name);
    assert.deepEqual(next.patch, { count: 2, lastTimestamp: '2026-11-27T10:00:00Z', message: '(combined from similar events): m10' });
  });

  it('updateState: the server\'s count wins over the correlator\'s', () => {
    const clock = new FakeClock(T0);
    const corr = new EventCorrelator({ clock });
    const first = corr.correlate(ev(clock));
    assert.ok(!first.skip);
    corr.updateState({ ...first.event, count: 41 });
    const again = corr.correlate(ev(clock));
    assert.ok(!again.skip && again.patch);
    assert.equal(again.patch.count, 42);
  });

  it('memory is bounded: with an LRU of 2, the oldest event is forgotten and written anew', () => {
    const clock = new FakeClock(T0);
    const corr = new EventCorrelator({ clock, lruCacheSize: 2 });
    const got = ['a', 'b', 'c', 'a'].map((m) => outcome(corr.correlate(ev(clock, { message: m, reason: m }))));
    assert.deepEqual(got, ['w', 'w', 'w', 'w']);
    assert.equal(outcome(corr.correlate(ev(clock, { message: 'a', reason: 'a' }))), 'p2');
  });
});
