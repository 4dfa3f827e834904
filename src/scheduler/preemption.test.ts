// DefaultPreemption over a default profile: who is evicted where, which node
// is picked, and the message when preemption cannot help.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { buildProfile } from './build.js';
import { preempt, pickCandidate } from './preemption.js';
import { snapshotOf, TEST_HANDLE, testNode, testPod } from './testing.js';

const profile = buildProfile({ schedulerName: 'default-scheduler' }, TEST_HANDLE);

function run(nodes: ApiObject[], existing: ApiObject[], pod: ApiObject, budgets?: (ns: string) => ApiObject[]) {
  const snapshot = snapshotOf(nodes, existing);
  const state = profile.newCycle(snapshot);
  const found = profile.findFeasible(state, pod, snapshot.nodes);
  assert.equal(found.feasible.length, 0, 'the rows are about pods that fit nowhere');
  return preempt(profile, state, pod, snapshot.nodes, found.statuses, undefined, budgets);
}

const on = (node: string, name: string, cpu: string, priority: number, created = '2026-01-01T00:00:00Z') => testPod(name, { requests: { cpu }, priority, nodeName: node, created });

describe('preemption', () => {
  it('evicts only as many lower-priority pods as needed, the least important first', () => {
    const r = run([testNode('a')], [on('a', 'v1', '1', 1), on('a', 'v2', '1', 2), on('a', 'v3', '2', 3)], testPod('p', { requests: { cpu: '2' }, priority: 10 }));
    assert.equal(r.kind, 'candidate');
    if (r.kind !== 'candidate') return;
    assert.equal(r.candidate.node, 'a');
    assert.deepEqual(r.candidate.victims.map((v) => v.metadata.name), ['v2', 'v1']);
  });

  it('picks the node whose most important victim is least important', () => {
    const r = run([testNode('a'), testNode('b')], [on('a', 'a1', '4', 5), on('b', 'b1', '4', 3)], testPod('p', { requests: { cpu: '2' }, priority: 10 }));
    assert.equal(r.kind === 'candidate' && r.candidate.node, 'b');
  });

  it('then the one with fewer victims', () => {
    const r = run([testNode('a'), testNode('b')], [on('a', 'a1', '2', 1), on('a', 'a2', '2', 1), on('b', 'b1', '4', 1)], testPod('p', { requests: { cpu: '4' }, priority: 10 }));
    assert.equal(r.kind === 'candidate' && r.candidate.node, 'b');
  });

  it('says why not, per node: unresolvable nodes, no lower priority, still not fitting', () => {
    const r = run(
      [testNode('tainted', { taints: [{ key: 'k', effect: 'NoSchedule' }] }), testNode('same', { cpu: '1' }), testNode('small', { cpu: '2' })],
      [on('same', 's1', '1', 10), on('small', 'x1', '1', 1)],
      testPod('p', { requests: { cpu: '3' }, priority: 10 }),
    );
    assert.deepEqual(r, { kind: 'none', message: '0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.' });
  });

  it('preemptionPolicy Never is not eligible', () => {
    const r = run([testNode('a')], [on('a', 'v', '4', 1)], testPod('p', { requests: { cpu: '2' }, priority: 10, spec: { preemptionPolicy: 'Never' } }));
    assert.deepEqual(r, { kind: 'none', message: 'not eligible due to preemptionPolicy=Never.' });
  });

  it('ties after the counts: the latest-started most important victim', () => {
    const c = pickCandidate([
      { node: 'early', victims: [on('early', 'e', '1', 1, '2026-01-01T00:00:00Z')] },
      { node: 'late', victims: [on('late', 'l', '1', 1, '2026-01-02T00:00:00Z')] },
    ]);
    assert.equal(c?.node, 'late');
  });

  it('prefers the node where no PodDisruptionBudget is violated, and reprieves protected pods first', () => {
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'keep', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'db' } } }, status: { disruptionsAllowed: 0 } };
    const guarded = (node: string, name: string, cpu: string) => testPod(name, { requests: { cpu }, priority: 1, nodeName: node, labels: { app: 'db' } });
    const pod = testPod('p', { requests: { cpu: '2' }, priority: 10 });
    const r = run([testNode('a'), testNode('b')], [guarded('a', 'db-a', '3'), on('b', 'b1', '3', 5)], pod, () => [pdb]);
    assert.equal(r.kind === 'candidate' && r.candidate.node, 'b', 'b evicts a pod of higher priority but violates no budget');
    const r2 = run([testNode('a')], [guarded('a', 'db', '2'), on('a', 'plain', '2', 2)], testPod('p', { requests: { cpu: '2' }, priority: 10 }), () => [pdb]);
    assert.deepEqual(r2.kind === 'candidate' && r2.candidate.victims.map((v) => v.metadata.name), ['plain']);
  });
});
