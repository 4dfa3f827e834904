// A default profile end to end over a snapshot: weighted totals, the host
// chosen (ties at random), nominated pods keeping their room.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildProfile } from './build.js';
import { feasibleNodesToFind, selectHost } from './profile.js';
import { Nominator } from './nominator.js';
import type { ApiObject } from '../registry/object.js';
import { snapshotOf, TEST_HANDLE, testNode, testPod } from './testing.js';

const profile = buildProfile({ schedulerName: 'default-scheduler' }, TEST_HANDLE);

describe('a default profile', () => {
  it('sums the normalized scores times the weights; the emptier, untainted node wins', () => {
    const nodes = [testNode('busy'), testNode('idle'), testNode('soft', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] })];
    const snapshot = snapshotOf(nodes, [testPod('q', { requests: { cpu: '2', memory: '4Gi' }, nodeName: 'busy' })]);
    const pod = testPod('p', { requests: { cpu: '1', memory: '2Gi' } });
    const state = profile.newCycle(snapshot);
    const { feasible } = profile.findFeasible(state, pod, snapshot.nodes);
    const { totals, byPlugin } = profile.score(state, pod, feasible);
    assert.deepEqual(Object.fromEntries(byPlugin.get('TaintToleration')!), { busy: 100, idle: 100, soft: 0 });
    assert.deepEqual(Object.fromEntries(byPlugin.get('NodeResourcesFit')!), { busy: 25, idle: 75, soft: 75 });
    // TaintToleration ×3, NodeResourcesFit ×1, BalancedAllocation 100 everywhere, the rest 0 (spread and affinity skipped, no images)
    assert.deepEqual(Object.fromEntries(totals), { busy: 300 + 25 + 100, idle: 300 + 75 + 100, soft: 0 + 75 + 100 });
    assert.equal(selectHost(totals), 'idle');
  });

  it('breaks ties at random among the best', () => {
    const totals = new Map([['a', 5], ['b', 9], ['c', 9], ['d', 1]]);
    assert.equal(selectHost(totals, () => 0.99), 'b');
    assert.equal(selectHost(totals, () => 0), 'c');
  });

  it('counts pods nominated to a node for pods of no higher priority', () => {
    const snapshot = snapshotOf([testNode('a', { cpu: '2' })]);
    const nominator = new Nominator();
    nominator.set(testPod('nominee', { requests: { cpu: '2' }, priority: 100 }), 'a');
    const nominated = (node: string, p: ApiObject) => nominator.ahead(node, p);
    const low = testPod('low', { requests: { cpu: '1' }, priority: 1 });
    const lowResult = profile.findFeasible(profile.newCycle(snapshot), low, snapshot.nodes, nominated);
    assert.deepEqual(lowResult.feasible.map((n) => n.name), []);
    assert.deepEqual(lowResult.statuses.get('a')?.reasons, ['Insufficient cpu']);
    const high = testPod('high', { requests: { cpu: '1' }, priority: 1000 });
    const highResult = profile.findFeasible(profile.newCycle(snapshot), high, snapshot.nodes, nominated);
    assert.deepEqual(highResult.feasible.map((n) => n.name), ['a']);
  });

  it('tries a nominated node alone first', () => {
    const snapshot = snapshotOf([testNode('a'), testNode('b'), testNode('c')]);
    const r = profile.findFeasible(profile.newCycle(snapshot), testPod('p'), snapshot.nodes, undefined, 'b');
    assert.deepEqual(r.feasible.map((n) => n.name), ['b']);
  });

  it('looks from the start round the list and stops once enough nodes fit; with none fitting every node is looked at', () => {
    const snapshot = snapshotOf(['a', 'b', 'c', 'd', 'e'].map((n) => testNode(n)));
    const r = profile.findFeasible(profile.newCycle(snapshot), testPod('p'), snapshot.nodes, undefined, undefined, { start: 3, limit: 2 });
    assert.deepEqual([r.feasible.map((n) => n.name), r.processed], [['d', 'e'], 2]);
    const wrap = profile.findFeasible(profile.newCycle(snapshot), testPod('p'), snapshot.nodes, undefined, undefined, { start: 4, limit: 3 });
    assert.deepEqual(wrap.feasible.map((n) => n.name), ['e', 'a', 'b']);
    const big = testPod('big', { requests: { cpu: '1000' } });
    const none = profile.findFeasible(profile.newCycle(snapshot), big, snapshot.nodes, undefined, undefined, { start: 2, limit: 2 });
    assert.deepEqual([none.feasible.length, none.processed, none.statuses.size], [0, 5, 5]);
  });
});

describe('feasibleNodesToFind (kube numFeasibleNodesToFind)', () => {
  const rows: [percentage: number, nodes: number, want: number][] = [
    [0, 50, 50], [0, 99, 99], [0, 100, 100], [0, 500, 230], [0, 1000, 420], [0, 5000, 500], [0, 10_000, 500],
    [0, 200, 100], [10, 500, 100], [50, 500, 250], [100, 500, 500],
  ];
  for (const [pct, nodes, want] of rows) it(`${pct} % of ${nodes} nodes → ${want}`, () => assert.equal(feasibleNodesToFind(pct, nodes), want));
});
