// Which node changes requeue unschedulable pods (a heartbeat does not), and
// how requests are counted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { nodeSchedulingPropertiesChanged } from './events.js';
import { amount, podNonZeroRequests, podRequests } from './resources.js';
import { testNode, testPod } from './testing.js';

const withStatus = (n: ApiObject, status: object): ApiObject => ({ ...n, status: { ...(n.status as object), ...status } });

describe('nodeSchedulingPropertiesChanged', () => {
  const base = withStatus(testNode('a'), { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z' }] });
  const rows: [string, ApiObject, boolean][] = [
    ['a heartbeat', withStatus(base, { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:10Z' }] }), false],
    ['a condition status', withStatus(base, { conditions: [{ type: 'Ready', status: 'False' }] }), true],
    ['allocatable', withStatus(base, { allocatable: { cpu: '8', memory: '8Gi', pods: '110' } }), true],
    ['a label', { ...base, metadata: { ...base.metadata, labels: { x: 'y' } } }, true],
    ['a taint', { ...base, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }, true],
    ['cordoned', { ...base, spec: { unschedulable: true } }, true],
  ];
  for (const [name, next, want] of rows) it(name, () => assert.equal(nodeSchedulingPropertiesChanged(base, next), want));
});

describe('requests', () => {
  const amounts: [string, string, number][] = [['cpu', '100m', 100], ['cpu', '1.5', 1500], ['cpu', '1n', 1], ['memory', '1Ki', 1024], ['memory', '1.5', 2], ['storage', '1G', 1e9]];
  for (const [r, q, want] of amounts) it(`${r} ${q} → ${want}`, () => assert.equal(amount(r, q), want));

  it('containers add up, init containers take the max, overhead adds', () => {
    const p = testPod('p', { containers: [{ requests: { cpu: '1', memory: '1Gi' } }, { requests: { cpu: '500m' } }], initRequests: { cpu: '2', memory: '512Mi' }, spec: { overhead: { cpu: '100m' } } });
    assert.deepEqual(podRequests(p), { cpu: 2100, memory: 1024 ** 3 });
    assert.deepEqual(podNonZeroRequests(p), { cpu: 2100, memory: 1024 ** 3 + 200 * 1024 * 1024 });
  });
});
