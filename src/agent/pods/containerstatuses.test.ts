import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import { apiContainerStatuses, ReasonCache, type InstanceStatus } from './containerstatuses.js';

type Obj = Record<string, unknown>;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const pod = (spec: Obj, status: Obj = {}): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' }, spec, status });
const inst = (name: string, state: InstanceStatus['state'], restartCount: number, exitCode = 0, reason = ''): InstanceStatus => ({
  name, state, containerID: `containerd://${name}${restartCount}`, createdAt: T0 + restartCount * 1000, startedAt: T0 + restartCount * 1000,
  finishedAt: state === 'exited' ? T0 + restartCount * 1000 + 500 : 0, exitCode, image: 'svc.local/busybox:1.35', imageID: 'sha256:abc', restartCount, reason, message: '',
});
const always = { willRestart: () => true, reasons: new ReasonCache() };

test('containers not yet created wait as ContainerCreating, or PodInitializing behind init containers', () => {
  const p = pod({ initContainers: [{ name: 'i', image: 'x' }], containers: [{ name: 'b', image: 'x' }, { name: 'a', image: 'x' }] });
  const s = apiContainerStatuses(p, [], false, always);
  assert.deepEqual(s.map((x) => [x.name, (x.state as Obj).waiting]), [['a', { reason: 'PodInitializing' }], ['b', { reason: 'PodInitializing' }]]);
  assert.deepEqual(apiContainerStatuses(p, [], true, always).map((x) => (x.state as Obj).waiting), [{ reason: 'ContainerCreating' }]);
});

test('the newest instance is the state and the one before it the lastState', () => {
  const p = pod({ containers: [{ name: 'a', image: 'x' }] });
  const [s] = apiContainerStatuses(p, [inst('a', 'exited', 0, 1, 'Error'), inst('a', 'running', 1)], false, always);
  assert.deepEqual(s?.state, { running: { startedAt: '2026-01-01T00:00:01Z' } });
  assert.deepEqual(s?.lastState, { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:00Z', containerID: 'containerd://a0' } });
  assert.equal(s?.restartCount, 1);
  assert.equal(s?.containerID, 'containerd://a1');
  assert.equal(s?.started, true);
});

test('a container waiting for its back-off shows the failure reason, its exit as lastState', () => {
  const reasons = new ReasonCache();
  reasons.set('u1', 'a', { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=a pod=p_ns(u1)' });
  const p = pod({ containers: [{ name: 'a', image: 'x' }] });
  const [s] = apiContainerStatuses(p, [inst('a', 'exited', 0, 1, 'Error')], false, { willRestart: () => true, reasons });
  assert.deepEqual(s?.state, { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=a pod=p_ns(u1)' } });
  assert.equal((s?.lastState as Obj).terminated !== undefined, true);
  const [never] = apiContainerStatuses(p, [inst('a', 'exited', 0, 1, 'Error')], false, { willRestart: () => false, reasons });
  assert.equal((never?.state as Obj).terminated !== undefined, true, 'not restarted: stays terminated');
});

test('an init container that succeeded is not shown waiting; a running container the runtime lost at termination is 137 ContainerStatusUnknown', () => {
  const reasons = new ReasonCache();
  reasons.set('u1', 'i', { reason: 'ErrImagePull', message: 'x' });
  const p = pod({ initContainers: [{ name: 'i', image: 'x' }], containers: [{ name: 'a', image: 'x' }] }, { containerStatuses: [{ name: 'a', restartCount: 0, state: { running: { startedAt: 't' } } }] });
  const [i] = apiContainerStatuses(p, [inst('i', 'exited', 0, 0, 'Completed')], true, { willRestart: () => true, reasons });
  assert.equal(((i?.state as Obj).terminated as Obj).reason, 'Completed');
  const [a] = apiContainerStatuses(p, [], false, { ...always, terminal: true });
  assert.equal(((a?.state as Obj).terminated as Obj).reason, 'ContainerStatusUnknown');
  assert.equal(((a?.state as Obj).terminated as Obj).exitCode, 137);
});
