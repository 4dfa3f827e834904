import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalTaintKey, minTolerationSeconds, toleratesTaint, wantedNoScheduleTaints, type Taint } from './taints.js';

const unreachable: Taint = { key: 'node.svc.io/unreachable', effect: 'NoExecute' };
const notReady: Taint = { key: 'node.svc.io/not-ready', effect: 'NoExecute' };
const dedicated: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' };

describe('taints and tolerations', () => {
  const tolerates: [string, Record<string, unknown>, Taint, boolean][] = [
    ['Exists on the key', { key: 'node.svc.io/unreachable', operator: 'Exists' }, unreachable, true],
    ['kube\'s spelling of the key', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }, unreachable, true],
    ['another effect', { key: 'node.svc.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }, unreachable, false],
    ['empty key with Exists tolerates everything', { operator: 'Exists' }, dedicated, true],
    ['Equal with the value', { key: 'dedicated', value: 'gpu' }, dedicated, true],
    ['Equal with another value', { key: 'dedicated', operator: 'Equal', value: 'cpu' }, dedicated, false],
    ['another key', { key: 'node.svc.io/not-ready', operator: 'Exists' }, unreachable, false],
  ];
  for (const [why, t, taint, want] of tolerates) it(why, () => assert.equal(toleratesTaint(t, taint), want));

  const seconds: [string, Record<string, unknown>[], Taint[], number | undefined][] = [
    ['not tolerated', [], [unreachable], undefined],
    ['tolerated forever', [{ key: 'node.svc.io/unreachable', operator: 'Exists' }], [unreachable], -1],
    ['the smallest of the matching seconds', [{ operator: 'Exists', tolerationSeconds: 300 }, { key: 'node.svc.io/unreachable', operator: 'Exists', tolerationSeconds: 60 }], [unreachable, notReady], 60],
    ['one taint of two not tolerated', [{ key: 'node.svc.io/unreachable', operator: 'Exists', tolerationSeconds: 5 }], [unreachable, notReady], undefined],
    ['negative seconds count as zero', [{ operator: 'Exists', tolerationSeconds: -3 }], [unreachable], 0],
  ];
  for (const [why, tols, taints, want] of seconds) it(why, () => assert.equal(minTolerationSeconds(tols, taints), want));

  it('NoSchedule taints follow conditions and spec.unschedulable', () => {
    const node = { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }, { type: 'MemoryPressure', status: 'True' }, { type: 'DiskPressure', status: 'False' }] } };
    assert.deepEqual(wantedNoScheduleTaints(node), ['node.svc.io/unreachable', 'node.svc.io/memory-pressure', 'node.svc.io/unschedulable']);
    assert.deepEqual(wantedNoScheduleTaints({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }), []);
    assert.equal(canonicalTaintKey('node.kubernetes.io/not-ready'), 'node.svc.io/not-ready');
    assert.equal(canonicalTaintKey('example.com/x'), 'example.com/x');
  });
});
