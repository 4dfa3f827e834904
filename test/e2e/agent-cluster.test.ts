// One machine, one whole cluster (issue 25): the real CLI, `svc server
// --agent`, started as a child process against a private containerd — the
// API server, the controllers, the scheduler and a node agent in one process.
// kubectl 1.27 with the admin kubeconfig the server writes in its data
// directory: the node is Ready; a Deployment of 10 replicas (a tagged image,
// so IfNotPresent: present, never pulled) is scheduled and runs 10 pods
// Running and Ready; `kubectl logs -f` follows a real container; deleting
// the Deployment removes its pods and stops their containers.
//
// Pod logs: kubelet v1.27 has no setting for its pod log root, so the agent
// writes under /var/log/pods as kube does; the test runs in a namespace of
// its own and removes that namespace's folders there at the end.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { eventually, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { freePort } from '../../src/testing/ports.js';
import { BUSYBOX_IMAGE, containerdMissing, startContainerd, testCgroupRoot, unmountUnder, type Containerd } from '../../src/testing/containerd.js';
import { failIfLingering } from '../../src/testing/lingering.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = containerdMissing() || kubectlMissing;
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const NODE = 'svc-one-machine';
const NS = `agent-cluster-${process.pid}`;
const POD_LOGS = '/var/log/pods';

