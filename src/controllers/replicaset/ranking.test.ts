// Which pods go first on scale-down (kube v1.27's ActivePodsWithRanks).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { compareForDeletion, deletionCost, podsToDelete } from './ranking.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();

interface PodFixture {
  name: string;
  node?: string;
  phase?: string;
  ready?: number; // seconds since Ready
  cost?: string;
  restarts?: number;
  age?: number;
  uid?: string;
}

function pod(f: PodFixture): ApiObject {
  return {
    metadata: {
      name: f.name, uid: f.uid ?? f.name, creationTimestamp: ago(f.age ?? 3600),
      ...(f.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': f.cost } } : {}),
    },
    spec: f.node ? { nodeName: f.node } : {},
    status: {
      phase: f.phase ?? 'Running',
      ...(f.ready !== undefined ? { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(f.ready) }] } : {}),
      ...(f.restarts !== undefined ? { containerStatuses: [{ restartCount: f.restarts }] } : {}),
    },
  };
}

describe('pod deletion ranking', () => {
  const pairs: { rule: string; first: PodFixture; then: PodFixture; ranks?: [number, number] }[] = [
    { rule: 'unassigned before assigned', first: { name: 'a' }, then: { name: 'b', node: 'n1' } },
    { rule: 'Pending before Unknown', first: { name: 'a', node: 'n', phase: 'Pending' }, then: { name: 'b', node: 'n', phase: 'Unknown' } },
    { rule: 'Unknown before Running', first: { name: 'a', node: 'n', phase: 'Unknown' }, then: { name: 'b', node: 'n', phase: 'Running' } },
    { rule: 'not ready before ready', first: { name: 'a', node: 'n' }, then: { name: 'b', node: 'n', ready: 10 } },
    { rule: 'lower deletion cost first', first: { name: 'a', node: 'n', ready: 10, cost: '-5' }, then: { name: 'b', node: 'n', ready: 10, cost: '3' } },
    { rule: 'more pods of the family on the node first', first: { name: 'a', node: 'n', ready: 10 }, then: { name: 'b', node: 'm', ready: 10 }, ranks: [3, 1] },
    { rule: 'ready for less time first (other log2 bucket)', first: { name: 'a', node: 'n', ready: 10 }, then: { name: 'b', node: 'n', ready: 1000 } },
    { rule: 'ready in the same log2 bucket: the UID decides', first: { name: 'z', uid: 'a', node: 'n', ready: 100 }, then: { name: 'y', uid: 'b', node: 'n', ready: 101 } },
    { rule: 'more restarts first', first: { name: 'a', node: 'n', ready: 10, restarts: 5 }, then: { name: 'b', node: 'n', ready: 10, restarts: 1 } },
    { rule: 'newer first', first: { name: 'a', node: 'n', age: 10 }, then: { name: 'b', node: 'n', age: 100_000 } },
  ];
  for (const p of pairs) {
    it(p.rule, () => {
      const [ra, rb] = p.ranks ?? [0, 0];
      const a = { pod: pod(p.first), rank: ra };
      const b = { pod: pod(p.then), rank: rb };
      assert.ok(compareForDeletion(a, b, NOW) < 0, 'first sorts first');
      assert.ok(compareForDeletion(b, a, NOW) > 0, 'and not the other way round');
    });
  }

  const costs: [string | undefined, number][] = [['10', 10], ['-3', -3], ['abc', 0], ['2147483648', 0], [undefined, 0]];
  for (const [v, want] of costs) {
    it(`deletion cost ${JSON.stringify(v)} reads as ${want}`, () => assert.equal(deletionCost(pod({ name: 'p', ...(v !== undefined ? { cost: v } : {}) })), want));
  }

  it('podsToDelete ranks by related pods sharing the node and takes the first n', () => {
    const pods = [pod({ name: 'lonely', node: 'n1', ready: 50 }), pod({ name: 'crowded', node: 'n2', ready: 50 }), pod({ name: 'pending', phase: 'Pending' })];
    const related = [...pods, pod({ name: 'sibling', node: 'n2', ready: 50 })];
    assert.deepEqual(podsToDelete(pods, related, 2, NOW).map((p) => p.metadata.name), ['pending', 'crowded']);
    assert.equal(podsToDelete(pods, related, 5, NOW).length, 3);
  });
});
