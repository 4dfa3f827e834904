// The node agent end to end (issue 25) on a real containerd: `startAgent`
// in API-server mode as system:node:<name> over HTTPS (a node token), the
// real API server with NodeRestriction and the controllers, pods in real
// containers — registration and Ready, a pod Running and Ready with its log
// read by kubectl through the API server, exit codes and restarts with
// back-off, readiness probes, env and volumes from a ConfigMap, graceful
// deletion with a preStop hook, a static pod with its mirror pod, a pod the
// node cannot fit refused.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { podHelpers, startNodeTestServer } from './agentpods.js';
import { eventually, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { freePort } from '../../src/testing/ports.js';
import { BUSYBOX_IMAGE, containerdMissing, startContainerd, testCgroupRoot, unmountUnder, type Containerd } from '../../src/testing/containerd.js';
import { cleanupStep, failIfLingering } from '../../src/testing/lingering.js';
import { parseAgentArgs } from '../../src/agent/config/index.js';
import { startAgent, type RunningAgent } from '../../src/agent/agent.js';
import { remoteAgentApi } from '../../src/agent/api/index.js';
import { loadSvcconfig } from '../../src/client/svcconfig.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = containerdMissing() || kubectlMissing;
const NODE = 'agent-e2e';

describe('the node agent on containerd', { skip }, () => {
  let t: TestServer;
  let c: Containerd;
  let agent: RunningAgent;
  let cgroups: { path: string; remove(): void };
  const dir = tempDir('svc-agent-e2e-');
  const manifests = join(dir, 'manifests');
  const kubectl = kubectlFor(() => t);

  const { getPod, waitPod, createPod } = podHelpers(() => t, NODE);

  const sh = (script: string, extra: Obj = {}) => ({ name: 'main', image: BUSYBOX_IMAGE, imagePullPolicy: 'Never', command: ['sh', '-c', script], ...extra });
  const container = (p: Obj, name = 'main'): Obj => (p.status?.containerStatuses ?? []).find((s: Obj) => s.name === name) ?? {};
  const condition = (p: Obj, type: string): string | undefined => (p.status?.conditions ?? []).find((x: Obj) => x.type === type)?.status;

  before(async () => {
    c = await startContainerd({ cni: true });
    cgroups = await testCgroupRoot();
    const svcconfig = join(dir, 'node.svcconfig');
    t = await startNodeTestServer(dir, NODE, svcconfig);
    mkdirSync(manifests, { recursive: true });
    const { config } = parseAgentArgs([
      '--container-runtime-endpoint', c.endpoint, '--svcconfig', svcconfig, '--root-dir', join(dir, 'root'), '--cert-dir', join(dir, 'pki'),
      '--hostname-override', NODE, '--node-ip', '127.0.0.1', '--port', String(await freePort()), '--healthz-port', '0', '--pod-manifest-path', manifests,
      '--file-check-frequency', '1s', '--cgroup-root', cgroups.path, '--node-status-update-frequency', '1s', '--cluster-domain', 'cluster.local',
    ], { cwd: dir });
    agent = await startAgent({
      config, nodeName: NODE, hostname: NODE, api: remoteAgentApi(loadSvcconfig(svcconfig), NODE),
      podLogsRoot: join(dir, 'logs'), plegPeriodMs: 300, log: (m: string) => void (m.startsWith('stopping') && console.error(`svc agent: ${m}`)),
    });
  });
  after(async () => {
    const step = (name: string, run: () => unknown) => cleanupStep('the node agent on containerd', name, run);
    await step('agent.stop', () => agent?.stop());
    await step('server stop', () => t?.stop());
    await step('containerd stop', () => c?.stop());
    await step('unmount', () => unmountUnder(dir));
    await step('cgroups remove', () => cgroups?.remove());
    failIfLingering('the node agent on containerd');
  });

  it('registers its Node, Ready, with the machine\'s capacity, the kubelet port and both label spellings', async () => {
    let node: Obj = {};
    await eventually(async () => {
      const r = await t.req('GET', `/api/v1/nodes/${NODE}`);
      node = r.body as Obj;
      return r.status === 200 && (node.status?.conditions ?? []).some((x: Obj) => x.type === 'Ready' && x.status === 'True');
    }, 30_000);
    assert.equal(node.metadata.labels['kubernetes.io/hostname'], NODE);
    assert.equal(node.metadata.labels['svc.io/hostname'], NODE);
    assert.equal(node.status.capacity.pods, '110');
    assert.equal(node.status.daemonEndpoints.kubeletEndpoint.Port, agent.port);
    assert.match(node.status.nodeInfo.containerRuntimeVersion, /^containerd:\/\//);
    assert.deepEqual(node.status.addresses.find((a: Obj) => a.type === 'InternalIP'), { type: 'InternalIP', address: '127.0.0.1' });
  });

  it('runs a pod: Running and Ready with a pod IP, and kubectl logs reads its output through the API server', async () => {
    await createPod('hello', { containers: [sh('echo hello from svc; sleep 3600')] });
    const p = await waitPod('hello', (x) => x.status?.phase === 'Running' && condition(x, 'Ready') === 'True');
    assert.match(p.status.podIP, /^10\.\d+\.\d+\.\d+$/);
    assert.equal(p.status.hostIP, '127.0.0.1');
    assert.match(container(p).containerID, /^containerd:\/\//);
    assert.equal(container(p).ready, true);
    assert.equal(p.status.qosClass, 'BestEffort');
    let r = await kubectl('logs', 'hello');
    await eventually(async () => {
      r = await kubectl('logs', 'hello');
      return r.code === 0 && r.out.includes('hello from svc');
    }, 15_000).catch(() => assert.fail(`kubectl logs: ${r.code} ${r.out} ${r.err}`));
    assert.equal(r.out, 'hello from svc\n');
  });

  it('reports exit codes: a Never pod that exits 3 is Failed, one that exits 0 Succeeded', async () => {
    await createPod('fails', { restartPolicy: 'Never', containers: [sh('exit 3')] });
    await createPod('works', { restartPolicy: 'Never', containers: [sh('echo done')] });
    const f = await waitPod('fails', (x) => x.status?.phase === 'Failed');
    assert.equal(container(f).state.terminated.exitCode, 3);
    assert.equal(container(f).state.terminated.reason, 'Error');
    const w = await waitPod('works', (x) => x.status?.phase === 'Succeeded');
    assert.equal(container(w).state.terminated.reason, 'Completed');
  });

  it('restarts a crashing container with kube\'s back-off', async () => {
    await createPod('crash', { containers: [sh('exit 1')] });
    const p = await waitPod('crash', (x) => container(x).restartCount >= 1 && container(x).state?.waiting?.reason === 'CrashLoopBackOff', 45_000);
    assert.match(container(p).state.waiting.message, /^back-off 10s restarting failed container=main pod=crash_default\(/);
    assert.equal(container(p).lastState.terminated.exitCode, 1);
  });

  it('env and volumes from a ConfigMap, and a readiness probe that decides Ready', async () => {
    const cm = await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cfg' }, data: { greeting: 'hi', 'file.txt': 'from a file' } });
    assert.equal(cm.status, 201, cm.text);
    await createPod('cfg', {
      volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }],
      containers: [sh('echo "$GREETING $(cat /cfg/file.txt)"; sleep 3600', {
        env: [{ name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'greeting' } } }],
        volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
        readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1 },
      })],
    });
    const notReady = await waitPod('cfg', (x) => x.status?.phase === 'Running');
    assert.equal(condition(notReady, 'Ready'), 'False');
    let r = await kubectl('logs', 'cfg');
    await eventually(async () => {
      r = await kubectl('logs', 'cfg');
      return r.out.length > 0;
    }, 15_000).catch(() => assert.fail(`kubectl logs: ${r.code} ${r.out} ${r.err}`));
    assert.equal(r.out, 'hi from a file\n');
    const exec = await agent.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.name': 'cfg' }, state: 'CONTAINER_RUNNING' });
    assert.equal(exec.length, 1);
    await agent.runtime.execSync(exec[0]!.id, ['sh', '-c', 'echo > /tmp/ready'], 5);
    await waitPod('cfg', (x) => condition(x, 'Ready') === 'True');
  });

  it('deletes gracefully: the preStop hook runs, the containers stop, the pod object goes', async () => {
    await createPod('bye', {
      containers: [sh('trap "exit 0" TERM; sleep 3600 & wait', { lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo prestop > /proc/1/fd/1'] } } } })],
    });
    await waitPod('bye', (x) => x.status?.phase === 'Running');
    const del = await t.req('DELETE', '/api/v1/namespaces/default/pods/bye');
    assert.equal(del.status, 200, del.text);
    await eventually(async () => (await getPod('bye')) === undefined, 30_000);
    await eventually(async () => (await agent.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.name': 'bye' }, state: 'CONTAINER_RUNNING' })).length === 0, 10_000);
  });

  it('runs a static pod from the manifest folder and publishes its mirror pod', async () => {
    writeFileSync(join(manifests, 'static.yaml'), stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'static' }, spec: { containers: [sh('sleep 3600')] } }));
    const p = await waitPod(`static-${NODE}`, (x) => x.status?.phase === 'Running', 45_000);
    assert.ok(p.metadata.annotations['svc.io/config.mirror'] ?? p.metadata.annotations['kubernetes.io/config.mirror']);
    assert.equal(p.metadata.ownerReferences[0].kind, 'Node');
  });

  it('refuses a pod that does not fit: Failed, OutOfcpu', async () => {
    await createPod('huge', { containers: [sh('sleep 1', { resources: { requests: { cpu: '1000' } } })] });
    const p = await waitPod('huge', (x) => x.status?.phase === 'Failed');
    assert.equal(p.status.reason, 'OutOfcpu');
    assert.match(p.status.message, /^Pod was rejected: Node didn't have enough resource: cpu, requested: 1000000, used: \d+, capacity: \d+$/);
  });
});
