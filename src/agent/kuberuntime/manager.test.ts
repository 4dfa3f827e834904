import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../testing/tempdir.js';
import { CriError } from '../cri/types.js';
import { MemoryEvents } from './events.js';
import { FakeImages, FakeRuntime } from './fake.js';
import { RuntimeManager, type RuntimeManagerOptions } from './manager.js';
import { testContainer, testPod } from './testpods.js';
import type { Container, Pod, PodSpec } from './types.js';

const IMAGE = 'svc.local/busybox:1.35';

function harness(o: Partial<RuntimeManagerOptions> = {}) {
  const clock = { now: 1_700_000_000_000 };
  const now = (): number => clock.now;
  const runtime = new FakeRuntime({ now });
  const images = new FakeImages();
  images.add(IMAGE);
  const events = new MemoryEvents();
  const logs = tempDir('kr-mgr-logs-');
  const manager = new RuntimeManager({
    runtime, images, events, now, cpuCFSQuota: true, memoryCapacity: 8 << 30, nodeAllocatable: { cpu: '2', memory: '8Gi' }, hostIPs: ['192.168.1.10'],
    dns: { clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConf: '' }, podsDir: tempDir('kr-mgr-pods-'), podLogsRoot: logs, ...o,
  });
  const sync = async (pod: Pod) => manager.syncPod(pod, await manager.getPodStatus({ uid: pod.metadata.uid, name: pod.metadata.name, namespace: pod.metadata.namespace }));
  const status = (pod: Pod) => manager.getPodStatus({ uid: pod.metadata.uid, name: pod.metadata.name, namespace: pod.metadata.namespace });
  return { clock, runtime, images, events, manager, sync, status, logs };
}

const podWith = (c: Partial<Container> = {}, spec: Partial<PodSpec> = {}): Pod => testPod({ containers: [testContainer(c)], ...spec });
const failures = (r: { steps: readonly { error?: string; message?: string }[] }) => r.steps.filter((s) => s.error).map((s) => [s.error, s.message]);