describe('svc server --agent: a one-machine cluster on containerd', { skip }, () => {
  let c: Containerd;
  let cgroups: { path: string; remove(): void };
  let server: ChildProcess | undefined;
  let exited: Promise<number | null>;
  let output = '';
  let kubeconfig = '';
  const dir = tempDir('svc-agent-cluster-');
  const kubectl = kubectlFor(() => ({ kubeconfig }) as TestServer);
  const k = async (...args: string[]) => {
    const r = await kubectl('-n', NS, ...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.err}${r.out}`);
    return r.out;
  };
  const pods = async (selector: string): Promise<Obj[]> => JSON.parse(await k('get', 'pods', '-l', selector, '-o', 'json')).items;
  const ready = (p: Obj) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((x: Obj) => x.type === 'Ready' && x.status === 'True');
  /** Container IDs (without the runtime prefix) of the tasks containerd runs. */
  const runningTasks = async (): Promise<Set<string>> => {
    const out = await c.ctr('tasks', 'ls');
    return new Set(out.split('\n').slice(1).map((l) => l.trim().split(/\s+/)).filter((f) => f[2] === 'RUNNING').map((f) => f[0]!));
  };

  before(async () => {
    c = await startContainerd({ cni: true });
    cgroups = await testCgroupRoot();
    const dataDir = join(dir, 'data');
    server = spawn(process.execPath, [
      MAIN, 'server', '--agent', '--container-runtime-endpoint', c.endpoint, '--data-dir', dataDir, '--secure-port', String(await freePort()),
      '--hostname-override', NODE, '--node-ip', '127.0.0.1', '--port', String(await freePort()), '--healthz-port', '0',
      '--cgroup-root', cgroups.path, '--root-dir', join(dir, 'agent'),
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    exited = new Promise((resolve) => server!.on('exit', (code) => resolve(code)));
    await eventually(async () => {
      if (server!.exitCode !== null) throw new Error(`svc server exited ${server!.exitCode}: ${output}`);
      const m = /admin kubeconfig: (\S+)/.exec(output);
      if (m) kubeconfig = m[1]!;
      return kubeconfig !== '';
    }, 60_000);
    assert.ok(kubeconfig.startsWith(dataDir), kubeconfig);
    const r = await kubectl('create', 'namespace', NS);
    assert.equal(r.code, 0, r.err);
  });
  after(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000))]);
      if (code === 'hung') server.kill('SIGKILL');
    }
    await c?.stop();
    unmountUnder(dir);
    cgroups?.remove();
    kubectl.cleanup();
    for (const name of (() => { try { return readdirSync(POD_LOGS); } catch { return []; } })()) {
      if (name.startsWith(`${NS}_`)) rmSync(join(POD_LOGS, name), { recursive: true, force: true });
    }
    failIfLingering('svc server --agent: a one-machine cluster on containerd');
  });

  it('registers this machine as a Ready node', async () => {
    let node: Obj = {};
    await eventually(async () => {
      const r = await kubectl('get', 'node', NODE, '-o', 'json');
      if (r.code !== 0) return false;
      node = JSON.parse(r.out);
      return (node.status?.conditions ?? []).some((x: Obj) => x.type === 'Ready' && x.status === 'True');
    }, 60_000).catch(() => assert.fail(`node ${NODE} not Ready: ${JSON.stringify(node.status?.conditions)}\n${output}`));
    assert.equal(node.metadata.labels['kubernetes.io/hostname'], NODE);
    assert.deepEqual(node.status.addresses.find((a: Obj) => a.type === 'InternalIP'), { type: 'InternalIP', address: '127.0.0.1' });
    const wide = await kubectl('get', 'nodes', '--no-headers');
    assert.match(wide.out, new RegExp(`^${NODE}\\s+Ready\\s`, 'm'));
  });

  it('runs a Deployment of 10 replicas: scheduled here, 10 pods Running and Ready, the image never pulled', async () => {
    await k('create', 'deployment', 'web', `--image=${BUSYBOX_IMAGE}`, '--replicas=10', '--', 'sh', '-c', 'echo up; sleep 3600');
    const rollout = await kubectl('-n', NS, 'rollout', 'status', 'deployment/web', '--timeout=50s');
    if (rollout.code !== 0) {
      const state = await kubectl('-n', NS, 'get', 'pods', '-o', 'wide');
      const ev = await kubectl('-n', NS, 'get', 'events');
      assert.fail(`${rollout.out}${rollout.err}\n${state.out}\n${ev.out}\n${output.slice(-4000)}`);
    }
    assert.match(rollout.out, /deployment "web" successfully rolled out/);
    const list = await pods('app=web');
    assert.equal(list.length, 10);
    for (const p of list) {
      assert.ok(ready(p), JSON.stringify(p.status));
      assert.equal(p.spec.nodeName, NODE);
      assert.equal(p.spec.containers[0].imagePullPolicy, 'IfNotPresent');
      assert.match(p.status.podIP, /^10\.\d+\.\d+\.\d+$/);
      assert.match(p.status.containerStatuses[0].containerID, /^containerd:\/\//);
    }
    assert.equal(new Set(list.map((p) => p.status.podIP)).size, 10, 'every pod has its own IP');
    const events = JSON.parse(await k('get', 'events', '-o', 'json')).items as Obj[];
    assert.ok(events.some((e) => e.reason === 'Pulled' && /already present on machine/.test(e.message)), 'kube\'s Pulled event for a present image');
    assert.ok(!events.some((e) => e.reason === 'Pulling'), 'nothing was pulled');
    const logs = await k('logs', list[0].metadata.name);
    assert.equal(logs, 'up\n');
  });

  it('kubectl logs -f follows a running container line by line until kubectl is stopped', async () => {
    const r = await kubectl('-n', NS, 'run', 'ticker', `--image=${BUSYBOX_IMAGE}`, '--restart=Never', '--',
      'sh', '-c', 'i=0; while true; do echo "tick $i"; i=$((i+1)); sleep 0.5; done');
    assert.equal(r.code, 0, r.err);
    await eventually(async () => ready((await pods('run=ticker'))[0] ?? {}), 60_000);
    const follow = kubectl.start('-n', NS, 'logs', '-f', 'ticker');
    const lines = () => follow.out().split('\n').filter((l) => l !== '');
    try {
      await eventually(async () => lines().length >= 2, 20_000).catch(() => assert.fail(`kubectl logs -f: ${follow.out()} ${follow.err()}`));
      const first = lines().length;
      // more lines arrive on the same connection: it follows, it did not just print and exit
      await eventually(async () => lines().length >= first + 3, 20_000).catch(() => assert.fail(`kubectl logs -f stopped at: ${follow.out()} ${follow.err()}`));
      assert.equal(follow.proc.exitCode, null, 'kubectl logs -f still running');
      assert.deepEqual(lines().slice(0, first + 3), Array.from({ length: first + 3 }, (_, i) => `tick ${i}`));
    } finally {
      follow.proc.kill('SIGTERM');
      await follow.done;
    }
    await k('delete', 'pod', 'ticker', '--grace-period=1');
  });

  it('kubectl delete deployment: its pods go and their containers stop', async () => {
    const before = await pods('app=web');
    const ids = before.map((p) => String(p.status.containerStatuses[0].containerID).replace(/^containerd:\/\//, ''));
    assert.equal(ids.length, 10);
    const running = await runningTasks();
    assert.ok(ids.every((id) => running.has(id)), 'the 10 containers run in containerd');
    await k('delete', 'deployment', 'web');
    let left: Obj[] = [];
    // `sh -c` as PID 1 ignores SIGTERM: each container is killed after the default 30 s grace period
    await eventually(async () => (left = await pods('app=web')).length === 0, 120_000)
      .catch(() => assert.fail(`pods left: ${left.map((p) => `${p.metadata.name} ${p.status.phase}`).join(', ')}`));
    const still = await runningTasks();
    assert.deepEqual(ids.filter((id) => still.has(id)), [], 'no container of the deployment still runs');
    const rs = JSON.parse(await k('get', 'replicasets', '-o', 'json')).items as Obj[];
    assert.deepEqual(rs.map((x) => x.metadata.name), []);
  });

  it('stops on SIGTERM, the agent with it, exit code 0', async () => {
    server!.kill('SIGTERM');
    assert.equal(await exited, 0, output.slice(-2000));
    assert.match(output, /svc server: shutting down/);
  });
});
