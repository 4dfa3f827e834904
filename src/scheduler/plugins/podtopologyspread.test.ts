// PodTopologySpread: DoNotSchedule constraints as a filter, ScheduleAnyway
// ones (and the system defaults over the pod's service/controller selector)
// as a score.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleState } from '../framework.js';
import { snapshotOf, testNode, testPod } from '../testing.js';
import { labelSelector, NO_SELECTORS } from '../spreading.js';
import { ERR_CONSTRAINTS_NOT_MATCH, ERR_MISSING_LABEL, podTopologySpread } from './podtopologyspread.js';

const constraint = (when: string, key: string, maxSkew = 1, extra: object = {}) => ({
  topologySpreadConstraints: [{ maxSkew, topologyKey: key, whenUnsatisfiable: when, labelSelector: { matchLabels: { app: 'x' } }, ...extra }],
});
const peer = (name: string, node: string) => testPod(name, { labels: { app: 'x' }, nodeName: node });

describe('PodTopologySpread filter', () => {
  const nodes = [testNode('a', { labels: { zone: 'z1' } }), testNode('b', { labels: { zone: 'z1' } }), testNode('c', { labels: { zone: 'z2' } }), testNode('nolabel')];
  const existing = [peer('e1', 'a'), peer('e2', 'b'), peer('e3', 'c'), testPod('other', { labels: { app: 'y' }, nodeName: 'c' }), testPod('elsewhere', { namespace: 'x', labels: { app: 'x' }, nodeName: 'c' })];
  const rows: [string, object, Record<string, string | undefined>][] = [
    ['maxSkew 1 per zone: only the emptier zone', constraint('DoNotSchedule', 'zone'), { a: ERR_CONSTRAINTS_NOT_MATCH, b: ERR_CONSTRAINTS_NOT_MATCH, c: undefined, nolabel: ERR_MISSING_LABEL }],
    ['maxSkew 2 per zone: both (other labels and namespaces do not count)', constraint('DoNotSchedule', 'zone', 2), { a: undefined, b: undefined, c: undefined, nolabel: ERR_MISSING_LABEL }],
    ['minDomains above the domains: the minimum counts as 0', constraint('DoNotSchedule', 'zone', 2, { minDomains: 3 }), { a: ERR_CONSTRAINTS_NOT_MATCH, b: ERR_CONSTRAINTS_NOT_MATCH, c: undefined, nolabel: ERR_MISSING_LABEL }],
    ['ScheduleAnyway does not filter', constraint('ScheduleAnyway', 'zone'), { a: undefined, b: undefined, c: undefined, nolabel: undefined }],
  ];
  for (const [name, spec, want] of rows) {
    it(name, () => {
      const plugin = podTopologySpread({}, NO_SELECTORS);
      const snapshot = snapshotOf(nodes, existing);
      const state = new CycleState(snapshot);
      const pod = testPod('p', { labels: { app: 'x' }, spec: spec as Record<string, unknown> });
      plugin.preFilter!(state, pod);
      const got = Object.fromEntries(snapshot.nodes.map((n) => [n.name, plugin.filter!(state, pod, n)?.reasons[0]]));
      assert.deepEqual(got, want);
    });
  }
});

describe('PodTopologySpread score', () => {
  it('ScheduleAnyway per zone: the emptier zone scores 100', () => {
    const nodes = [testNode('a', { labels: { zone: 'z1' } }), testNode('b', { labels: { zone: 'z2' } })];
    const plugin = podTopologySpread({}, NO_SELECTORS);
    const snapshot = snapshotOf(nodes, [peer('e1', 'a'), peer('e2', 'a')]);
    const state = new CycleState(snapshot);
    const pod = testPod('p', { labels: { app: 'x' }, spec: constraint('ScheduleAnyway', 'zone') });
    plugin.preScore!(state, pod, snapshot.nodes);
    const scores = new Map(snapshot.nodes.map((n) => [n.name, plugin.score!(state, pod, n)]));
    // a: 2 × log(2 + 2) + 0 = 2.77 → 3; b: 0 → normalized 100 × (3 + 0 − s) / 3
    assert.deepEqual(Object.fromEntries(scores), { a: 3, b: 0 });
    plugin.normalizeScore!(state, pod, scores);
    assert.deepEqual(Object.fromEntries(scores), { a: 0, b: 100 });
  });

  it('system defaults spread the pods its controller selects over hostnames', () => {
    const selectors = { defaultSelector: () => labelSelector({ matchLabels: { app: 'x' } }) };
    const plugin = podTopologySpread({}, selectors);
    const snapshot = snapshotOf([testNode('a'), testNode('b')], [peer('e1', 'a'), peer('e2', 'a')]);
    const state = new CycleState(snapshot);
    const pod = testPod('p', { labels: { app: 'x' } });
    plugin.preScore!(state, pod, snapshot.nodes);
    const scores = new Map(snapshot.nodes.map((n) => [n.name, plugin.score!(state, pod, n)]));
    // hostname, maxSkew 3: a = 2 × log(4) + 2 = 4.77 → 5, b = 2; the zone default has no domains
    assert.deepEqual(Object.fromEntries(scores), { a: 5, b: 2 });
    plugin.normalizeScore!(state, pod, scores);
    assert.deepEqual(Object.fromEntries(scores), { a: 40, b: 100 });
  });

  it('without constraints or selector: no preference', () => {
    const plugin = podTopologySpread({}, NO_SELECTORS);
    const snapshot = snapshotOf([testNode('a'), testNode('b')], [peer('e1', 'a')]);
    const state = new CycleState(snapshot);
    const pod = testPod('p');
    plugin.preScore!(state, pod, snapshot.nodes);
    const scores = new Map(snapshot.nodes.map((n) => [n.name, plugin.score!(state, pod, n)]));
    plugin.normalizeScore!(state, pod, scores);
    assert.deepEqual(Object.fromEntries(scores), { a: 0, b: 0 });
  });
});
