import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containerIdFor, ContainerLogError, locateContainerLog } from './locate.js';
import { CriError, type ContainerStatus } from '../cri/types.js';

const cs = (o: Record<string, unknown>) => ({ containerStatuses: [{ name: 'app', ...o }] });
const T = (id: string) => ({ terminated: { exitCode: 1, containerID: id } });

test('containerIdFor: kube\'s validateContainerLogStatus table', () => {
  const rows: { name: string; status: unknown; previous?: boolean; container?: string; id?: string; error?: string }[] = [
    { name: 'running', status: cs({ containerID: 'containerd://c2', state: { running: {} }, lastState: T('containerd://c1') }), id: 'containerd://c2' },
    { name: 'previous', status: cs({ containerID: 'containerd://c2', state: { running: {} }, lastState: T('containerd://c1') }), previous: true, id: 'containerd://c1' },
    { name: 'previous without one', status: cs({ containerID: 'containerd://c2', state: { running: {} } }), previous: true, error: 'previous terminated container "app" in pod "p" not found' },
    { name: 'terminated', status: cs({ state: T('containerd://c3') }), id: 'containerd://c3' },
    { name: 'terminated, next never started', status: cs({ state: { terminated: { exitCode: 1 } }, lastState: T('containerd://c1') }), id: 'containerd://c1' },
    { name: 'terminated without any ID', status: cs({ state: { terminated: { exitCode: 1 } } }), error: 'container "app" in pod "p" is terminated' },
    { name: 'waiting in back-off after a run', status: cs({ state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: T('containerd://c1') }), id: 'containerd://c1' },
    { name: 'waiting to be created', status: cs({ state: { waiting: { reason: 'ContainerCreating' } } }), error: 'container "app" in pod "p" is waiting to start: ContainerCreating' },
    { name: 'image pull failed', status: cs({ state: { waiting: { reason: 'ErrImagePull' } } }), error: 'container "app" in pod "p" is waiting to start: image can\'t be pulled' },
    { name: 'image pull back-off', status: cs({ state: { waiting: { reason: 'ImagePullBackOff' } } }), error: 'container "app" in pod "p" is waiting to start: trying and failing to pull image' },
    { name: 'no state', status: cs({ state: {} }), error: 'container "app" in pod "p" is waiting to start - no logs yet' },
    { name: 'init container', status: { initContainerStatuses: [{ name: 'init', state: T('containerd://i1') }] }, container: 'init', id: 'containerd://i1' },
    { name: 'no status yet', status: {}, error: 'container "app" in pod "p" is not available' },
  ];
  for (const r of rows) {
    const run = () => containerIdFor('p', r.status, r.container ?? 'app', r.previous ?? false);
    if (r.error) assert.throws(run, (e: unknown) => e instanceof ContainerLogError && e.message === r.error, r.name);
    else assert.equal(run(), r.id, r.name);
  }
});

test('locateContainerLog: the CRI log path; following while RUNNING; an unknown container as kube words it', async () => {
  let state: ContainerStatus['state'] = 'CONTAINER_RUNNING';
  const runtime = {
    containerStatus: async (id: string) => {
      if (id !== 'c2') throw new CriError(5, `container "${id}" not found`, "ContainerStatus");
      return { id, state, logPath: '/var/log/pods/ns_p_u/app/1.log' } as ContainerStatus;
    },
  };
  const log = await locateContainerLog(runtime, { name: 'p', status: cs({ containerID: 'containerd://c2', state: { running: {} }, lastState: T('containerd://c1') }) }, 'app', false);
  assert.equal(log.path, '/var/log/pods/ns_p_u/app/1.log');
  assert.equal(await log.running(), true);
  state = 'CONTAINER_EXITED';
  assert.equal(await log.running(), false);
  await assert.rejects(locateContainerLog(runtime, { name: 'p', status: cs({ state: { running: {} }, containerID: 'containerd://c2', lastState: T('containerd://c1') }) }, 'app', true),
    (e: unknown) => e instanceof ContainerLogError && e.message === 'unable to retrieve container logs for containerd://c1');
});
