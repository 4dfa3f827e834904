import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import type { RuntimePodView } from './ports.js';
import { graceOf, PodLifecycle, type Rejection, type SyncerDeps } from './syncer.js';
import { StatusManager } from './statusmanager.js';

type Obj = Record<string, unknown>;
const pod = (extra: Obj = {}, meta: Obj = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', ...meta }, spec: { containers: [{ name: 'a', image: 'i' }], ...extra },
});

function deps(log: string[], opts: { view?: RuntimePodView; mountError?: string; rejection?: Rejection } = {}): SyncerDeps & { written: Obj[] } {
  const written: Obj[] = [];
  const status = { setPodStatus: (_u: string, _t: unknown, s: Obj) => { written.push(s); }, markFinished: (uid: string) => log.push(`finished ${uid}`) } as unknown as StatusManager;
  return {
    written,
    status,
    runtime: {
      status: async () => opts.view ?? { initContainerStatuses: [], containerStatuses: [], podIPs: [] },
      sync: async (_p, env) => { log.push(`sync cgroup=${env.cgroupParent} mounts=${[...env.mounts.keys()].join(',')}`); return { requeueMs: 5 }; },
      kill: async (_p, grace) => { log.push(`kill grace=${grace}`); },
      remove: async () => undefined,
      podUids: async () => [],
    },
    volumes: {
      mount: async () => { if (opts.mountError) throw new Error(opts.mountError); return new Map([['data', { hostPath: '/x' }]]); },
      unmount: async () => { log.push('unmount'); },
    },
    probes: { add: () => log.push('probes on'), remove: () => log.push('probes off'), apply: (_p, s) => [...s] as Obj[] },
    cgroups: { ensure: async () => '/kubepods/besteffort/podu1', remove: async () => { log.push('cgroup removed'); } },
    mirrors: { isStatic: () => false, ensure: async () => undefined, remove: async () => undefined },
    events: { record: (_p, type, reason, message) => log.push(`event ${type} ${reason}: ${message}`) },
    hostIP: () => '192.168.0.2',
    rejection: () => opts.rejection,
    now: () => Date.parse('2026-01-01T00:00:00Z'),
  };
}

test('a pod is synced: status first, then cgroup, volumes, runtime and probes', async () => {
  const log: string[] = [];
  const d = deps(log);
  const out = await new PodLifecycle(d).syncPod(pod());
  assert.deepEqual(out, { requeueMs: 5 });
  assert.deepEqual(log, ['sync cgroup=/kubepods/besteffort/podu1 mounts=data', 'probes on']);
  assert.equal(d.written[0]?.phase, 'Pending');
  assert.equal(d.written[0]?.hostIP, '192.168.0.2');
});

test('a refused pod is Failed with the kubelet\'s reason and goes terminal without running', async () => {
  const log: string[] = [];
  const d = deps(log, { rejection: { reason: 'OutOfcpu', message: 'Node didn\'t have enough resource: cpu, requested: 8000, used: 0, capacity: 2000' } });
  const out = await new PodLifecycle(d).syncPod(pod());
  assert.deepEqual(out, { terminal: true });
  assert.deepEqual(log, []);
  assert.equal(d.written[0]?.phase, 'Failed');
  assert.equal(d.written[0]?.reason, 'OutOfcpu');
  assert.equal(d.written[0]?.message, 'Pod was rejected: Node didn\'t have enough resource: cpu, requested: 8000, used: 0, capacity: 2000');
});

test('a volume that cannot be mounted is a FailedMount event and a retry', async () => {
  const log: string[] = [];
  const out = await new PodLifecycle(deps(log, { mountError: 'MountVolume.SetUp failed for volume "cfg" : configmap "cfg" not found' })).syncPod(pod());
  assert.deepEqual(out, { requeueMs: 2000 });
  assert.deepEqual(log, ['event Warning FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap "cfg" not found']);
});

test('a finished Never pod is terminal; terminating kills with the grace period, terminated cleans up', async () => {
  const log: string[] = [];
  const view: RuntimePodView = { initContainerStatuses: [], containerStatuses: [{ name: 'a', ready: false, state: { terminated: { exitCode: 0 } } }], podIPs: [] };
  const d = deps(log, { view });
  const life = new PodLifecycle(d);
  const p = pod({ restartPolicy: 'Never' });
  assert.deepEqual(await life.syncPod(p), { terminal: true });
  assert.equal(d.written[0]?.phase, 'Succeeded');
  await life.syncTerminatingPod(p, undefined);
  await life.syncTerminatedPod(p);
  assert.deepEqual(log, ['probes off', 'kill grace=30', 'unmount', 'cgroup removed', 'finished u1']);
});

test('init containers are ready once they exited 0, as kube\'s prober manager says; failed or running ones are not', async () => {
  const cases: [string, Obj, boolean][] = [
    ['completed', { terminated: { exitCode: 0, reason: 'Completed' } }, true],
    ['failed', { terminated: { exitCode: 2, reason: 'Error' } }, false],
    ['running', { running: { startedAt: '2026-01-01T00:00:00Z' } }, false],
    ['waiting', { waiting: { reason: 'PodInitializing' } }, false],
  ];
  const view: RuntimePodView = {
    initContainerStatuses: cases.map(([name, state]) => ({ name, ready: false, state })),
    containerStatuses: [{ name: 'a', ready: false, state: { waiting: { reason: 'PodInitializing' } } }],
    podIPs: [],
  };
  const d = deps([], { view });
  await new PodLifecycle(d).syncPod(pod({ initContainers: cases.map(([name]) => ({ name, image: 'i' })) }));
  const got = (d.written[0]?.initContainerStatuses as Obj[]).map((s) => [s.name, s.ready]);
  assert.deepEqual(got, cases.map(([name, , ready]) => [name, ready]));
});

test('graceOf: the deletion\'s grace period, else the pod\'s, else 30 s', () => {
  assert.equal(graceOf(pod({}, { deletionGracePeriodSeconds: 5 })), 5);
  assert.equal(graceOf(pod({ terminationGracePeriodSeconds: 0 })), 0);
  assert.equal(graceOf(pod()), 30);
});

