import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isKubeletLabel, forbiddenLabels } from '../admission/plugins/noderestriction.js';
import { DEFAULT_SETTINGS, defaultAllocatable, nodeLabels, nodeObject, nodeStatus, nodeStatusDiffers } from './node.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const ID = { name: 'sim-node-4', internalIP: '198.18.0.5' };
const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('simulated Node objects', () => {
  it('allocatable is capacity less the kubelet\'s hard eviction thresholds', () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' }, { cpu: '4', 'ephemeral-storage': '90Gi', memory: '16284Mi', pods: '110' }],
      [{ cpu: '500m', memory: '64Mi' }, { cpu: '500m', memory: '0' }],
      [{ cpu: '8' }, { cpu: '8' }],
    ];
    for (const [capacity, want] of cases) assert.deepEqual(defaultAllocatable(capacity), want, JSON.stringify(capacity));
  });

  it('carries only labels a kubelet may set (NodeRestriction), both spellings, and type=simulated', () => {
    const labels = nodeLabels(ID, DEFAULT_SETTINGS);
    assert.deepEqual(forbiddenLabels(labels, {}), []);
    for (const k of Object.keys(labels)) if (k !== 'type') assert.ok(isKubeletLabel(k), k);
    assert.equal(labels['kubernetes.io/hostname'], 'sim-node-4');
    assert.equal(labels['svc.io/os'], 'linux');
    assert.equal(labels.type, 'simulated');
  });

  it('registers Ready with the kubelet\'s condition texts and stable ids', () => {
    const n = nodeObject(ID, DEFAULT_SETTINGS, T0) as Any;
    assert.deepEqual(n.status.conditions.map((c: Any) => [c.type, c.status, c.reason]), [
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'], ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'], ['Ready', 'True', 'KubeletReady'],
    ]);
    assert.equal(n.status.conditions[3].lastHeartbeatTime, '2026-01-01T00:00:00Z');
    assert.match(n.status.nodeInfo.machineID, /^[0-9a-f]{32}$/);
    assert.match(n.status.nodeInfo.systemUUID, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(nodeObject(ID, DEFAULT_SETTINGS, T0 + 1).status && (nodeObject(ID, DEFAULT_SETTINGS, T0) as Any).status.nodeInfo.machineID, n.status.nodeInfo.machineID);
    assert.notEqual((nodeObject({ ...ID, name: 'other' }, DEFAULT_SETTINGS, T0) as Any).status.nodeInfo.machineID, n.status.nodeInfo.machineID);
  });

  it('a report moves heartbeats, keeps transition times while the status stays, and sees other writers\' changes', () => {
    const first = nodeStatus(ID, DEFAULT_SETTINGS, T0) as Any;
    const later = nodeStatus(ID, DEFAULT_SETTINGS, T0 + 60_000, first) as Any;
    assert.equal(later.conditions[3].lastHeartbeatTime, '2026-01-01T00:01:00Z');
    assert.equal(later.conditions[3].lastTransitionTime, '2026-01-01T00:00:00Z');
    assert.equal(nodeStatusDiffers(first, later), false, 'heartbeats alone are no change');
    const unknown = structuredClone(first);
    unknown.conditions[3] = { ...unknown.conditions[3], status: 'Unknown', reason: 'NodeStatusUnknown' };
    assert.equal(nodeStatusDiffers(unknown, nodeStatus(ID, DEFAULT_SETTINGS, T0, unknown)), true);
    const back = nodeStatus(ID, DEFAULT_SETTINGS, T0 + 1000, unknown) as Any;
    assert.equal(back.conditions[3].lastTransitionTime, '2026-01-01T00:00:01Z', 'Unknown → True is a transition');
    assert.equal(nodeStatusDiffers(undefined, first), true);
  });
});
