import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { tempDir } from '../../testing/tempdir.js';
import { apiContainerStatuses, ReasonCache } from './apistatus.js';
import { MemoryEvents } from './events.js';
import { FakeImages, FakeRuntime } from './fake.js';
import { RuntimeManager } from './manager.js';
import { KubeRuntimePort } from './port.js';
import { testContainer, testPod } from './testpods.js';
import type { Pod } from './types.js';

const IMAGE = 'svc.local/busybox:1.35';

function harness() {
  const clock = { now: Date.UTC(2026, 0, 1, 12, 0, 0) };
  const now = (): number => clock.now;
  const runtime = new FakeRuntime({ now });
  const images = new FakeImages();
  images.add(IMAGE);
  const podLogsRoot = tempDir('kr-port-logs-');
  const manager = new RuntimeManager({
    runtime, images, events: new MemoryEvents(), now, cpuCFSQuota: true, memoryCapacity: 1 << 30, nodeAllocatable: {}, hostIPs: ['192.168.1.10'],
    dns: { clusterDNS: [], clusterDomain: '', resolvConf: '' }, podsDir: tempDir('kr-port-pods-'), podLogsRoot,
  });
  const port = new KubeRuntimePort(manager, { runtime, podLogsRoot });
  return { clock, runtime, images, port, podLogsRoot };
}

const obj = (p: Pod, status?: Record<string, unknown>): ApiObject => ({ ...(p as unknown as ApiObject), ...(status ? { status } : {}) });
const env = { mounts: new Map(), cgroupParent: '' };

