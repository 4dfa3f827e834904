// The CRI client against a real containerd (src/testing/containerd.ts): every
// call the agent makes, on host-network and CNI sandboxes. Each sandbox made
// is stopped and removed (so CNI releases its IP) before containerd stops.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { BUSYBOX_IMAGE, containerdMissing, PAUSE_IMAGE, startContainerd, type Containerd } from '../../testing/containerd.js';
import { tempDir } from '../../testing/tempdir.js';
import { criClient } from './client.js';
import { CriError, type ContainerConfig, type ImageService, type PodSandboxConfig, type RuntimeService } from './types.js';
import { waitFor as until } from '../../testing/wait.js';

const skip = containerdMissing();

type Cri = RuntimeService & ImageService;


let n = 0;
function sandboxConfig(opts: { hostNetwork: boolean; labels?: Record<string, string> }): PodSandboxConfig {
  const i = n++;
  const uid = `uid-${process.pid}-${i}`;
  return {
    metadata: { name: `pod-${i}`, uid, namespace: 'default', attempt: 0 },
    ...(opts.hostNetwork ? {} : { hostname: `pod-${i}` }),
    logDirectory: tempDir('svc-cri-logs-'),
    labels: { app: 'cri-test', pod: `pod-${i}`, ...opts.labels },
    annotations: { 'svc.io/note': `sandbox ${i}` },
    linux: {
      securityContext: { namespaceOptions: { network: opts.hostNetwork ? 'NODE' : 'POD', pid: 'CONTAINER', ipc: 'POD' } },
    },
  };
}

function busybox(name: string, script: string, extra: Partial<ContainerConfig> = {}): ContainerConfig {
  return {
    metadata: { name, attempt: 0 },
    image: { image: BUSYBOX_IMAGE },
    command: ['sh', '-c', script],
    logPath: `${name}/0.log`,
    labels: { container: name },
    annotations: { 'svc.io/hash': `h-${name}` },
    ...extra,
  };
}

async function removeSandbox(cri: Cri, id: string): Promise<void> {
  await cri.stopPodSandbox(id);
  await cri.removePodSandbox(id);
}

async function rejectsWith(p: Promise<unknown>, check: (e: CriError) => void): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof CriError, `not a CriError: ${String(e)}`);
    check(e);
    return true;
  });
}