describe('SyncPod', () => {
  it('a new pod: sandbox, image present, created and started, with kube events on the container', async () => {
    const h = harness();
    const pod = podWith();
    const r = await h.sync(pod);
    assert.equal(r.failed, false);
    assert.deepEqual(r.steps.map((s) => [s.action, s.target]), [['CreatePodSandbox', 'web_ns1(uid-1)'], ['StartContainer', 'app']]);
    assert.deepEqual(h.events.events.map((e) => [e.type, e.reason, e.message, e.fieldPath]), [
      ['Normal', 'Pulled', `Container image "${IMAGE}" already present on machine`, 'spec.containers{app}'],
      ['Normal', 'Created', 'Created container app', 'spec.containers{app}'],
      ['Normal', 'Started', 'Started container app', 'spec.containers{app}'],
    ]);
    const st = await h.status(pod);
    assert.deepEqual(st.ips, ['10.88.0.2']);
    assert.equal(st.containers[0].state, 'running');
    assert.match(st.containers[0].containerID, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.equal(st.containers[0].imageID, h.images.images.get(IMAGE)!.id);
    const cfg = h.runtime.find('web', 'app')!.config;
    assert.deepEqual(cfg.mounts!.map((m) => m.containerPath), ['/etc/hosts', '/dev/termination-log']);
    // Nothing more to do on the next sync.
    const again = await h.sync(pod);
    assert.deepEqual(again.steps, []);
  });

  const pulls: { name: string; c: Partial<Container>; offer?: boolean; want: [string, string][]; second?: [string, string][]; events: string[]; pulled: number }[] = [
    { name: 'Always with the image present still pulls; no registry → ErrImagePull, then ImagePullBackOff', c: { imagePullPolicy: 'Always' },
      want: [['ErrImagePull', `failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": dial tcp: lookup registry: no such host`]],
      second: [['ImagePullBackOff', `Back-off pulling image "${IMAGE}"`]],
      events: ['Pulling', 'Failed', 'BackOff'], pulled: 1 },
    { name: 'IfNotPresent with an absent image: pulled when a registry has it', c: { image: 'example.com/app:2' }, offer: true, want: [], events: ['Pulling', 'Pulled', 'Created', 'Started'], pulled: 1 },
    { name: 'Never with an absent image: ErrImageNeverPull', c: { image: 'example.com/app:2', imagePullPolicy: 'Never' },
      want: [['ErrImageNeverPull', 'Container image "example.com/app:2" is not present with pull policy of Never']], events: ['ErrImageNeverPull'], pulled: 0 },
    { name: 'no tag means :latest', c: { image: 'example.com/app' }, want: [['ErrImagePull', 'failed to pull and unpack image "example.com/app:latest": failed to resolve reference "example.com/app:latest": dial tcp: lookup registry: no such host']], events: ['Pulling', 'Failed'], pulled: 1 },
    { name: 'an invalid reference: InvalidImageName', c: { image: 'Bad Image' },
      want: [['InvalidImageName', 'Failed to apply default image tag "Bad Image": couldn\'t parse image reference "Bad Image": invalid reference format']], events: ['InspectFailed'], pulled: 0 },
  ];
  for (const p of pulls) {
    it(`image pull policy: ${p.name}`, async () => {
      const h = harness();
      if (p.offer) h.images.offer(p.c.image!);
      const pod = podWith(p.c);
      assert.deepEqual(failures(await h.sync(pod)), p.want);
      if (p.second) assert.deepEqual(failures(await h.sync(pod)), p.second);
      assert.deepEqual(h.events.reasons(), p.events);
      assert.equal(h.images.pulls.length, p.pulled);
    });
  }

  it('image pull back-off ends after 10 s and doubles', async () => {
    const h = harness();
    const pod = podWith({ image: 'example.com/app:1' });
    assert.equal(failures(await h.sync(pod))[0][0], 'ErrImagePull');
    h.clock.now += 9_000;
    assert.equal(failures(await h.sync(pod))[0][0], 'ImagePullBackOff');
    h.clock.now += 1_001;
    assert.equal(failures(await h.sync(pod))[0][0], 'ErrImagePull');
    h.clock.now += 19_000;
    assert.equal(failures(await h.sync(pod))[0][0], 'ImagePullBackOff');
    assert.equal(h.images.pulls.length, 2);
  });

  it('CrashLoopBackOff: 10 s doubling to 5 min with kube\'s message, reset after 10 min of running', async () => {
    const h = harness();
    const pod = podWith();
    let crash = true;
    h.runtime.onStart = () => (crash ? { exitCode: 1 } : undefined);
    await h.sync(pod);
    assert.deepEqual(failures(await h.sync(pod)), [], 'the first crash restarts at once, as kube does');
    const seen: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await h.sync(pod);
      const [reason, message] = failures(r)[0];
      assert.equal(reason, 'CrashLoopBackOff');
      seen.push(message!.replace(' restarting failed container=app pod=web_ns1(uid-1)', ''));
      const delay = { 0: 10, 1: 20, 2: 40, 3: 80, 4: 160 }[i] ?? 300;
      h.clock.now += delay * 1000 - 1;
      assert.equal(failures(await h.sync(pod))[0][0], 'CrashLoopBackOff', `still backing off before ${delay}s`);
      h.clock.now += 1;
      assert.deepEqual(failures(await h.sync(pod)), [], 'restarted once the back-off passed');
    }
    assert.deepEqual(seen, ['back-off 10s', 'back-off 20s', 'back-off 40s', 'back-off 1m20s', 'back-off 2m40s', 'back-off 5m0s', 'back-off 5m0s']);
    const st = await h.status(pod);
    assert.equal(st.containers[0].restartCount, 8);
    assert.equal(st.containers.length, 9);
    assert.equal(h.runtime.find('web', 'app')!.config.logPath, 'app/8.log');
    const backoff = h.events.events.filter((e) => e.reason === 'BackOff');
    assert.equal(backoff[0].message, 'Back-off restarting failed container app in pod web_ns1(uid-1)');
    assert.equal(backoff[0].type, 'Warning');
    // A container that then runs for over 10 minutes starts over at 10 s.
    crash = false;
    h.clock.now += 300_000;
    await h.sync(pod);
    h.clock.now += 11 * 60_000;
    h.runtime.exit((await h.status(pod)).containers[0].id, 2);
    assert.deepEqual(failures(await h.sync(pod)), [], 'no back-off after a long run');
    h.runtime.exit((await h.status(pod)).containers[0].id, 2);
    assert.equal(failures(await h.sync(pod))[0][1], 'back-off 10s restarting failed container=app pod=web_ns1(uid-1)');
  });

  it('a failed postStart exec hook kills the container: FailedPostStartHook, PostStartHookError with kube\'s message', async () => {
    const h = harness();
    h.runtime.exec = () => ({ stdout: Buffer.from('out'), stderr: Buffer.from('bad'), exitCode: 1 });
    const pod = podWith({ lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 1'] } } } }, { terminationGracePeriodSeconds: 30 });
    const r = await h.sync(pod);
    assert.deepEqual(failures(r), [['PostStartHookError', 'Exec lifecycle hook ([sh -c exit 1]) for Container "app" in Pod "web_ns1(uid-1)" failed - error: command \'sh -c exit 1\' exited with 1: bad, message: "outbad"']]);
    assert.deepEqual(h.events.reasons(), ['Pulled', 'Created', 'Started', 'FailedPostStartHook', 'Killing']);
    assert.equal(h.events.events[3].message, 'PostStartHook failed');
    assert.equal(h.events.events[4].message, 'FailedPostStartHook');
    assert.deepEqual(h.runtime.calls.filter((c) => c.method === 'stopContainer').map((c) => c.args[1]), [30]);
    assert.equal((await h.status(pod)).containers[0].state, 'exited');
  });

  it('a postStart httpGet hook that cannot connect fails', async () => {
    const h = harness();
    const pod = podWith({ ports: [{ name: 'web', containerPort: 1 }], lifecycle: { postStart: { httpGet: { path: '/hook', port: 'web', host: '127.0.0.1' } } } });
    const [reason, message] = failures(await h.sync(pod))[0];
    assert.equal(reason, 'PostStartHookError');
    assert.match(message!, /^HTTP lifecycle hook \(\/hook\) for Container "app" in Pod "web_ns1\(uid-1\)" failed - error: .*ECONNREFUSED/);
  });

  it('runAsNonRoot against a root image: CreateContainerConfigError and a Failed event', async () => {
    const h = harness();
    const pod = podWith({ securityContext: { runAsNonRoot: true } });
    assert.deepEqual(failures(await h.sync(pod)), [['CreateContainerConfigError', 'container has runAsNonRoot and image will run as root (pod: "web_ns1(uid-1)", container: app)']]);
    const e = h.events.events.at(-1)!;
    assert.deepEqual([e.type, e.reason, e.message], ['Warning', 'Failed', 'Error: container has runAsNonRoot and image will run as root (pod: "web_ns1(uid-1)", container: app)']);
  });

  it('CreateContainer and StartContainer failures: CreateContainerError, RunContainerError', async () => {
    const h = harness();
    const pod = podWith();
    h.runtime.failNext('createContainer', new CriError(2, 'no space left', 'createContainer'));
    assert.deepEqual(failures(await h.sync(pod)), [['CreateContainerError', 'no space left']]);
    h.runtime.failNext('startContainer', new CriError(2, 'exec: "nope": executable file not found in $PATH', 'startContainer'));
    assert.deepEqual(failures(await h.sync(pod)), [['RunContainerError', 'exec: "nope": executable file not found in $PATH']]);
  });

  it('a sandbox that cannot be made: FailedCreatePodSandBox', async () => {
    const h = harness();
    h.runtime.failNext('runPodSandbox', new CriError(2, 'failed to setup network', 'runPodSandbox'));
    const pod = podWith();
    assert.deepEqual(failures(await h.sync(pod)), [['CreatePodSandboxError', 'Failed to create sandbox for pod "web_ns1(uid-1)": failed to setup network']]);
    assert.deepEqual(h.events.events.map((e) => [e.type, e.reason, e.message]), [['Warning', 'FailedCreatePodSandBox', 'Failed to create pod sandbox: failed to setup network']]);
  });

  it('init containers run one at a time in order, then the app; a new sandbox starts them over', async () => {
    const h = harness();
    const pod = testPod({ initContainers: [testContainer({ name: 'i1' }), testContainer({ name: 'i2' })], containers: [testContainer()] });
    const started = (): string[] => h.runtime.calls.filter((c) => c.method === 'createContainer').map((c) => (c.args[1] as { metadata: { name: string } }).metadata.name);
    await h.sync(pod);
    assert.deepEqual(started(), ['i1']);
    await h.sync(pod);
    assert.deepEqual(started(), ['i1'], 'i1 still running');
    h.runtime.exit(h.runtime.find('web', 'i1')!.id, 0);
    await h.sync(pod);
    h.runtime.exit(h.runtime.find('web', 'i2')!.id, 0);
    await h.sync(pod);
    assert.deepEqual(started(), ['i1', 'i2', 'app']);
    const sb = [...h.runtime.sandboxes.keys()][0];
    h.runtime.setSandboxState(sb, 'SANDBOX_NOTREADY');
    await h.sync(pod);
    assert.deepEqual(started(), ['i1', 'i2', 'app', 'i1']);
    assert.ok(h.events.reasons().includes('SandboxChanged'));
    assert.equal(h.runtime.calls.filter((c) => c.method === 'runPodSandbox').length, 2);
    assert.equal((h.runtime.calls.filter((c) => c.method === 'runPodSandbox')[1].args[0] as { metadata: { attempt: number } }).metadata.attempt, 1);
  });

  it('a changed container spec: Killing with kube\'s message, then a new container', async () => {
    const h = harness();
    h.images.add('svc.local/busybox:1.36');
    await h.sync(podWith());
    const changed = podWith({ image: 'svc.local/busybox:1.36' });
    const r = await h.sync(changed);
    assert.deepEqual(r.steps.map((s) => [s.action, s.target, s.error]), [['KillContainer', 'app', undefined], ['StartContainer', 'app', undefined]]);
    const kill = h.events.events.find((e) => e.reason === 'Killing')!;
    assert.equal(kill.message, 'Container app definition changed, will be restarted');
    const st = await h.status(changed);
    assert.deepEqual(st.containers.map((c) => [c.state, c.restartCount, c.image]), [['running', 1, h.images.images.get('svc.local/busybox:1.36')!.id], ['exited', 0, h.images.images.get(IMAGE)!.id]]);
  });

  it('a runtime that lost its containers: the restart count goes on from the newest log file', async () => {
    const h = harness();
    const pod = podWith();
    mkdirSync(join(h.logs, 'ns1_web_uid-1', 'app'), { recursive: true });
    for (const f of ['0.log', '1.log', '4.log', 'x.log']) writeFileSync(join(h.logs, 'ns1_web_uid-1', 'app', f), '');
    await h.sync(pod);
    const cfg = h.runtime.find('web', 'app')!.config;
    assert.deepEqual([cfg.metadata.attempt, cfg.logPath, cfg.annotations!['io.kubernetes.container.restartCount']], [5, 'app/5.log', '5']);
  });

  it('host-network pods: no sandbox IP, fieldRef status.podIP is the host IP', async () => {
    const h = harness();
    const pod = podWith({ env: [{ name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] }, { hostNetwork: true });
    await h.sync(pod);
    const cfg = h.runtime.calls.find((c) => c.method === 'createContainer')!.args[1] as { envs: { key: string; value: string }[] };
    assert.deepEqual(cfg.envs, [{ key: 'IP', value: '192.168.1.10' }]);
    const sbc = h.runtime.calls.find((c) => c.method === 'runPodSandbox')!.args[0] as { hostname?: string };
    assert.equal(sbc.hostname, undefined);
  });
});

describe('KillPod', () => {
  const table: { name: string; spec: Partial<PodSpec>; meta?: Partial<Pod['metadata']>; c?: Partial<Container>; override?: number; hook: boolean; timeout: number }[] = [
    { name: 'preStop then stop with the rest of terminationGracePeriodSeconds', spec: { terminationGracePeriodSeconds: 30 }, c: { lifecycle: { preStop: { exec: { command: ['sleep', '1'] } } } }, hook: true, timeout: 30 },
    { name: 'the deletion grace period wins', spec: { terminationGracePeriodSeconds: 30 }, meta: { deletionGracePeriodSeconds: 5 }, hook: false, timeout: 5 },
    { name: 'grace 0: no preStop, the 2 s minimum', spec: { terminationGracePeriodSeconds: 0 }, c: { lifecycle: { preStop: { exec: { command: ['x'] } } } }, hook: false, timeout: 2 },
    { name: 'an override (force delete) after preStop', spec: { terminationGracePeriodSeconds: 30 }, c: { lifecycle: { preStop: { exec: { command: ['x'] } } } }, override: 1, hook: true, timeout: 1 },
  ];
  for (const c of table) {
    it(c.name, async () => {
      const h = harness();
      const pod = testPod({ containers: [testContainer(c.c)], ...c.spec }, c.meta);
      await h.sync(pod);
      const r = await h.manager.killPod(pod, await h.status(pod), c.override);
      assert.equal(r.failed, false);
      const calls = h.runtime.calls.filter((x) => ['execSync', 'stopContainer', 'stopPodSandbox'].includes(x.method));
      assert.deepEqual(calls.map((x) => x.method), [...(c.hook ? ['execSync'] : []), 'stopContainer', 'stopPodSandbox']);
      assert.equal(calls.find((x) => x.method === 'stopContainer')!.args[1], c.timeout);
      const kill = h.events.events.find((e) => e.reason === 'Killing')!;
      assert.deepEqual([kill.message, kill.fieldPath], ['Stopping container app', 'spec.containers{app}']);
      const st = await h.status(pod);
      assert.deepEqual([st.sandboxes[0].state, st.containers[0].state, st.ips], ['SANDBOX_NOTREADY', 'exited', []]);
    });
  }

  it('a probe kill by status containerID: the probe\'s message and grace period, then a restart on the next sync', async () => {
    const h = harness();
    const pod = podWith({ livenessProbe: { terminationGracePeriodSeconds: 3 } }, { terminationGracePeriodSeconds: 30 });
    await h.sync(pod);
    const c = (await h.status(pod)).containers[0];
    await h.manager.killContainer(pod, c.containerID, 'app', 'Container app failed liveness probe, will be restarted', 'LivenessProbe');
    assert.deepEqual(h.runtime.calls.filter((x) => x.method === 'stopContainer').map((x) => x.args), [[c.id, 3]]);
    assert.equal(h.events.events.at(-1)!.message, 'Container app failed liveness probe, will be restarted');
    await h.sync(pod);
    assert.deepEqual((await h.status(pod)).containers.map((x) => [x.state, x.restartCount]), [['running', 1], ['exited', 0]]);
  });

  it('a failing preStop hook: FailedPreStopHook, the container still stops', async () => {
    const h = harness();
    h.runtime.exec = () => ({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 7 });
    const pod = podWith({ lifecycle: { preStop: { exec: { command: ['false'] } } } }, { terminationGracePeriodSeconds: 10 });
    await h.sync(pod);
    await h.manager.killPod(pod, await h.status(pod));
    assert.deepEqual(h.events.reasons().slice(-2), ['Killing', 'FailedPreStopHook']);
    assert.equal(h.events.events.at(-1)!.message, 'PreStopHook failed');
    assert.equal((await h.status(pod)).containers[0].state, 'exited');
  });
});

describe('runtime pod status', () => {
  it('termination message from the file, exit code and reason, restart count from the annotation', async () => {
    const h = harness();
    const pod = podWith();
    await h.sync(pod);
    const c = h.runtime.find('web', 'app')!;
    const mount = c.config.mounts!.find((m) => m.containerPath === '/dev/termination-log')!;
    writeFileSync(mount.hostPath, 'it broke');
    h.runtime.exit(c.id, 3, 'Error');
    const st = await h.status(pod);
    const s = st.containers[0];
    assert.deepEqual([s.name, s.state, s.exitCode, s.reason, s.message, s.restartCount, s.containerID], ['app', 'exited', 3, 'Error', 'it broke', 0, `containerd://${c.id}`]);
    assert.ok(s.finishedAt >= s.startedAt && s.startedAt >= s.createdAt && s.createdAt > 0);
  });

  const fallback: { name: string; policy: 'File' | 'FallbackToLogsOnError'; code: number; file: string; want: string }[] = [
    { name: 'FallbackToLogsOnError with an empty file and a failure: the log tail', policy: 'FallbackToLogsOnError', code: 1, file: '', want: 'line 1\nline 2\n' },
    { name: 'FallbackToLogsOnError with a message file: the file', policy: 'FallbackToLogsOnError', code: 1, file: 'from file', want: 'from file' },
    { name: 'FallbackToLogsOnError but success: nothing', policy: 'FallbackToLogsOnError', code: 0, file: '', want: '' },
    { name: 'File: never the logs', policy: 'File', code: 1, file: '', want: '' },
  ];
  for (const f of fallback) {
    it(`termination message: ${f.name}`, async () => {
      const h = harness();
      const pod = podWith({ terminationMessagePolicy: f.policy });
      await h.sync(pod);
      const c = h.runtime.find('web', 'app')!;
      h.runtime.log(c.id, 'stdout', 'line 1\n');
      h.runtime.log(c.id, 'stderr', 'line 2\n');
      writeFileSync(c.config.mounts!.find((m) => m.containerPath === '/dev/termination-log')!.hostPath, f.file);
      h.runtime.exit(c.id, f.code);
      assert.equal((await h.status(pod)).containers[0].message, f.want);
    });
  }

  it('a sandbox or container gone between list and status is skipped', async () => {
    const h = harness();
    const pod = podWith();
    await h.sync(pod);
    const c = h.runtime.find('web', 'app')!;
    h.runtime.failNext('containerStatus', new CriError(5, 'not found', 'containerStatus'));
    assert.deepEqual((await h.status(pod)).containers, []);
    assert.equal((await h.status(pod)).containers[0].id, c.id);
  });
});
