// The score plugins, table-driven: each row the nodes (with pods), the pod,
// and the normalized scores kube's plugin gives each node.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { CycleState, type Plugin } from '../framework.js';
import { snapshotOf, testNode, testPod } from '../testing.js';
import { taintToleration } from './tainttoleration.js';
import { nodeAffinity } from './nodeaffinity.js';
import { balancedScore, nodeResourcesBalancedAllocation, nodeResourcesFit } from './noderesources.js';
import { imageLocality, imagePriority } from './imagelocality.js';

interface Row {
  readonly name: string;
  readonly plugin: () => Plugin;
  readonly nodes: readonly ApiObject[];
  readonly existing?: readonly ApiObject[];
  readonly pod: ApiObject;
  readonly want: Record<string, number>;
}

const MB = 1024 * 1024;
const preferred = (...terms: { weight: number; key: string; values: string[] }[]) => ({
  affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: terms.map((t) => ({ weight: t.weight, preference: { matchExpressions: [{ key: t.key, operator: 'In', values: t.values }] } })) } },
});

const ROWS: Row[] = [
  {
    name: 'NodeResourcesFit LeastAllocated: the emptier node scores higher',
    plugin: nodeResourcesFit, nodes: [testNode('a'), testNode('b')],
    existing: [testPod('q', { requests: { cpu: '1', memory: '2Gi' }, nodeName: 'a' })],
    pod: testPod('p', { requests: { cpu: '1', memory: '2Gi' } }), want: { a: 50, b: 75 },
  },
  {
    name: 'NodeResourcesFit LeastAllocated: a pod without requests counts as 100m and 200 MB',
    plugin: nodeResourcesFit, nodes: [testNode('a')], pod: testPod('p'), want: { a: 97 },
  },
  {
    name: 'NodeResourcesFit MostAllocated: the fuller node scores higher',
    plugin: () => nodeResourcesFit({ scoringStrategy: { type: 'MostAllocated' } }), nodes: [testNode('a'), testNode('b')],
    existing: [testPod('q', { requests: { cpu: '1', memory: '2Gi' }, nodeName: 'a' })],
    pod: testPod('p', { requests: { cpu: '1', memory: '2Gi' } }), want: { a: 50, b: 25 },
  },
  {
    name: 'NodeResourcesBalancedAllocation: even use scores 100, uneven less',
    plugin: nodeResourcesBalancedAllocation, nodes: [testNode('a'), testNode('b', { memory: '32Gi' })],
    pod: testPod('p', { requests: { cpu: '1', memory: '2Gi' } }), want: { a: 100, b: 90 },
  },
  {
    name: 'TaintToleration: fewer untolerated PreferNoSchedule taints is better (reversed)',
    plugin: taintToleration,
    nodes: [
      testNode('a'),
      testNode('b', { taints: [{ key: 'x', effect: 'PreferNoSchedule' }] }),
      testNode('c', { taints: [{ key: 'x', effect: 'PreferNoSchedule' }, { key: 'y', effect: 'PreferNoSchedule' }, { key: 'z', value: 'v', effect: 'PreferNoSchedule' }] }),
    ],
    pod: testPod('p', { spec: { tolerations: [{ key: 'z', operator: 'Equal', value: 'v', effect: 'PreferNoSchedule' }] } }), want: { a: 100, b: 50, c: 0 },
  },
  {
    name: 'TaintToleration: no taints anywhere scores everyone 100',
    plugin: taintToleration, nodes: [testNode('a'), testNode('b')], pod: testPod('p'), want: { a: 100, b: 100 },
  },
  {
    name: 'NodeAffinity: preferred weights add up, normalized to the best',
    plugin: nodeAffinity,
    nodes: [testNode('a', { labels: { zone: 'z1' } }), testNode('b', { labels: { zone: 'z1', disk: 'ssd' } }), testNode('c')],
    pod: testPod('p', { spec: preferred({ weight: 2, key: 'zone', values: ['z1'] }, { weight: 6, key: 'disk', values: ['ssd'] }) }), want: { a: 25, b: 100, c: 0 },
  },
  {
    name: 'ImageLocality: the image size, scaled by its spread over the nodes',
    plugin: imageLocality,
    nodes: [testNode('a', { images: [{ names: ['nginx:latest'], sizeBytes: 250 * MB }] }), testNode('b')],
    pod: testPod('p', { containers: [{ image: 'nginx' }] }), want: { a: 10, b: 0 },
  },
];

describe('score plugins', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const plugin = row.plugin();
      const snapshot = snapshotOf(row.nodes, row.existing ?? []);
      const state = new CycleState(snapshot);
      plugin.preFilter?.(state, row.pod);
      plugin.preScore?.(state, row.pod, snapshot.nodes);
      const scores = new Map(snapshot.nodes.map((n) => [n.name, plugin.score!(state, row.pod, n)]));
      plugin.normalizeScore?.(state, row.pod, scores);
      assert.deepEqual(Object.fromEntries(scores), row.want);
    });
  }
});

describe('score arithmetic', () => {
  const balanced: [number[], number][] = [[[0.25, 0.25], 100], [[0.5, 0.125], 81], [[1, 0], 50], [[0.5], 100], [[0.2, 0.4, 0.6], 83]];
  for (const [fractions, want] of balanced) it(`balanced ${fractions.join(',')} → ${want}`, () => assert.equal(balancedScore(fractions), want));
  const images: [number, number, number][] = [[0, 1, 0], [23 * MB, 1, 0], [1000 * MB, 1, 100], [2000 * MB, 1, 100], [511.5 * MB, 1, 50], [1000 * MB, 2, 49]];
  for (const [sum, containers, want] of images) it(`image priority ${sum / MB} MB over ${containers} containers → ${want}`, () => assert.equal(imagePriority(sum, containers), want));
});
