// What the controller does on one node (kube's podsShouldBeOnNode), the
// failed-pod back-off, and the status counts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Backoff } from './backoff.js';
import { podsShouldBeOnNode, type NodeEvent } from './nodepods.js';
import { daemonCounts } from './status.js';
import { byNode, NOW, pod, type PodFixture } from './testing.js';

const RUN = { shouldRun: true, shouldContinueRunning: true };
const KEEP = { shouldRun: false, shouldContinueRunning: true };
const NONE = { shouldRun: false, shouldContinueRunning: false };

describe('podsShouldBeOnNode', () => {
  const rows: { name: string; placement: typeof RUN; pods?: PodFixture[]; surge?: boolean; create: boolean; delete: string[]; events?: string[] }[] = [
    { name: 'should run, no pod: create', placement: RUN, create: true, delete: [] },
    { name: 'may keep running, no pod: nothing', placement: KEEP, create: false, delete: [] },
    { name: 'one running pod: nothing', placement: RUN, pods: [{ name: 'a', node: 'n' }], create: false, delete: [] },
    { name: 'not to run here: every pod not already going is deleted', placement: NONE, pods: [{ name: 'a', node: 'n' }, { name: 'b', node: 'n', deleting: true }], create: false, delete: ['a'] },
    { name: 'two pods without surge: all but the oldest go', placement: RUN, pods: [{ name: 'young', node: 'n', age: 10 }, { name: 'old', node: 'n', age: 500 }, { name: 'mid', node: 'n', age: 100 }], create: false, delete: ['mid', 'young'] },
    { name: 'a bound pod counts as older than an unbound one', placement: RUN, pods: [{ name: 'unbound', target: 'n', age: 900 }, { name: 'bound', node: 'n', age: 10 }], create: false, delete: ['unbound'] },
    {
      name: 'a failed pod is deleted with a Warning; the next sync creates its replacement', placement: RUN, pods: [{ name: 'f', node: 'n', phase: 'Failed' }], create: false, delete: ['f'],
      events: ['Warning FailedDaemonPod Found failed daemon pod ns/f on node n, will try to kill it'],
    },
    {
      name: 'a succeeded pod is deleted with a Normal event', placement: RUN, pods: [{ name: 's', node: 'n', phase: 'Succeeded' }], create: false, delete: ['s'],
      events: ['Normal SucceededDaemonPod Found succeeded daemon pod ns/s on node n, will try to delete it'],
    },
    { name: 'surge: only terminal pods there → a new pod at once', placement: RUN, surge: true, pods: [{ name: 's', node: 'n', phase: 'Succeeded' }], create: true, delete: ['s'], events: ['Normal SucceededDaemonPod Found succeeded daemon pod ns/s on node n, will try to delete it'] },
    { name: 'surge: an old pod ready, the new not yet available → both stay', placement: RUN, surge: true, pods: [{ name: 'o', node: 'n', hash: 'old', ready: 60, age: 500 }, { name: 'w', node: 'n', hash: 'cur' }], create: false, delete: [] },
    { name: 'surge: the new pod available → the old one goes', placement: RUN, surge: true, pods: [{ name: 'o', node: 'n', hash: 'old', ready: 60, age: 500 }, { name: 'w', node: 'n', hash: 'cur', ready: 5 }], create: false, delete: ['o'] },
    { name: 'surge: the old pod not ready → it goes', placement: RUN, surge: true, pods: [{ name: 'o', node: 'n', hash: 'old', age: 500 }, { name: 'w', node: 'n', hash: 'cur' }], create: false, delete: ['o'] },
    { name: 'surge: extra pods of either kind go', placement: RUN, surge: true, pods: [{ name: 'n1', node: 'n', hash: 'cur', age: 300 }, { name: 'n2', node: 'n', hash: 'cur', age: 200 }, { name: 'o1', node: 'n', hash: 'old', age: 900, ready: 60 }, { name: 'o2', node: 'n', hash: 'old', age: 800 }], create: false, delete: ['o2', 'n2'] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const d = podsShouldBeOnNode({
        nodeName: 'n', placement: r.placement, pods: r.pods?.map(pod), hash: 'cur', surge: r.surge ?? false, minReadySeconds: 0, now: NOW,
        backoff: new Backoff(), backoffKey: 'k',
      });
      assert.equal(d.create, r.create);
      assert.deepEqual(d.deletePods, r.delete);
      assert.deepEqual(d.events.map((e: NodeEvent) => `${e.type} ${e.reason} ${e.message}`), r.events ?? []);
    });
  }

  it('failed pods on a node are deleted once per back-off step, the delay doubling', () => {
    const backoff = new Backoff(1000, 8000);
    const at = (now: number) => podsShouldBeOnNode({
      nodeName: 'n', placement: RUN, pods: [pod({ name: 'f', node: 'n', phase: 'Failed' })], hash: 'cur', surge: false, minReadySeconds: 0, now, backoff, backoffKey: 'k',
    });
    assert.deepEqual(at(0).deletePods, ['f'], 'first failure: at once');
    const held = at(500);
    assert.deepEqual(held.deletePods, []);
    assert.equal(held.retryAfterMs, 1000);
    assert.deepEqual(at(1000).deletePods, ['f'], 'after 1 s');
    assert.equal(at(2500).retryAfterMs, 2000, 'then 2 s');
    assert.deepEqual(at(3000).deletePods, ['f']);
    backoff.next('x', 0);
    backoff.gc(100_000);
    assert.equal(backoff.get('x'), 0, 'gc drops entries idle for twice the maximum');
    assert.deepEqual(at(3000 + 16_001).deletePods, ['f'], 'idle for twice the maximum: starts again');
    assert.equal(at(3000 + 16_002).retryAfterMs, 1000);
  });
});

describe('daemon set status counts', () => {
  it('desired, current, misscheduled, ready, available, updated, unavailable (the oldest pod of a node counts)', () => {
    const pods = [
      pod({ name: 'a', node: 'n0', hash: 'cur', ready: 60 }),
      pod({ name: 'b', node: 'n1', hash: 'old', ready: 5 }),
      pod({ name: 'b2', node: 'n1', hash: 'cur', ready: 60, age: 10 }),
      pod({ name: 'c', node: 'n2', hash: 'cur', age: 10 }),
      pod({ name: 'x', node: 'n4', hash: 'cur', ready: 60 }),
    ];
    const shouldRun = new Map([['n0', true], ['n1', true], ['n2', true], ['n3', true], ['n4', false]]);
    assert.deepEqual(daemonCounts({ shouldRun, podsByNode: byNode(pods), hash: 'cur', generation: undefined, minReadySeconds: 30, now: NOW }), {
      desiredNumberScheduled: 4, currentNumberScheduled: 3, numberMisscheduled: 1, numberReady: 2,
      updatedNumberScheduled: 2, numberAvailable: 1, numberUnavailable: 3,
    });
  });
});
