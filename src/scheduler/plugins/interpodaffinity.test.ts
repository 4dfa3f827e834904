// InterPodAffinity: required affinity and anti-affinity (the pod's and the
// existing pods'), and the preferred terms' scores.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleState } from '../framework.js';
import { snapshotOf, testNode, testPod } from '../testing.js';
import { ERR_AFFINITY, ERR_ANTI_AFFINITY, ERR_EXISTING_ANTI_AFFINITY, interPodAffinity } from './interpodaffinity.js';

const zone = 'topology.kubernetes.io/zone';
const required = (kind: 'podAffinity' | 'podAntiAffinity', app: string, key = zone, extra: object = {}) => ({
  affinity: { [kind]: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: key, labelSelector: { matchLabels: { app } }, ...extra }] } },
});
const preferred = (kind: 'podAffinity' | 'podAntiAffinity', app: string, weight: number) => ({
  affinity: { [kind]: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight, podAffinityTerm: { topologyKey: zone, labelSelector: { matchLabels: { app } } } }] } },
});

const nodes = [testNode('a', { labels: { [zone]: 'z1' } }), testNode('b', { labels: { [zone]: 'z1' } }), testNode('c', { labels: { [zone]: 'z2' } }), testNode('d')];

function filter(pod: ReturnType<typeof testPod>, existing: ReturnType<typeof testPod>[], nsLabels: (n: string) => Record<string, string> | undefined = () => undefined) {
  const plugin = interPodAffinity({}, nsLabels);
  const snapshot = snapshotOf(nodes, existing);
  const state = new CycleState(snapshot);
  plugin.preFilter!(state, pod);
  return Object.fromEntries(snapshot.nodes.map((n) => [n.name, plugin.filter!(state, pod, n)?.reasons[0]]));
}

describe('InterPodAffinity filter', () => {
  const db = testPod('db', { labels: { app: 'db' }, nodeName: 'a' });
  const rows: [string, ReturnType<typeof testPod>, ReturnType<typeof testPod>[], Record<string, string | undefined>, ((n: string) => Record<string, string> | undefined)?][] = [
    ['affinity: the zone of a matching pod', testPod('p', { spec: required('podAffinity', 'db') }), [db], { a: undefined, b: undefined, c: ERR_AFFINITY, d: ERR_AFFINITY }],
    ['affinity: no matching pod anywhere and the pod does not match itself', testPod('p', { spec: required('podAffinity', 'db') }), [], { a: ERR_AFFINITY, b: ERR_AFFINITY, c: ERR_AFFINITY, d: ERR_AFFINITY }],
    ['affinity: the first of a group that matches itself', testPod('p', { labels: { app: 'web' }, spec: required('podAffinity', 'web') }), [], { a: undefined, b: undefined, c: undefined, d: ERR_AFFINITY }],
    ['affinity: other namespaces do not count', testPod('p', { spec: required('podAffinity', 'db') }), [testPod('db', { namespace: 'other', labels: { app: 'db' }, nodeName: 'a' })], { a: ERR_AFFINITY, b: ERR_AFFINITY, c: ERR_AFFINITY, d: ERR_AFFINITY }],
    [
      'affinity: a namespaceSelector reaches them', testPod('p', { spec: required('podAffinity', 'db', zone, { namespaceSelector: { matchLabels: { team: 'x' } } }) }),
      [testPod('db', { namespace: 'other', labels: { app: 'db' }, nodeName: 'c' })], { a: ERR_AFFINITY, b: ERR_AFFINITY, c: undefined, d: ERR_AFFINITY }, (n): Record<string, string> => (n === 'other' ? { team: 'x' } : {}),
    ],
    ['anti-affinity: not in the zone of a matching pod', testPod('p', { spec: required('podAntiAffinity', 'db') }), [db], { a: ERR_ANTI_AFFINITY, b: ERR_ANTI_AFFINITY, c: undefined, d: undefined }],
    [
      'existing anti-affinity: a pod that repels the incoming one', testPod('p', { labels: { app: 'web' } }),
      [testPod('loner', { nodeName: 'c', spec: required('podAntiAffinity', 'web', 'kubernetes.io/hostname') })], { a: undefined, b: undefined, c: ERR_EXISTING_ANTI_AFFINITY, d: undefined },
    ],
  ];
  for (const [name, pod, existing, want, ns] of rows) it(name, () => assert.deepEqual(filter(pod, existing, ns), want));
});

describe('InterPodAffinity score', () => {
  it('preferred affinity and anti-affinity by zone, normalized min..max', () => {
    const plugin = interPodAffinity({}, () => undefined);
    const existing = [testPod('db', { labels: { app: 'db' }, nodeName: 'a' }), testPod('noisy', { labels: { app: 'noisy' }, nodeName: 'c' })];
    const snapshot = snapshotOf(nodes, existing);
    const state = new CycleState(snapshot);
    const pod = testPod('p', { spec: { affinity: { ...preferred('podAffinity', 'db', 10).affinity, ...preferred('podAntiAffinity', 'noisy', 5).affinity } } });
    plugin.preScore!(state, pod, snapshot.nodes);
    const scores = new Map(snapshot.nodes.map((n) => [n.name, plugin.score!(state, pod, n)]));
    assert.deepEqual(Object.fromEntries(scores), { a: 10, b: 10, c: -5, d: 0 });
    plugin.normalizeScore!(state, pod, scores);
    assert.deepEqual(Object.fromEntries(scores), { a: 100, b: 100, c: 0, d: 33 });
  });

  it('an existing pod\'s required affinity toward the pod counts at the hard weight', () => {
    const plugin = interPodAffinity({ hardPodAffinityWeight: 4 }, () => undefined);
    const snapshot = snapshotOf(nodes, [testPod('fan', { nodeName: 'c', spec: required('podAffinity', 'web') })]);
    const state = new CycleState(snapshot);
    const pod = testPod('p', { labels: { app: 'web' } });
    plugin.preScore!(state, pod, snapshot.nodes);
    assert.deepEqual(snapshot.nodes.map((n) => plugin.score!(state, pod, n)), [0, 0, 4, 0]);
  });
});
