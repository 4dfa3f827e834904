// `svc agent` as a process (issue 25): the real command line
// (`svc agent …`, bin/svc as package.json's bin runs it) on a real containerd against a real
// API server with the CSR approver and signer and the node lifecycle
// controller (short grace periods). A node joins with a bootstrap token (CSR
// approved and signed, its svcconfig written, Ready, a pod Running); the
// agent stopped → the Node Unknown, tainted unreachable, a pod tolerating
// that for a moment deleted; the agent started again → the Node Ready again,
// a pod still running in containerd kept (same container), the evicted pod
// gone. Standalone mode (static pods, /pods anonymous with AlwaysAllow),
// --help and an invalid flag value, and a --config KubeletConfiguration with
// webhook authentication and authorization on the agent's HTTPS server.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { kubeadmJoinSetup } from './agentpods.js';
import { eventually, HARNESS_CONTROLLERS, startTestServer, writeTokenFile, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { freePort } from '../../src/testing/ports.js';
import { BUSYBOX_IMAGE, containerdMissing, startContainerd, testCgroupRoot, unmountUnder, type Containerd } from '../../src/testing/containerd.js';
import { failIfLingering } from '../../src/testing/lingering.js';
import { criClient } from '../../src/agent/cri/client.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const POD_LOGS = '/var/log/pods';
// the `svc` command as users run it (bin/svc, package.json's bin), with this node first on PATH
const SVC = fileURLToPath(new URL('../../../bin/svc', import.meta.url));
const PATH_ENV = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
const skip = containerdMissing() || kubectlMissing;

/** One `svc agent` process: its stderr kept, its exit awaited. */
interface AgentProcess {
  readonly proc: ChildProcess;
  readonly exited: Promise<number | null>;
  stderr(): string;
  /** SIGTERM, then SIGKILL if it has not exited after `ms`. */
  stop(ms?: number): Promise<number | null>;
}

function runAgent(args: string[], cwd: string): AgentProcess {
  const proc = spawn(SVC, ['agent', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: PATH_ENV });
  let err = '';
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  proc.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc, exited,
    stderr: () => `${err}${out}`,
    stop: async (ms = 30_000) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Runs `svc agent` to its end (for --help and bad flags). */
async function agentOnce(args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  const a = runAgent(args, cwd);
  const timer = setTimeout(() => a.proc.kill('SIGKILL'), 60_000);
  const code = await a.exited;
  clearTimeout(timer);
  return { code, out: a.stderr() };
}

/** A GET on an agent's HTTPS server (its certificate is self-signed: not verified). */
function agentGet(port: number, path: string, auth: { token?: string; cert?: string; key?: string } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const r = request({
      host: '127.0.0.1', port, path, method: 'GET', rejectUnauthorized: false, agent: false,
      headers: auth.token ? { authorization: `Bearer ${auth.token}` } : {},
      ...(auth.cert ? { cert: auth.cert, key: auth.key } : {}),
    }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    r.on('error', reject);
    r.end();
  });
}

const sh = (script: string, extra: Obj = {}) => ({ name: 'main', image: BUSYBOX_IMAGE, imagePullPolicy: 'Never', command: ['sh', '-c', script], ...extra });
const condition = (o: Obj, type: string): Obj | undefined => (o.status?.conditions ?? []).find((x: Obj) => x.type === type);
const container = (p: Obj): Obj => (p.status?.containerStatuses ?? [])[0] ?? {};
const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const microStamp = () => new Date().toISOString().replace('Z', '000Z');

describe('svc agent: the process', { skip }, () => {
  let t: TestServer;
  let c: Containerd;
  const cgroups: { path: string; remove(): void }[] = [];
  const agents: AgentProcess[] = [];
  const dir = tempDir('svc-agent-cli-');
  const kubectl = kubectlFor(() => t);
  let caData = '';
  let admin: { cert: string; key: string };
  let steady: NodeJS.Timeout | undefined;

  const getObj = async (path: string): Promise<Obj | undefined> => {
    const r = await t.req('GET', path);
    return r.status === 200 ? (r.body as Obj) : undefined;
  };
  const waitFor = async (what: string, path: string, pred: (o: Obj | undefined) => boolean, ms = 60_000): Promise<Obj | undefined> => {
    let last: Obj | undefined;
    try {
      await eventually(async () => {
        last = await getObj(path);
        return pred(last);
      }, ms);
    } catch {
      throw new Error(`${what}: not there in time: ${JSON.stringify(last?.status ?? last)}\n${agents.map((a) => a.stderr().slice(-3000)).join('\n---\n')}`);
    }
    return last;
  };
  const pod = (name: string) => `/api/v1/namespaces/default/pods/${name}`;
  const createPod = async (name: string, spec: Obj) => {
    const r = await t.req('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { terminationGracePeriodSeconds: 2, ...spec } });
    assert.equal(r.status, 201, r.text);
  };
  const cgroupRoot = async () => {
    const cg = await testCgroupRoot();
    cgroups.push(cg);
    return cg.path;
  };
  const start = (args: string[]) => {
    const a = runAgent(args, dir);
    agents.push(a);
    return a;
  };
  // one runtime per node, as on real machines: an agent removes the runtime's pods it does not know
  const runtimes: Containerd[] = [];
  const ownRuntime = async (): Promise<Containerd> => {
    const r = await startContainerd({ cni: true });
    runtimes.push(r);
    return r;
  };
  const bootArgs = async (name: string, runtime: Containerd, ports = true) => [
    // paths relative to the working directory (the test's folder), as an operator types them
    '--bootstrap-svcconfig', 'boot.yaml', '--svcconfig', `${name}/node.yaml`, '--cert-dir', `${name}/pki`,
    '--root-dir', join(dir, name, 'root'), '--container-runtime-endpoint', runtime.endpoint, '--hostname-override', name, '--node-ip', '127.0.0.1',
    ...(ports ? ['--port', String(await freePort()), '--healthz-port', '0', '--node-status-update-frequency', '1s'] : []), '--cgroup-root', await cgroupRoot(),
  ];

  before(async () => {
    c = await startContainerd({ cni: true });
    t = await startTestServer({
      enableBootstrapTokenAuth: true,
      tokenAuthFile: writeTokenFile(dir, 'token-admin,admin,admin,"system:masters"\ntoken-nobody,nobody,nobody\n'),
      controllerManager: {
        controllers: [...HARNESS_CONTROLLERS, 'csrapproving', 'csrsigning', 'nodelifecycle'],
        settings: { nodeMonitorPeriodMs: 1000, nodeMonitorGracePeriodMs: 8000, nodeStartupGracePeriodMs: 30_000 },
      },
      admission: { enable: ['NodeRestriction'] },
    });
    const cfg = parse(readFileSync(t.kubeconfig, 'utf8'));
    caData = cfg.clusters[0].cluster['certificate-authority-data'];
    admin = { cert: Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64').toString(), key: Buffer.from(cfg.users[0].user['client-key-data'], 'base64').toString() };
    writeFileSync(join(dir, 'ca.crt'), Buffer.from(caData, 'base64'));
    await kubeadmJoinSetup(t);
    writeFileSync(join(dir, 'boot.yaml'), stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'boot',
      clusters: [{ name: 'c', cluster: { server: t.url, 'certificate-authority-data': caData } }],
      contexts: [{ name: 'boot', context: { cluster: 'c', user: 'tls-bootstrap-token-user' } }],
      users: [{ name: 'tls-bootstrap-token-user', user: { token: 'abcdef.0123456789abcdef' } }],
    }));
    // a second node heard from all along (its Lease renewed here), so that
    // the zone is not fully disrupted when n1 stops (then kube evicts nothing)
    const made = await t.req('POST', '/api/v1/nodes', { metadata: { name: 'steady' } });
    assert.equal(made.status, 201, made.text);
    const ready = { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: stamp(), lastTransitionTime: stamp() }] };
    assert.equal((await t.req('PATCH', '/api/v1/nodes/steady/status', { status: ready }, { headers: { 'Content-Type': 'application/merge-patch+json' } })).status, 200);
    const lease = await t.req('POST', '/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases', { metadata: { name: 'steady' }, spec: { holderIdentity: 'steady', leaseDurationSeconds: 40, renewTime: microStamp() } });
    assert.equal(lease.status, 201, lease.text);
    steady = setInterval(() => {
      void t.req('PATCH', '/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases/steady', { spec: { renewTime: microStamp() } }, { headers: { 'Content-Type': 'application/merge-patch+json' } }).catch(() => undefined);
    }, 1000);
  });

  after(async () => {
    if (steady) clearInterval(steady);
    // the agent keeps pod logs in /var/log/pods (kubelet 1.27 has no flag for it): this test's pods' folders go
    const uids = t ? ((await t.req('GET', '/api/v1/namespaces/default/pods')).body.items as Obj[] ?? []).map((p) => `default_${p.metadata.name}_${p.metadata.uid}`) : [];
    for (const a of agents) await a.stop(15_000);
    const logs = existsSync(POD_LOGS) ? readdirSync(POD_LOGS).filter((d) => uids.includes(d) || d.startsWith('default_static-alone_')) : [];
    for (const d of logs) rmSync(join(POD_LOGS, d), { recursive: true, force: true });
    await t?.stop();
    await c?.stop();
    for (const r of runtimes) await r.stop();
    unmountUnder(dir);
    for (const cg of cgroups) cg.remove();
    failIfLingering('svc agent: the process');
  });

  let n1: AgentProcess;
  const n1Args: string[] = [];
  let webId = '';

  it('adds a node with a bootstrap token: the CSR approved and signed, the svcconfig written, the Node Ready, a pod Running', async () => {
    n1Args.push(...await bootArgs('n1', c));
    n1 = start(n1Args);
    const node = await waitFor('node n1 Ready', '/api/v1/nodes/n1', (n) => condition(n ?? {}, 'Ready')?.status === 'True');
    assert.equal(node!.metadata.labels['kubernetes.io/hostname'], 'n1');
    const csrs = ((await t.req('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).body.items as Obj[]).filter((x) => x.spec.username === 'system:bootstrap:abcdef');
    assert.equal(csrs.length, 1);
    assert.deepEqual(csrs[0]!.status.conditions.map((x: Obj) => [x.type, x.reason]), [['Approved', 'AutoApproved']]);
    assert.ok(csrs[0]!.status.certificate, 'signed');
    const written = parse(readFileSync(join(dir, 'n1', 'node.yaml'), 'utf8'));
    assert.equal(written.clusters[0].cluster.server, t.url);
    assert.ok(existsSync(join(dir, 'n1', 'pki', 'kubelet-client-current.pem')));
    await createPod('web', {
      nodeName: 'n1',
      // it tolerates the node being unreachable forever: it stays through the agent's restart
      tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }],
      containers: [sh('echo web up; sleep 3600')],
    });
    const p = await waitFor('pod web Running', pod('web'), (x) => x?.status?.phase === 'Running' && condition(x, 'Ready')?.status === 'True');
    webId = container(p!).containerID;
    assert.match(webId, /^containerd:\/\//);
    let r = await kubectl('logs', 'web');
    await eventually(async () => {
      r = await kubectl('logs', 'web');
      return r.code === 0 && r.out === 'web up\n';
    }, 20_000).catch(() => assert.fail(`kubectl logs: ${r.code} ${r.out} ${r.err}`));
  });

  it('the agent stopped: the Node Unknown and tainted unreachable, a pod tolerating it briefly deleted; started again: the Node and its running pod adopted', async () => {
    assert.ok(n1, 'the first scenario started the agent');
    await createPod('brief', {
      nodeName: 'n1',
      tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 }, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 }],
      containers: [sh('sleep 3600')],
    });
    await waitFor('pod brief Running', pod('brief'), (x) => x?.status?.phase === 'Running');
    assert.equal(await n1.stop(), 0, n1.stderr().slice(-2000));
    assert.match(n1.stderr(), /shutting down/);

    const node = await waitFor('node n1 Unknown', '/api/v1/nodes/n1', (n) => condition(n ?? {}, 'Ready')?.status === 'Unknown');
    assert.deepEqual([condition(node!, 'Ready')!.reason, condition(node!, 'Ready')!.message], ['NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    const tainted = await waitFor('node n1 tainted', '/api/v1/nodes/n1', (n) => (n?.spec?.taints ?? []).some((x: Obj) => x.effect === 'NoExecute'));
    assert.deepEqual((tainted!.spec.taints as Obj[]).map((x) => [x.key, x.effect]).sort(), [['node.svc.io/unreachable', 'NoExecute'], ['node.svc.io/unreachable', 'NoSchedule']]);
    // the pods of the node are not ready any more; the brief one is deleted (it stays Terminating: nobody confirms)
    await waitFor('pod web not ready', pod('web'), (x) => condition(x ?? {}, 'Ready')?.status === 'False');
    const brief = await waitFor('pod brief deleted', pod('brief'), (x) => x?.metadata.deletionTimestamp !== undefined);
    const target = condition(brief!, 'DisruptionTarget');
    assert.deepEqual([target?.status, target?.reason], ['True', 'DeletionByTaintManager']);
    const events = (await t.req('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dbrief')).body.items as Obj[];
    assert.ok(events.some((e) => e.reason === 'TaintManagerEviction' && e.message === 'Marking for deletion Pod default/brief'), JSON.stringify(events.map((e) => e.reason)));
    assert.equal((await getObj(pod('web')))!.metadata.deletionTimestamp, undefined, 'web tolerates the taint forever');
    // the container is still running in containerd without its agent
    const cri = criClient(c.endpoint);
    try {
      const running = await cri.listContainers({ labelSelector: { 'io.kubernetes.pod.name': 'web' }, state: 'CONTAINER_RUNNING' });
      assert.deepEqual(running.map((x) => `containerd://${x.id}`), [webId]);
    } finally {
      cri.close();
    }

    // started again (its svcconfig and certificate are there now: no new CSR)
    n1 = start(n1Args);
    await waitFor('node n1 Ready again', '/api/v1/nodes/n1', (n) => condition(n ?? {}, 'Ready')?.status === 'True' && !(n?.spec?.taints ?? []).some((x: Obj) => x.effect === 'NoExecute'));
    const web = await waitFor('pod web Ready again', pod('web'), (x) => condition(x ?? {}, 'Ready')?.status === 'True');
    assert.equal(container(web!).containerID, webId, 'the same container');
    assert.equal(container(web!).restartCount, 0);
    await waitFor('pod brief gone', pod('brief'), (x) => x === undefined);
    const cri2 = criClient(c.endpoint);
    try {
      await eventually(async () => (await cri2.listContainers({ labelSelector: { 'io.kubernetes.pod.name': 'brief' }, state: 'CONTAINER_RUNNING' })).length === 0, 30_000);
    } finally {
      cri2.close();
    }
    const csrs = ((await t.req('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).body.items as Obj[]).filter((x) => x.spec.username === 'system:bootstrap:abcdef');
    assert.equal(csrs.length, 1, 'no second bootstrap');
  });

  it('standalone: no --svcconfig, a static pod from --pod-manifest-path runs, and /pods lists it (anonymous, AlwaysAllow)', async () => {
    const manifests = join(dir, 'alone', 'manifests');
    mkdirSync(manifests, { recursive: true });
    writeFileSync(join(manifests, 'static.yaml'), stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'static', namespace: 'default' }, spec: { hostNetwork: true, containers: [sh('sleep 3600')] } }));
    const port = await freePort();
    const own = await ownRuntime();
    const alone = start([
      '--container-runtime-endpoint', own.endpoint, '--hostname-override', 'alone', '--root-dir', join(dir, 'alone', 'root'), '--cert-dir', join(dir, 'alone', 'pki'),
      '--pod-manifest-path', manifests, '--file-check-frequency', '1s', '--port', String(port), '--healthz-port', '0', '--cgroup-root', await cgroupRoot(),
    ]);
    const cri = criClient(own.endpoint);
    try {
      await eventually(async () => (await cri.listContainers({ labelSelector: { 'io.kubernetes.pod.name': 'static-alone' }, state: 'CONTAINER_RUNNING' })).length === 1, 60_000)
        .catch(() => assert.fail(`no running container: ${alone.stderr().slice(-3000)}`));
    } finally {
      cri.close();
    }
    const r = await agentGet(port, '/pods');
    assert.equal(r.status, 200, r.text);
    const list = JSON.parse(r.text);
    assert.equal(list.kind, 'PodList');
    assert.deepEqual(list.items.map((p: Obj) => `${p.metadata.namespace}/${p.metadata.name}`), ['default/static-alone']);
    assert.equal(await alone.stop(), 0, alone.stderr().slice(-2000));
    assert.match(alone.stderr(), /node alone running standalone \(static pods only\)/);
  });

  it('--help exits 0 with the usage; an invalid flag value exits 1 with kube\'s message', async () => {
    const help = await agentOnce(['--help'], dir);
    assert.equal(help.code, 0, help.out);
    assert.match(help.out, /--container-runtime-endpoint/);
    const bad = await agentOnce(['--max-pods=many'], dir);
    assert.equal(bad.code, 1, bad.out);
    assert.match(bad.out, /^Error: invalid argument "many" for "--max-pods" flag: strconv\.ParseInt: parsing "many": invalid syntax$/m);
    const badDuration = await agentOnce(['--node-status-update-frequency', 'soon'], dir);
    assert.equal(badDuration.code, 1, badDuration.out);
    assert.match(badDuration.out, /^Error: invalid argument "soon" for "--node-status-update-frequency" flag: time: invalid duration "soon"$/m);
  });

  it('--config with webhook authentication and authorization: /pods refuses anonymous, allows the API server\'s client and an admin token', async () => {
    const port = await freePort();
    writeFileSync(join(dir, 'n2.yaml'), stringify({
      apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration',
      port, healthzPort: 0, nodeStatusUpdateFrequency: '1s',
      authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: join(dir, 'ca.crt') } },
      authorization: { mode: 'Webhook' },
    }));
    const n2 = start(['--config', join(dir, 'n2.yaml'), ...await bootArgs('n2', await ownRuntime(), false)]);
    await waitFor('node n2 Ready', '/api/v1/nodes/n2', (n) => condition(n ?? {}, 'Ready')?.status === 'True');
    const anonymous = await agentGet(port, '/pods');
    assert.deepEqual([anonymous.status, anonymous.text], [401, 'Unauthorized']);
    const nobody = await agentGet(port, '/pods', { token: 'token-nobody' });
    assert.equal(nobody.status, 403, nobody.text);
    assert.match(nobody.text, /^Forbidden \(user=nobody, verb=get, resource=nodes, subresource/);
    const byToken = await agentGet(port, '/pods', { token: 'token-admin' });
    assert.equal(byToken.status, 200, byToken.text);
    assert.equal(JSON.parse(byToken.text).kind, 'PodList');
    const byCert = await agentGet(port, '/pods', admin);
    assert.equal(byCert.status, 200, byCert.text);
    // the API server's own client (kube-apiserver-kubelet-client): kubectl logs through it
    await createPod('on-n2', { nodeName: 'n2', containers: [sh('echo hello n2; sleep 3600')] });
    await waitFor('pod on-n2 Running', pod('on-n2'), (x) => x?.status?.phase === 'Running');
    let r = await kubectl('logs', 'on-n2');
    await eventually(async () => {
      r = await kubectl('logs', 'on-n2');
      return r.code === 0 && r.out === 'hello n2\n';
    }, 20_000).catch(() => assert.fail(`kubectl logs: ${r.code} ${r.out} ${r.err}\n${n2.stderr().slice(-2000)}`));
    assert.equal(await n2.stop(), 0, n2.stderr().slice(-2000));
  });
});