describe('CRI client against containerd', { skip }, () => {
  let ctd: Containerd;
  let cri: Cri;
  before(async () => {
    ctd = await startContainerd();
    cri = criClient(ctd.endpoint, { timeoutMs: 30_000 });
  });
  after(async () => {
    cri?.close();
    await ctd?.stop();
  });

  test('version and status', async () => {
    const v = await cri.version();
    assert.equal(v.runtimeName, 'containerd');
    assert.equal(v.runtimeApiVersion, 'v1');
    assert.equal(v.version, '0.1.0');
    assert.match(v.runtimeVersion, /^1\./);
    const conditions = await cri.status();
    assert.deepEqual(conditions.map((c) => c.type).sort(), ['NetworkReady', 'RuntimeReady']);
    assert.equal(conditions.find((c) => c.type === 'RuntimeReady')?.status, true);
    // No CNI configuration in this instance: the network is not ready, with the runtime's reason.
    const net = conditions.find((c) => c.type === 'NetworkReady');
    assert.equal(net?.status, false);
    assert.equal(net?.reason, 'NetworkPluginNotReady');
  });

  test('images: status of present and absent images, list, image filesystem', async () => {
    const bb = await cri.imageStatus(BUSYBOX_IMAGE);
    assert.ok(bb, 'busybox is imported');
    assert.match(bb.id, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(bb.repoTags, [BUSYBOX_IMAGE]);
    assert.ok(bb.size > 0);
    assert.equal(bb.uid, undefined);
    assert.equal(await cri.imageStatus('svc.local/absent:1'), undefined);

    const list = await cri.listImages();
    const tags = list.flatMap((i) => i.repoTags).sort();
    assert.deepEqual(tags, [BUSYBOX_IMAGE, PAUSE_IMAGE].sort());
    assert.equal(list.find((i) => i.repoTags.includes(BUSYBOX_IMAGE))?.id, bb.id);

    const fs = await cri.imageFsInfo();
    assert.equal(fs.length, 1);
    assert.ok(fs[0]!.mountpoint.startsWith(ctd.root), fs[0]!.mountpoint);
    assert.ok(fs[0]!.timestamp > 1.5e18, 'nanoseconds since the epoch');
    assert.equal(typeof fs[0]!.usedBytes, 'number');
  });

  test('pulling an image from an unreachable registry fails with a CriError', async () => {
    await rejectsWith(cri.pullImage('127.0.0.1:1/absent:1'), (e) => {
      assert.notEqual(e.code, 0);
      assert.equal(e.method, '/runtime.v1.ImageService/PullImage');
      assert.match(e.message, /127\.0\.0\.1:1/);
    });
    assert.equal(await cri.imageStatus('127.0.0.1:1/absent:1'), undefined);
  });

  test('unknown ids are CriError notFound', async () => {
    await rejectsWith(cri.containerStatus('0123456789abcdef'), (e) => {
      assert.equal(e.notFound, true);
      assert.equal(e.method, '/runtime.v1.RuntimeService/ContainerStatus');
    });
    await rejectsWith(cri.podSandboxStatus('0123456789abcdef'), (e) => assert.equal(e.notFound, true));
    await rejectsWith(cri.startContainer('0123456789abcdef'), (e) => assert.equal(e.notFound, true));
    await rejectsWith(cri.execSync('0123456789abcdef', ['true'], 5), (e) => assert.equal(e.notFound, true));
  });

  test('a host-network pod: sandbox, container lifecycle, logs, exec, filters', async () => {
    const sbConfig = sandboxConfig({ hostNetwork: true });
    const sb = await cri.runPodSandbox(sbConfig);
    try {
      const st = await cri.podSandboxStatus(sb);
      assert.equal(st.id, sb);
      assert.equal(st.state, 'SANDBOX_READY');
      assert.deepEqual(st.metadata, sbConfig.metadata);
      assert.equal(st.labels.pod, sbConfig.labels!.pod);
      assert.deepEqual(st.annotations, sbConfig.annotations);
      assert.ok(st.createdAt > 1.5e18);
      assert.equal(st.linux?.namespaces?.options?.network, 'NODE');

      const cfg = busybox('main', 'echo hi; while true; do sleep 1; echo tick; done', { envs: [{ key: 'GREETING', value: 'hello' }] });
      const id = await cri.createContainer(sb, cfg, sbConfig);
      const created = await cri.containerStatus(id);
      assert.equal(created.state, 'CONTAINER_CREATED');
      assert.equal(created.startedAt, 0);
      assert.equal(created.logPath, join(sbConfig.logDirectory!, 'main/0.log'));

      await cri.startContainer(id);
      const running = await cri.containerStatus(id);
      assert.equal(running.state, 'CONTAINER_RUNNING');
      assert.deepEqual(running.metadata, { name: 'main', attempt: 0 });
      assert.equal(running.image.image, BUSYBOX_IMAGE);
      assert.match(running.imageRef, /^sha256:/);
      assert.ok(running.startedAt >= running.createdAt);
      assert.equal(running.finishedAt, 0);
      assert.deepEqual(running.labels, cfg.labels);
      assert.deepEqual(running.annotations, cfg.annotations);

      // The CRI log file: `<RFC3339Nano> stdout F hi`, then ticks.
      const text = await until('the log line', async () => {
        const t = readFileSync(running.logPath, 'utf8');
        return t.includes('hi\n') ? t : undefined;
      });
      assert.match(text.split('\n')[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+(Z|[+-]\d\d:\d\d) stdout F hi$/);
      // Rotation: the file moved away, ReopenContainerLog makes the runtime write a new one at logPath.
      renameSync(running.logPath, `${running.logPath}.1`);
      await cri.reopenContainerLog(id);
      const fresh = await until('ticks in the reopened log', async () => {
        const t = existsSync(running.logPath) ? readFileSync(running.logPath, 'utf8') : '';
        return t.includes('stdout F tick') ? t : undefined;
      });
      assert.ok(!fresh.includes('stdout F hi'), fresh);
      assert.match(readFileSync(`${running.logPath}.1`, 'utf8'), /stdout F hi\n/);

      const ex = await cri.execSync(id, ['sh', '-c', 'echo "$GREETING"; echo oops >&2; exit 3'], 10);
      assert.ok(Buffer.isBuffer(ex.stdout));
      assert.equal(ex.stdout.toString(), 'hello\n');
      assert.equal(ex.stderr.toString(), 'oops\n');
      assert.equal(ex.exitCode, 3);
      assert.equal((await cri.execSync(id, ['true'], 0)).exitCode, 0);
      // A command past its own timeout: the runtime answers DeadlineExceeded (a probe's timeout, for the kubelet).
      await rejectsWith(cri.execSync(id, ['sleep', '10'], 1), (e) => assert.equal(e.code, 4));

      // Filters: by label, state, sandbox, id; a selector that matches nothing.
      const ids = async (f: Parameters<RuntimeService['listContainers']>[0]) => (await cri.listContainers(f)).map((c) => c.id);
      assert.deepEqual(await ids({ labelSelector: { container: 'main' } }), [id]);
      assert.deepEqual(await ids({ labelSelector: { container: 'other' } }), []);
      assert.deepEqual(await ids({ state: 'CONTAINER_RUNNING', podSandboxId: sb }), [id]);
      assert.deepEqual(await ids({ state: 'CONTAINER_EXITED', podSandboxId: sb }), []);
      assert.deepEqual(await ids({ id }), [id]);
      const [listed] = await cri.listContainers({ podSandboxId: sb });
      assert.equal(listed?.podSandboxId, sb);
      assert.equal(listed?.state, 'CONTAINER_RUNNING');
      assert.equal(listed?.imageRef, running.imageRef);

      const sbIds = async (f: Parameters<RuntimeService['listPodSandbox']>[0]) => (await cri.listPodSandbox(f)).map((s) => s.id);
      assert.deepEqual(await sbIds({ labelSelector: { pod: sbConfig.labels!.pod! } }), [sb]);
      assert.deepEqual(await sbIds({ id: sb, state: 'SANDBOX_READY' }), [sb]);
      assert.deepEqual(await sbIds({ id: sb, state: 'SANDBOX_NOTREADY' }), []);

      // sh ignores SIGTERM as the container's first process: SIGKILL after the 1 s grace period.
      await cri.stopContainer(id, 1);
      const stopped = await cri.containerStatus(id);
      assert.equal(stopped.state, 'CONTAINER_EXITED');
      assert.ok([137, 143].includes(stopped.exitCode), `exit code ${stopped.exitCode}`);
      assert.equal(stopped.reason, 'Error');
      assert.ok(stopped.finishedAt >= stopped.startedAt);
      assert.deepEqual(await ids({ state: 'CONTAINER_EXITED', podSandboxId: sb }), [id]);

      await cri.removeContainer(id);
      await rejectsWith(cri.containerStatus(id), (e) => assert.equal(e.notFound, true));
      assert.deepEqual(await ids({ podSandboxId: sb }), []);

      await cri.stopPodSandbox(sb);
      assert.equal((await cri.podSandboxStatus(sb)).state, 'SANDBOX_NOTREADY');
      assert.deepEqual(await sbIds({ id: sb, state: 'SANDBOX_NOTREADY' }), [sb]);
    } finally {
      await removeSandbox(cri, sb);
    }
    assert.deepEqual(await cri.listPodSandbox({ id: sb }), []);
    await rejectsWith(cri.podSandboxStatus(sb), (e) => assert.equal(e.notFound, true));
  });

  test('a container past its 32 MiB memory limit exits OOMKilled', async () => {
    const sbConfig = sandboxConfig({ hostNetwork: true });
    const sb = await cri.runPodSandbox(sbConfig);
    try {
      const cfg = busybox('hog', 'x=0123456789abcdef; while true; do x=$x$x$x$x$x$x$x$x; done', {
        linux: { resources: { memoryLimitInBytes: 32 * 1024 * 1024 } },
      });
      const id = await cri.createContainer(sb, cfg, sbConfig);
      await cri.startContainer(id);
      const st = await until('the container to exit', async () => {
        const s = await cri.containerStatus(id);
        return s.state === 'CONTAINER_EXITED' ? s : undefined;
      });
      assert.equal(st.reason, 'OOMKilled');
      assert.equal(st.exitCode, 137);
    } finally {
      await removeSandbox(cri, sb);
    }
  });
});

describe('CRI client against containerd with a CNI network', { skip }, () => {
  let ctd: Containerd;
  let cri: Cri;
  before(async () => {
    ctd = await startContainerd({ cni: true });
    cri = criClient(ctd.endpoint, { timeoutMs: 30_000 });
  });
  after(async () => {
    cri?.close();
    await ctd?.stop();
  });

  test('a pod-network sandbox gets an IP in the instance subnet', async () => {
    const net = await until('the network to be ready', async () =>
      (await cri.status()).find((c) => c.type === 'NetworkReady' && c.status));
    assert.equal(net.status, true);
    const sbConfig = sandboxConfig({ hostNetwork: false });
    const sb = await cri.runPodSandbox(sbConfig);
    try {
      const st = await cri.podSandboxStatus(sb);
      assert.equal(st.linux?.namespaces?.options?.network, 'POD');
      const ip = st.network?.ip ?? '';
      const prefix = ctd.subnet!.split('.').slice(0, 2).join('.') + '.';
      assert.ok(ip.startsWith(prefix) && ip !== `${prefix}0.1`, `${ip} in ${ctd.subnet}`);

      const id = await cri.createContainer(sb, busybox('web', 'sleep 30'), sbConfig);
      await cri.startContainer(id);
      const ex = await cri.execSync(id, ['hostname'], 10);
      assert.equal(ex.stdout.toString().trim(), sbConfig.hostname);
    } finally {
      await removeSandbox(cri, sb);
    }
  });
});
