// The filter plugins, table-driven: each row a pod, a node (with pods on it)
// and the status kube's plugin answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { CycleState, type Plugin, type Status } from '../framework.js';
import { nodeInfoWith, snapshotOf, testNode, testPod } from '../testing.js';
import { nodeUnschedulable } from './nodeunschedulable.js';
import { nodeNamePlugin } from './nodename.js';
import { taintToleration } from './tainttoleration.js';
import { nodeAffinity } from './nodeaffinity.js';
import { nodePorts } from './nodeports.js';
import { nodeResourcesFit } from './noderesources.js';

interface Row {
  readonly name: string;
  readonly plugin: () => Plugin;
  readonly pod: ApiObject;
  readonly node: ApiObject;
  readonly existing?: readonly ApiObject[];
  readonly want: Pick<Status, 'code' | 'reasons'> | undefined;
}

const unsched = (...reasons: string[]) => ({ code: 'Unschedulable' as const, reasons });
const unresolvable = (...reasons: string[]) => ({ code: 'UnschedulableAndUnresolvable' as const, reasons });
const affinity = (required: unknown) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } } });
const term = (...matchExpressions: unknown[]) => ({ nodeSelectorTerms: [{ matchExpressions }] });

const ROWS: Row[] = [
  { name: 'NodeUnschedulable: schedulable node', plugin: nodeUnschedulable, pod: testPod('p'), node: testNode('n'), want: undefined },
  { name: 'NodeUnschedulable: cordoned', plugin: nodeUnschedulable, pod: testPod('p'), node: testNode('n', { unschedulable: true }), want: unresolvable('node(s) were unschedulable') },
  {
    name: 'NodeUnschedulable: cordoned, tolerated', plugin: nodeUnschedulable, node: testNode('n', { unschedulable: true }),
    pod: testPod('p', { spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } }), want: undefined,
  },
  { name: 'NodeName: other node', plugin: nodeNamePlugin, pod: testPod('p', { spec: { nodeName: 'x' } }), node: testNode('n'), want: unresolvable("node(s) didn't match the requested node name") },
  { name: 'NodeName: same node', plugin: nodeNamePlugin, pod: testPod('p', { spec: { nodeName: 'n' } }), node: testNode('n'), want: undefined },
  {
    name: 'TaintToleration: NoSchedule untolerated', plugin: taintToleration, pod: testPod('p'),
    node: testNode('n', { taints: [{ key: 'a', value: 'b', effect: 'PreferNoSchedule' }, { key: 'k', value: 'v', effect: 'NoSchedule' }] }), want: unresolvable('node(s) had untolerated taint {k: v}'),
  },
  {
    name: 'TaintToleration: NoExecute without value', plugin: taintToleration, pod: testPod('p'),
    node: testNode('n', { taints: [{ key: 'k', effect: 'NoExecute' }] }), want: unresolvable('node(s) had untolerated taint {k: }'),
  },
  {
    name: 'TaintToleration: Exists tolerates any value', plugin: taintToleration, pod: testPod('p', { spec: { tolerations: [{ key: 'k', operator: 'Exists' }] } }),
    node: testNode('n', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }), want: undefined,
  },
  {
    name: 'TaintToleration: wrong effect does not tolerate', plugin: taintToleration, pod: testPod('p', { spec: { tolerations: [{ key: 'k', value: 'v', effect: 'NoExecute' }] } }),
    node: testNode('n', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }), want: unresolvable('node(s) had untolerated taint {k: v}'),
  },
  { name: 'TaintToleration: PreferNoSchedule never filters', plugin: taintToleration, pod: testPod('p'), node: testNode('n', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }), want: undefined },
  { name: 'NodeAffinity: nodeSelector matches', plugin: nodeAffinity, pod: testPod('p', { spec: { nodeSelector: { disk: 'ssd' } } }), node: testNode('n', { labels: { disk: 'ssd' } }), want: undefined },
  {
    name: 'NodeAffinity: nodeSelector does not match', plugin: nodeAffinity, pod: testPod('p', { spec: { nodeSelector: { disk: 'ssd' } } }), node: testNode('n'),
    want: unresolvable("node(s) didn't match Pod's node affinity/selector"),
  },
  { name: 'NodeAffinity: In', plugin: nodeAffinity, pod: testPod('p', { spec: affinity(term({ key: 'zone', operator: 'In', values: ['a', 'b'] })) }), node: testNode('n', { labels: { zone: 'b' } }), want: undefined },
  {
    name: 'NodeAffinity: NotIn excludes', plugin: nodeAffinity, pod: testPod('p', { spec: affinity(term({ key: 'zone', operator: 'NotIn', values: ['b'] })) }), node: testNode('n', { labels: { zone: 'b' } }),
    want: unresolvable("node(s) didn't match Pod's node affinity/selector"),
  },
  { name: 'NodeAffinity: DoesNotExist', plugin: nodeAffinity, pod: testPod('p', { spec: affinity(term({ key: 'gpu', operator: 'DoesNotExist' })) }), node: testNode('n'), want: undefined },
  { name: 'NodeAffinity: Gt', plugin: nodeAffinity, pod: testPod('p', { spec: affinity(term({ key: 'cores', operator: 'Gt', values: ['8'] })) }), node: testNode('n', { labels: { cores: '16' } }), want: undefined },
  {
    name: 'NodeAffinity: Lt fails', plugin: nodeAffinity, pod: testPod('p', { spec: affinity(term({ key: 'cores', operator: 'Lt', values: ['8'] })) }), node: testNode('n', { labels: { cores: '16' } }),
    want: unresolvable("node(s) didn't match Pod's node affinity/selector"),
  },
  {
    name: 'NodeAffinity: terms are ORed, matchFields by name', plugin: nodeAffinity, node: testNode('n2'),
    pod: testPod('p', { spec: affinity({ nodeSelectorTerms: [{ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }] }) }), want: undefined,
  },
  {
    name: 'NodeAffinity: an empty term matches nothing', plugin: nodeAffinity, node: testNode('n'), pod: testPod('p', { spec: affinity({ nodeSelectorTerms: [{}] }) }),
    want: unresolvable("node(s) didn't match Pod's node affinity/selector"),
  },
  {
    name: 'NodePorts: same port taken', plugin: nodePorts, pod: testPod('p', { containers: [{ hostPort: 80 }] }), node: testNode('n'),
    existing: [testPod('q', { containers: [{ hostPort: 80 }], nodeName: 'n' })], want: unsched("node(s) didn't have free ports for the requested pod ports"),
  },
  {
    name: 'NodePorts: other protocol is free', plugin: nodePorts, pod: testPod('p', { containers: [{ hostPort: 80, protocol: 'UDP' }] }), node: testNode('n'),
    existing: [testPod('q', { containers: [{ hostPort: 80 }], nodeName: 'n' })], want: undefined,
  },
  {
    name: 'NodePorts: different host IPs do not conflict', plugin: nodePorts, pod: testPod('p', { containers: [{ hostPort: 80, hostIP: '10.0.0.1' }] }), node: testNode('n'),
    existing: [testPod('q', { containers: [{ hostPort: 80, hostIP: '10.0.0.2' }], nodeName: 'n' })], want: undefined,
  },
  {
    name: 'NodePorts: 0.0.0.0 conflicts with a specific IP', plugin: nodePorts, pod: testPod('p', { containers: [{ hostPort: 80 }] }), node: testNode('n'),
    existing: [testPod('q', { containers: [{ hostPort: 80, hostIP: '10.0.0.2' }], nodeName: 'n' })], want: unsched("node(s) didn't have free ports for the requested pod ports"),
  },
  { name: 'NodeResourcesFit: fits', plugin: nodeResourcesFit, pod: testPod('p', { requests: { cpu: '2', memory: '1Gi' } }), node: testNode('n'), want: undefined },
  {
    name: 'NodeResourcesFit: cpu and memory short, in kube\'s order', plugin: nodeResourcesFit, pod: testPod('p', { requests: { cpu: '3', memory: '7Gi' } }), node: testNode('n'),
    existing: [testPod('q', { requests: { cpu: '1500m', memory: '2Gi' }, nodeName: 'n' })], want: unsched('Insufficient cpu', 'Insufficient memory'),
  },
  {
    name: 'NodeResourcesFit: too many pods even without requests', plugin: nodeResourcesFit, pod: testPod('p'), node: testNode('n', { pods: '1' }),
    existing: [testPod('q', { nodeName: 'n' })], want: unsched('Too many pods'),
  },
  {
    name: 'NodeResourcesFit: init container request is the max', plugin: nodeResourcesFit, pod: testPod('p', { requests: { cpu: '1' }, initRequests: { cpu: '5' } }), node: testNode('n'),
    want: unsched('Insufficient cpu'),
  },
  {
    name: 'NodeResourcesFit: extended resource', plugin: nodeResourcesFit, pod: testPod('p', { requests: { 'example.com/gpu': '2' } }), node: testNode('n', { extra: { 'example.com/gpu': '1' } }),
    want: unsched('Insufficient example.com/gpu'),
  },
  {
    name: 'NodeResourcesFit: overhead counts', plugin: nodeResourcesFit, pod: testPod('p', { requests: { cpu: '3900m' }, spec: { overhead: { cpu: '200m' } } }), node: testNode('n'),
    want: unsched('Insufficient cpu'),
  },
];

describe('filter plugins', () => {
  for (const row of ROWS) {
    it(row.name, () => {
      const plugin = row.plugin();
      const node = nodeInfoWith(row.node, row.existing ?? []);
      const state = new CycleState(snapshotOf([row.node], row.existing ?? []));
      plugin.preFilter?.(state, row.pod);
      const got = plugin.filter!(state, row.pod, node);
      assert.deepEqual(got && { code: got.code, reasons: got.reasons }, row.want);
    });
  }
});
