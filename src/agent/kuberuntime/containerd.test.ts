// The runtime manager against a real containerd (src/testing/containerd.ts):
// pods synced through the CRI client, as the agent runs them — a CNI pod with
// env, DNS, hostname, a termination message and an exit code; a host-network
// pod with resources, hooks and a graceful kill; a missing image with
// pullPolicy Never. Everything made is removed before containerd stops.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { BUSYBOX_IMAGE, containerdMissing, startContainerd, type Containerd } from '../../testing/containerd.js';
import { tempDir } from '../../testing/tempdir.js';
import type { ImageService, RuntimeService } from '../cri/types.js';
import { criClient } from '../cri/client.js';
import { waitFor as until } from '../../testing/wait.js';
import { MemoryEvents } from './events.js';
import { RuntimeManager } from './manager.js';
import { KubeRuntimePort } from './port.js';
import { testContainer, testPod } from './testpods.js';
import type { Pod } from './types.js';

const skip = containerdMissing();

describe('runtime manager on containerd', { skip }, () => {
  let ctrd: Containerd;
  let cri: RuntimeService & ImageService;
  let manager: RuntimeManager;
  let port: KubeRuntimePort;
  const events = new MemoryEvents();
  const logs = tempDir('kr-ctrd-logs-');
  const uids: string[] = [];

  before(async () => {
    ctrd = await startContainerd({ cni: true });
    cri = criClient(ctrd.endpoint);
    const resolv = tempDir('kr-ctrd-etc-') + '/resolv.conf';
    writeFileSync(resolv, 'nameserver 192.0.2.53\nsearch corp.example\n');
    manager = new RuntimeManager({
      runtime: cri, images: cri, events, cpuCFSQuota: true, memoryCapacity: 4 << 30, nodeAllocatable: { cpu: '2', memory: '4Gi' },
      hostIPs: ['127.0.0.1'], dns: { clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConf: resolv },
      podsDir: tempDir('kr-ctrd-pods-'), podLogsRoot: logs,
    });
    port = new KubeRuntimePort(manager, { runtime: cri, podLogsRoot: logs });
  });

  after(async () => {
    for (const uid of uids) await port?.remove(uid).catch(() => undefined);
    cri?.close();
    await ctrd?.stop();
  });

  const status = (p: Pod) => manager.getPodStatus({ uid: p.metadata.uid, name: p.metadata.name, namespace: p.metadata.namespace });
  const sync = async (p: Pod) => manager.syncPod(p, await status(p));

  it('a CNI pod: env, cluster DNS, hostname, its exit code and termination message', async () => {
    const pod = testPod({
      restartPolicy: 'Never',
      containers: [testContainer({
        image: BUSYBOX_IMAGE,
        command: ['sh', '-c', 'echo "greeting=$GREETING"; echo "ip=$POD_IP"; cat /etc/resolv.conf; echo "host=$(hostname)"; echo "hosts=$(grep cni-pod /etc/hosts)"; printf bye > /dev/termination-log; exit 3'],
        env: [{ name: 'GREETING', value: 'hello $(WHO)' }, { name: 'WHO', value: 'late' }, { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
      })],
    }, { name: 'cni-pod', uid: `uid-${process.pid}-cni` });
    uids.push(pod.metadata.uid);
    const r = await sync(pod);
    assert.deepEqual(r.steps.filter((s) => s.error), []);
    const c = await until('the container to exit', async () => (await status(pod)).containers.find((x) => x.state === 'exited'));
    assert.deepEqual([c.exitCode, c.reason, c.message], [3, 'Error', 'bye']);
    assert.match(c.containerID, /^containerd:\/\/[0-9a-f]{64}$/);
    const st = await status(pod);
    assert.match(st.ips[0], new RegExp(`^${ctrd.subnet!.split('.').slice(0, 2).join('\\.')}\\.`));
    const log = readFileSync(`${logs}/ns1_cni-pod_${pod.metadata.uid}/app/0.log`, 'utf8');
    assert.match(log, / stdout F greeting=hello \$\(WHO\)\n/);
    assert.match(log, new RegExp(` stdout F ip=${st.ips[0].replace(/\./g, '\\.')}\\n`));
    assert.match(log, / stdout F nameserver 10\.96\.0\.10\n/);
    assert.match(log, / stdout F search ns1\.svc\.cluster\.local svc\.cluster\.local cluster\.local corp\.example\n/);
    assert.match(log, / stdout F options ndots:5\n/);
    assert.match(log, / stdout F host=cni-pod\n/);
    assert.ok(log.includes(` stdout F hosts=${st.ips[0]}\tcni-pod\n`), 'the managed /etc/hosts names the pod');
    // Never: the next sync kills the pod's sandbox and starts nothing.
    await sync(pod);
    assert.equal((await status(pod)).sandboxes[0].state, 'SANDBOX_NOTREADY');
  });

  it('a host-network pod: cgroup limits, postStart, preStop, and a graceful kill', async () => {
    const pod = testPod({
      hostNetwork: true, terminationGracePeriodSeconds: 5,
      containers: [testContainer({
        image: BUSYBOX_IMAGE, command: ['sh', '-c', 'trap "exit 0" TERM; while true; do sleep 0.1; done'],
        resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '64Mi' } },
        lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo started > /tmp/post'] } }, preStop: { exec: { command: ['sh', '-c', 'echo stopping > /proc/1/fd/1'] } } },
      })],
    }, { name: 'host-pod', uid: `uid-${process.pid}-host` });
    uids.push(pod.metadata.uid);
    const r = await sync(pod);
    assert.deepEqual(r.steps.filter((s) => s.error), []);
    const c = (await status(pod)).containers[0];
    assert.equal(c.state, 'running');
    const read = async (cmd: string): Promise<string> => (await cri.execSync(c.id, ['sh', '-c', cmd], 10)).stdout.toString().trim();
    assert.equal(await read('cat /tmp/post'), 'started');
    assert.equal(await read('cat /sys/fs/cgroup/memory/memory.limit_in_bytes'), String(64 << 20));
    assert.equal(await read('cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us'), '50000');
    assert.equal(await read('cat /sys/fs/cgroup/cpu/cpu.shares'), '256');
    await port.kill(pod as never, 5);
    const done = (await status(pod)).containers[0];
    assert.deepEqual([done.state, done.exitCode], ['exited', 0], 'SIGTERM ended it within the grace period');
    assert.match(readFileSync(`${logs}/ns1_host-pod_${pod.metadata.uid}/app/0.log`, 'utf8'), / stdout F stopping\n/);
  });

  it('pullPolicy Never with an image containerd lacks: ErrImageNeverPull', async () => {
    const pod = testPod({ containers: [testContainer({ image: 'svc.local/absent:1', imagePullPolicy: 'Never' })] }, { name: 'absent', uid: `uid-${process.pid}-absent` });
    uids.push(pod.metadata.uid);
    const r = await sync(pod);
    assert.deepEqual(r.steps.filter((s) => s.error).map((s) => [s.error, s.message]), [['ErrImageNeverPull', 'Container image "svc.local/absent:1" is not present with pull policy of Never']]);
  });
});