describe('RuntimePort over the runtime manager', () => {
  it('before any sync: waiting ContainerCreating (PodInitializing with init containers), ready false', async () => {
    const h = harness();
    const v = await h.port.status(obj(testPod({ initContainers: [testContainer({ name: 'init' })] })));
    assert.deepEqual(v.initContainerStatuses, [{ name: 'init', state: { waiting: { reason: 'PodInitializing' } }, lastState: {}, ready: false, restartCount: 0, image: IMAGE, imageID: '' }]);
    assert.deepEqual(v.containerStatuses.map((s) => s.state), [{ waiting: { reason: 'PodInitializing' } }]);
    assert.deepEqual((await h.port.status(obj(testPod()))).containerStatuses.map((s) => s.state), [{ waiting: { reason: 'ContainerCreating' } }]);
    assert.deepEqual(v.podIPs, []);
  });

  it('running: startedAt, containerID, imageID, pod IPs; containers sorted by name', async () => {
    const h = harness();
    const pod = testPod({ containers: [testContainer({ name: 'zeta' }), testContainer({ name: 'alpha' })] });
    assert.deepEqual(await h.port.sync(obj(pod), env), {});
    const v = await h.port.status(obj(pod));
    assert.deepEqual(v.podIPs, ['10.88.0.2']);
    assert.deepEqual(v.containerStatuses.map((s) => s.name), ['alpha', 'zeta']);
    const s = v.containerStatuses[0];
    assert.deepEqual(s.state, { running: { startedAt: '2026-01-01T12:00:00Z' } });
    assert.equal(s.containerID, `containerd://${h.runtime.find('web', 'alpha')!.id}`);
    assert.equal(s.imageID, h.images.images.get(IMAGE)!.id);
  });

  it('CrashLoopBackOff: waiting with kube\'s reason and message, lastState terminated, a requeue when the back-off ends', async () => {
    const h = harness();
    h.runtime.onStart = () => ({ exitCode: 2 });
    const pod = testPod();
    await h.port.sync(obj(pod), env);
    await h.port.sync(obj(pod), env);
    h.clock.now += 3000;
    const out = await h.port.sync(obj(pod), env);
    assert.deepEqual(out, { requeueMs: 7000 });
    const v = await h.port.status(obj(pod));
    const s = v.containerStatuses[0];
    assert.deepEqual(s.state, { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=app pod=web_ns1(uid-1)' } });
    assert.deepEqual(s.lastState, { terminated: { exitCode: 2, reason: 'Error', message: '', startedAt: '2026-01-01T12:00:00Z', finishedAt: '2026-01-01T12:00:00Z', containerID: s.containerID } });
    assert.equal(s.restartCount, 1);
  });

  it('ErrImageNeverPull: waiting with the reason and message; cleared once the image is there', async () => {
    const h = harness();
    const pod = testPod({ containers: [testContainer({ image: 'local/app:1', imagePullPolicy: 'Never' })] });
    await h.port.sync(obj(pod), env);
    let s = (await h.port.status(obj(pod))).containerStatuses[0];
    assert.deepEqual(s.state, { waiting: { reason: 'ErrImageNeverPull', message: 'Container image "local/app:1" is not present with pull policy of Never' } });
    h.images.add('local/app:1');
    await h.port.sync(obj(pod), env);
    s = (await h.port.status(obj(pod))).containerStatuses[0];
    assert.ok((s.state as Record<string, unknown>).running);
  });

  it('Never: a completed container stays terminated (no waiting reason)', async () => {
    const h = harness();
    h.runtime.onStart = () => ({ exitCode: 0 });
    const pod = testPod({ restartPolicy: 'Never' });
    await h.port.sync(obj(pod), env);
    const s = (await h.port.status(obj(pod))).containerStatuses[0];
    assert.deepEqual((s.state as { terminated: { reason: string; exitCode: number } }).terminated.reason, 'Completed');
  });

  it('kill stops everything; remove deletes containers, sandboxes and the log folder; podUids lists what the runtime has', async () => {
    const h = harness();
    const pod = testPod();
    const other = testPod({}, { name: 'other', uid: 'uid-2' });
    await h.port.sync(obj(pod), env);
    await h.port.sync(obj(other), env);
    assert.deepEqual([...(await h.port.podUids())].sort(), ['uid-1', 'uid-2']);
    await h.port.kill(obj(pod), 5);
    assert.equal(h.runtime.calls.find((c) => c.method === 'stopContainer')!.args[1], 5);
    assert.ok(existsSync(join(h.podLogsRoot, 'ns1_web_uid-1')));
    await h.port.remove('uid-1');
    assert.deepEqual(await h.port.podUids(), ['uid-2']);
    assert.ok(!existsSync(join(h.podLogsRoot, 'ns1_web_uid-1')));
  });
});

describe('API container statuses from old ones', () => {
  it('a container that was running and is gone: lastState ContainerStatusUnknown and one more restart', () => {
    const pod = testPod();
    const old = [{ name: 'app', state: { running: { startedAt: '2026-01-01T00:00:00Z' } }, lastState: {}, ready: true, restartCount: 2, image: IMAGE, imageID: 'x' }];
    const got = apiContainerStatuses({ pod, runtime: { uid: 'uid-1', name: 'web', namespace: 'ns1', ips: [], sandboxes: [], containers: [] }, old, init: false, reasons: new ReasonCache() });
    assert.deepEqual(got, [{
      name: 'app', state: { waiting: { reason: 'ContainerCreating' } }, ready: false, restartCount: 3, image: IMAGE, imageID: '',
      lastState: { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was deleted.  The container used to be Running', exitCode: 137, startedAt: null, finishedAt: null } },
    }]);
  });
  it('a terminated old status is kept when the runtime no longer has the container', () => {
    const pod = testPod({ restartPolicy: 'Never' });
    const old = [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } }, lastState: {}, ready: false, restartCount: 0, image: IMAGE, imageID: 'x', containerID: 'containerd://a' }];
    const got = apiContainerStatuses({ pod, runtime: { uid: 'uid-1', name: 'web', namespace: 'ns1', ips: [], sandboxes: [], containers: [] }, old, init: false, reasons: new ReasonCache() });
    assert.deepEqual(got, old);
  });
});
