import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeConditions, PressureTracker, readiness } from './conditions.js';
import { parseEvictionThresholds } from './eviction.js';
import { RuntimeState } from './runtimestate.js';

const ALL = ['cpu', 'memory', 'pods', 'ephemeral-storage'];
const ready = (c: { type: string; status: boolean; reason?: string; message?: string }[]) => c.map((x) => ({ reason: '', message: '', ...x }));

test('Ready from the runtime state, with kube reasons and messages', () => {
  const rows: { name: string; observe?: ReturnType<typeof ready>; at?: number; want: ReturnType<typeof readiness> }[] = [
    { name: 'never checked', want: { status: 'False', reason: 'KubeletNotReady', message: 'container runtime status check may not have completed yet' } },
    { name: 'ready', observe: ready([{ type: 'RuntimeReady', status: true }, { type: 'NetworkReady', status: true }]), want: { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' } },
    {
      name: 'network not ready', observe: ready([{ type: 'RuntimeReady', status: true }, { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' }]),
      want: { status: 'False', reason: 'KubeletNotReady', message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized' },
    },
    { name: 'silent for 30 s', observe: ready([{ type: 'RuntimeReady', status: true }, { type: 'NetworkReady', status: true }]), at: 30_000, want: { status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' } },
  ];
  for (const r of rows) {
    const s = new RuntimeState();
    if (r.observe) s.observe(r.observe, 1);
    const now = 1 + (r.at ?? 0);
    assert.deepEqual(readiness({ errors: [...s.runtimeErrors(now), ...s.networkErrors()], capacityNames: ALL }), r.want, r.name);
  }
  assert.deepEqual(readiness({ errors: [], capacityNames: ['cpu', 'pods'] }).message, 'missing node capacity for resources: memory, ephemeral-storage');
  assert.equal(readiness({ errors: [], capacityNames: ALL, appArmorEnabled: true }).message, 'kubelet is posting ready status. AppArmor enabled');
});

test('runtime not ready', async () => {
  const s = new RuntimeState();
  await s.check({ status: async () => ready([{ type: 'RuntimeReady', status: false, reason: 'Boom', message: 'down' }, { type: 'NetworkReady', status: true }]) }, () => 5);
  assert.deepEqual(s.runtimeErrors(5), ['container runtime status check may not have completed yet', 'container runtime not ready: RuntimeReady=false reason:Boom message:down']);
  await s.check({ status: async () => { throw new Error('unavailable'); } }, () => 6);
  assert.equal(s.runtimeErrors(6).length, 2);
});

test('pressure conditions and transition times', () => {
  const tracker = new PressureTracker(parseEvictionThresholds('memory.available<100Mi'), 60_000);
  const healthy = { memory: { available: 2 ** 30, capacity: 2 ** 32 }, nodefs: { capacityBytes: 10, availableBytes: 5, inodes: 0, inodesFree: 0 }, pids: { running: 1, max: 10 } };
  const low = { ...healthy, memory: { available: 2 ** 20, capacity: 2 ** 32 } };
  const readyIn = { errors: [], capacityNames: ALL };
  tracker.observe(healthy, 0);
  const first = nodeConditions({ pressure: (t) => tracker.under(t, 0), ready: readyIn, now: 0 });
  assert.deepEqual(first.map((c) => [c.type, c.status, c.reason]), [
    ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'], ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID'], ['Ready', 'True', 'KubeletReady'],
  ]);
  tracker.observe(low, 10_000);
  const second = nodeConditions({ pressure: (t) => tracker.under(t, 10_000), ready: readyIn, now: 10_000, previous: { conditions: first } });
  assert.deepEqual(second[0], { type: 'MemoryPressure', status: 'True', lastHeartbeatTime: '1970-01-01T00:00:10Z', lastTransitionTime: '1970-01-01T00:00:10Z', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' });
  assert.equal(second[3]!.lastTransitionTime, '1970-01-01T00:00:00Z', 'Ready did not change');
  // healthy again, but within the transition period: still under pressure
  tracker.observe(healthy, 40_000);
  assert.equal(tracker.under('MemoryPressure', 40_000), true);
  assert.equal(tracker.under('MemoryPressure', 70_000), false);
});
