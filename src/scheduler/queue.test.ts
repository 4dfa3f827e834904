// The scheduling queue with a fake clock: PrioritySort order, backoff
// durations, unschedulable pods moved back by cluster events (or after five
// minutes), status-only updates leaving them where they are.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPodUpdated, SchedulingQueue } from './queue.js';
import { testPod } from './testing.js';

function queue() {
  let now = 1_000_000;
  const q = new SchedulingQueue({ now: () => now });
  return { q, tick: (ms: number) => { now += ms; } };
}

describe('SchedulingQueue', () => {
  it('pops by priority, then by the time it was added', async () => {
    const { q, tick } = queue();
    q.add(testPod('low', { priority: 1 }));
    tick(1);
    q.add(testPod('high-late', { priority: 10 }));
    tick(1);
    q.add(testPod('high-later', { priority: 10 }));
    q.add(testPod('none'));
    const order: string[] = [];
    for (let i = 0; i < 4; i++) order.push((await q.pop())!.key);
    assert.deepEqual(order, ['default/high-late', 'default/high-later', 'default/low', 'default/none']);
  });

  it('backs off 1 s doubled per attempt, at most 10 s', () => {
    const { q } = queue();
    const table: [number, number][] = [[1, 1000], [2, 2000], [3, 4000], [4, 8000], [5, 10_000], [12, 10_000]];
    for (const [attempts, ms] of table) assert.equal(q.backoffDuration(attempts), ms, `attempt ${attempts}`);
  });

  it('an unschedulable pod waits for a cluster event, then its backoff', async () => {
    const { q, tick } = queue();
    q.add(testPod('p'));
    const qp = (await q.pop())!;
    q.addUnschedulable(qp, q.schedulingCycle, new Set(['NodeResourcesFit']));
    assert.equal(q.where('default/p'), 'unschedulable');
    q.moveAllToActiveOrBackoff(new Set(['TaintToleration']));
    assert.equal(q.where('default/p'), 'unschedulable', 'an event that cannot help leaves it');
    q.moveAllToActiveOrBackoff(new Set(['NodeResourcesFit']));
    assert.equal(q.where('default/p'), 'backoff', 'still backing off (1 s after its first attempt)');
    q.flushBackoffCompleted();
    assert.equal(q.where('default/p'), 'backoff');
    tick(1000);
    q.flushBackoffCompleted();
    assert.equal(q.where('default/p'), 'active');
  });

  it('a cluster event during the cycle sends the failed pod to backoff, not unschedulable', async () => {
    const { q } = queue();
    q.add(testPod('p'));
    const qp = (await q.pop())!;
    const cycle = q.schedulingCycle;
    q.moveAllToActiveOrBackoff();
    q.addUnschedulable(qp, cycle, new Set(['NodeResourcesFit']));
    assert.equal(q.where('default/p'), 'backoff');
  });

  it('unschedulable for five minutes: tried again', async () => {
    const { q, tick } = queue();
    q.add(testPod('p'));
    q.addUnschedulable((await q.pop())!, q.schedulingCycle, new Set(['NodeAffinity']));
    tick(5 * 60_000 - 1);
    q.flushUnschedulableLeftover();
    assert.equal(q.where('default/p'), 'unschedulable');
    tick(1);
    q.flushUnschedulableLeftover();
    assert.equal(q.where('default/p'), 'active');
  });

  it('a status-only update leaves an unschedulable pod; a spec or label change moves it', async () => {
    const { q, tick } = queue();
    const p = testPod('p');
    q.add(p);
    q.addUnschedulable((await q.pop())!, q.schedulingCycle, new Set(['NodeAffinity']));
    const statusOnly = { ...p, metadata: { ...p.metadata, resourceVersion: '9' }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False' }] } };
    q.update(p, statusOnly);
    assert.equal(q.where('default/p'), 'unschedulable');
    tick(2000);
    const relabelled = { ...statusOnly, metadata: { ...statusOnly.metadata, labels: { a: 'b' } } };
    q.update(statusOnly, relabelled);
    assert.equal(q.where('default/p'), 'active');
  });

  it('a deleted pod leaves every queue; a popped pod that was deleted is not requeued', async () => {
    const { q } = queue();
    q.add(testPod('p'));
    const qp = (await q.pop())!;
    q.delete('default/p');
    q.addUnschedulable(qp, q.schedulingCycle);
    assert.equal(q.where('default/p'), undefined);
  });

  it('pop waits for a pod; close releases it', async () => {
    const { q } = queue();
    const waiting = q.pop();
    q.add(testPod('late'));
    assert.equal((await waiting)!.key, 'default/late');
    const idle = q.pop();
    q.close();
    assert.equal(await idle, undefined);
  });
});

describe('isPodUpdated', () => {
  const p = testPod('p');
  const rows: [string, object, boolean][] = [
    ['resourceVersion only', { ...p, metadata: { ...p.metadata, resourceVersion: '2' } }, false],
    ['status only', { ...p, status: { phase: 'Pending', nominatedNodeName: 'n' } }, false],
    ['a label', { ...p, metadata: { ...p.metadata, labels: { x: 'y' } } }, true],
    ['the spec', { ...p, spec: { ...(p.spec as object), priority: 5 } }, true],
  ];
  for (const [name, next, want] of rows) it(name, () => assert.equal(isPodUpdated(p, next as typeof p), want));
});
