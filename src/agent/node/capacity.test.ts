import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocatable, formatList, machineCapacity } from './capacity.js';
import { DEFAULT_EVICTION_HARD, parseEvictionThresholds } from './eviction.js';
import { GI, tableMachine } from './testmachine.js';

test('capacity from the machine, as kube formats it', () => {
  const m = tableMachine({ cpus: 2, memoryCapacity: 8141560 * 1024, rootFs: { capacityBytes: 20 * GI, availableBytes: GI, inodes: 1, inodesFree: 1 }, hugePages: { '2Mi': 64 * 1024 * 1024 } });
  assert.deepEqual(formatList(machineCapacity(m, { maxPods: 110 })), {
    cpu: '2', 'ephemeral-storage': '20Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '64Mi', memory: '8141560Ki', pods: '110',
  });
  assert.equal(formatList(machineCapacity(m, { maxPods: 30, localStorageCapacityIsolation: false }))['ephemeral-storage'], undefined);
});

test('allocatable: capacity less reservations and hard eviction thresholds', () => {
  const cap = machineCapacity(tableMachine({ memoryCapacity: 4 * GI, rootFs: { capacityBytes: 100 * GI, availableBytes: GI, inodes: 1, inodesFree: 1 } }), { maxPods: 110 });
  const rows: { name: string; svc?: Record<string, string>; sys?: Record<string, string>; hard: string; want: Record<string, string>; cap?: typeof cap }[] = [
    { name: 'default thresholds', hard: DEFAULT_EVICTION_HARD, want: { memory: '3996Mi', 'ephemeral-storage': '90Gi', cpu: '2', pods: '110' } },
    { name: 'svc and system reserved', svc: { cpu: '100m', memory: '256Mi' }, sys: { cpu: '400m', 'ephemeral-storage': '10Gi' }, hard: 'memory.available<100Mi', want: { cpu: '1500m', memory: '3740Mi', 'ephemeral-storage': '90Gi', pods: '110' } },
    { name: 'memory threshold as a percentage', hard: 'memory.available<25%', want: { memory: '3Gi' } },
    { name: 'never below zero', svc: { cpu: '5' }, hard: '', want: { cpu: '0' } },
    { name: 'huge pages come out of memory', hard: '', want: { memory: '3Gi' }, cap: machineCapacity(tableMachine({ memoryCapacity: 4 * GI, hugePages: { '1Gi': GI } }), { maxPods: 110 }) },
  ];
  for (const r of rows) {
    const got = formatList(allocatable(r.cap ?? cap, { svcReserved: r.svc, systemReserved: r.sys, evictionHard: parseEvictionThresholds(r.hard) }));
    for (const [k, v] of Object.entries(r.want)) assert.equal(got[k], v, `${r.name}: ${k}`);
  }
});
