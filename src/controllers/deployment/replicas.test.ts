// The rollout arithmetic as kube's deployment/util computes it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bySizeNewer, bySizeOlder, findActiveOrLatest, isSaturated, maxSurge, maxUnavailable, newRSNewReplicas, proportion, resolveFenceposts, scaledValue,
} from './replicas.js';
import { deployment, replicaSet } from './testing.js';

describe('rollout arithmetic', () => {
  const scaled: [number | string, number, boolean, number][] = [
    ['25%', 4, true, 1], ['25%', 4, false, 1], ['25%', 10, true, 3], ['25%', 10, false, 2], ['25%', 1, true, 1], ['25%', 1, false, 0],
    ['0%', 7, true, 0], ['100%', 3, false, 3], [2, 10, true, 2], ['33%', 10, true, 4], ['33%', 10, false, 3],
  ];
  for (const [v, total, up, want] of scaled) {
    it(`${JSON.stringify(v)} of ${total} rounded ${up ? 'up' : 'down'} is ${want}`, () => assert.equal(scaledValue(v, total, up), want));
  }
  it('a string that is not a percentage is refused with kube\'s message', () => {
    assert.throws(() => scaledValue('10', 4, true), /invalid value for IntOrString: invalid type: string is not a percentage/);
  });

  const fenceposts: [number | string, number | string, number, { surge: number; unavailable: number }][] = [
    ['25%', '25%', 4, { surge: 1, unavailable: 1 }],
    ['25%', '25%', 1, { surge: 1, unavailable: 0 }],
    [0, '25%', 2, { surge: 0, unavailable: 1 }], // both resolve to 0: one may be unavailable
    [0, 0, 5, { surge: 0, unavailable: 1 }],
    ['50%', 0, 3, { surge: 2, unavailable: 0 }],
  ];
  for (const [s, u, n, want] of fenceposts) {
    it(`fenceposts of maxSurge ${s}, maxUnavailable ${u} over ${n}: ${JSON.stringify(want)}`, () => assert.deepEqual(resolveFenceposts(s, u, n), want));
  }

  it('maxUnavailable is capped at replicas, 0 for Recreate and for 0 replicas; maxSurge 0 for Recreate', () => {
    assert.equal(maxUnavailable(deployment({ replicas: 2, unavailable: 5 })), 2);
    assert.equal(maxUnavailable(deployment({ replicas: 0 })), 0);
    assert.equal(maxUnavailable(deployment({ replicas: 4, type: 'Recreate' })), 0);
    assert.equal(maxSurge(deployment({ replicas: 4, type: 'Recreate' })), 0);
    assert.equal(maxSurge(deployment({ replicas: 4 })), 1);
  });

  const growth: { name: string; d: Parameters<typeof deployment>[0]; newRS: number; olds: number[]; want: number }[] = [
    { name: 'a fresh rollout of 4 at 25% starts the new ReplicaSet at 1', d: { replicas: 4 }, newRS: 0, olds: [4], want: 1 },
    { name: 'no room while all pods are wanted already', d: { replicas: 4 }, newRS: 1, olds: [4], want: 1 },
    { name: 'room made by the old ReplicaSet shrinking', d: { replicas: 4 }, newRS: 1, olds: [3], want: 2 },
    { name: 'never past replicas', d: { replicas: 4, surge: 10 }, newRS: 0, olds: [0], want: 4 },
    { name: 'a first ReplicaSet takes replicas + surge at most', d: { replicas: 10, surge: '30%' }, newRS: 0, olds: [], want: 10 },
    { name: 'Recreate: the full count', d: { replicas: 3, type: 'Recreate' }, newRS: 0, olds: [3], want: 3 },
  ];
  for (const g of growth) {
    it(`new ReplicaSet size: ${g.name}`, () => {
      const newRS = replicaSet({ name: 'new', replicas: g.newRS });
      const all = [...g.olds.map((n, i) => replicaSet({ name: `old${i}`, replicas: n })), newRS];
      assert.equal(newRSNewReplicas(deployment(g.d), all, newRS), g.want);
    });
  }

  it('the one active ReplicaSet, else the newest (FindActiveOrLatest)', () => {
    const a = replicaSet({ name: 'a', replicas: 0, created: 1 });
    const b = replicaSet({ name: 'b', replicas: 0, created: 2 });
    const c = replicaSet({ name: 'c', replicas: 3, created: 3 });
    assert.equal(findActiveOrLatest(undefined, [a, b])?.metadata.name, 'b');
    assert.equal(findActiveOrLatest(a, [b, c])?.metadata.name, 'c');
    assert.equal(findActiveOrLatest(c, [replicaSet({ name: 'd', replicas: 1 })]), undefined);
    assert.equal(findActiveOrLatest(undefined, []), undefined);
  });

  it('saturation needs the size, the desired-replicas annotation and every replica available', () => {
    const d = deployment({ replicas: 3 });
    assert.equal(isSaturated(d, replicaSet({ name: 'n', replicas: 3, available: 3, annotations: { 'deployment.kubernetes.io/desired-replicas': '3' } })), true);
    assert.equal(isSaturated(d, replicaSet({ name: 'n', replicas: 3, available: 2, annotations: { 'deployment.kubernetes.io/desired-replicas': '3' } })), false);
    assert.equal(isSaturated(d, replicaSet({ name: 'n', replicas: 3, available: 3 })), false);
    assert.equal(isSaturated(d, undefined), false);
  });

  const proportions: { name: string; rs: number; max?: number; d: Parameters<typeof deployment>[0]; toAdd: number; added: number; want: number }[] = [
    { name: 'half of a doubling', rs: 3, max: 5, d: { replicas: 10, surge: 0, unavailable: 1 }, toAdd: 5, added: 0, want: 3 },
    { name: 'capped by what is left to add', rs: 3, max: 5, d: { replicas: 10, surge: 0, unavailable: 1 }, toAdd: 5, added: 4, want: 1 },
    { name: 'a shrink gives up its share', rs: 6, max: 10, d: { replicas: 5, surge: 0, unavailable: 1 }, toAdd: -5, added: 0, want: -3 },
    { name: 'to 0 replicas: everything', rs: 4, max: 10, d: { replicas: 0 }, toAdd: -4, added: 0, want: -4 },
    { name: 'an empty ReplicaSet gets nothing', rs: 0, max: 5, d: { replicas: 10 }, toAdd: 5, added: 0, want: 0 },
  ];
  for (const p of proportions) {
    it(`proportion: ${p.name}`, () => {
      const rs = replicaSet({ name: 'r', replicas: p.rs, ...(p.max !== undefined ? { annotations: { 'deployment.kubernetes.io/max-replicas': String(p.max) } } : {}) });
      assert.equal(proportion(rs, deployment(p.d), p.toAdd, p.added, 0), p.want);
    });
  }

  it('size orders: larger first, then newer (BySizeNewer) or older (BySizeOlder)', () => {
    const rss = [replicaSet({ name: 'a', replicas: 2, created: 1 }), replicaSet({ name: 'b', replicas: 5, created: 2 }), replicaSet({ name: 'c', replicas: 2, created: 3 })];
    assert.deepEqual([...rss].sort(bySizeNewer).map((r) => r.metadata.name), ['b', 'c', 'a']);
    assert.deepEqual([...rss].sort(bySizeOlder).map((r) => r.metadata.name), ['b', 'a', 'c']);
  });
});
