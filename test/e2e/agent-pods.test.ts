// Pod behaviours of the node agent on a real containerd (issue 25), with
// `startAgent` in API-server mode as system:node:<name> over HTTPS, as
// agent.test.ts runs it: a failing liveness probe restarts the container
// (restartCount, Unhealthy and Killing events), init containers run in order
// before the main one, a 32Mi memory limit exceeded ends in OOMKilled,
// hostPath and emptyDir volumes are visible in the container, the downward
// API fills env from the pod's name and IP, and a static pod read from
// --manifest-url (a local HTTP server that insists on a header) runs with its
// mirror pod, which goes when the URL stops listing it. Also pod-bound
// service account tokens, over HTTPS and through the agent API of `svc
// server --agent` (in the server's process): for the node's own pods only
// (NodeRestriction admits the token request).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { podHelpers, startNodeTestServer } from './agentpods.js';
import { eventually, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { freePort } from '../../src/testing/ports.js';
import { BUSYBOX_IMAGE, containerdMissing, startContainerd, testCgroupRoot, unmountUnder, type Containerd } from '../../src/testing/containerd.js';
import { failIfLingering } from '../../src/testing/lingering.js';
import { parseAgentArgs } from '../../src/agent/config/index.js';
import { startAgent, type RunningAgent } from '../../src/agent/agent.js';
import { inProcessAgentApi, remoteAgentApi } from '../../src/agent/api/index.js';
import { SA_TOKEN } from '../../src/agent/volumes/sources.js';
import { loadSvcconfig } from '../../src/client/svcconfig.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const skip = containerdMissing();
const NODE = 'agent-pods-e2e';

describe('pod behaviours of the node agent on containerd', { skip }, () => {
  let t: TestServer;
  let c: Containerd;
  let agent: RunningAgent;
  let cgroups: { path: string; remove(): void };
  let manifestServer: Server;
  const dir = tempDir('svc-agent-pods-');
  const hostDir = join(dir, 'host');
  const logs = join(dir, 'logs');
  const svcconfig = join(dir, 'node.svcconfig');
  // What the manifest URL serves (YAML), and the requests it saw.
  let manifest = '';
  const seenHeaders: string[] = [];

  const { getPod, waitPod, createPod } = podHelpers(() => t, NODE);

  const sh = (name: string, script: string, extra: Obj = {}) => ({ name, image: BUSYBOX_IMAGE, imagePullPolicy: 'Never', command: ['sh', '-c', script], ...extra });
  const status = (p: Obj, name = 'main', kind = 'containerStatuses'): Obj => (p.status?.[kind] ?? []).find((s: Obj) => s.name === name) ?? {};
  const condition = (p: Obj, type: string): string | undefined => (p.status?.conditions ?? []).find((x: Obj) => x.type === type)?.status;
  /** The container's log as the agent wrote it (CRI format), its messages only. */
  const podLog = async (name: string, container = 'main'): Promise<string> => {
    const r = await t.req('GET', `/api/v1/namespaces/default/pods/${name}/log?container=${container}`);
    return r.status === 200 ? r.text : '';
  };
  const waitLog = async (name: string, pred: (log: string) => boolean, container = 'main'): Promise<string> => {
    let log = '';
    await eventually(async () => pred((log = await podLog(name, container))), 30_000).catch(() => assert.fail(`log of ${name}/${container}: ${JSON.stringify(log)}`));
    return log;
  };
  const events = async (name: string): Promise<Obj[]> => {
    const r = await t.req('GET', `/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3D${name}`);
    assert.equal(r.status, 200, r.text);
    return (r.body as Obj).items;
  };

  before(async () => {
    c = await startContainerd({ cni: true });
    cgroups = await testCgroupRoot();
    t = await startNodeTestServer(dir, NODE, svcconfig);
    manifestServer = createServer((req, res) => {
      seenHeaders.push(String(req.headers['x-svc-test']));
      if (req.headers['x-svc-test'] !== 'yes') {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/yaml' }).end(manifest);
    });
    await new Promise<void>((resolve) => manifestServer.listen(0, '127.0.0.1', resolve));
    const manifestPort = (manifestServer.address() as { port: number }).port;
    mkdirSync(hostDir, { recursive: true });
    const { config } = parseAgentArgs([
      '--container-runtime-endpoint', c.endpoint, '--svcconfig', svcconfig, '--root-dir', join(dir, 'root'), '--cert-dir', join(dir, 'pki'),
      '--hostname-override', NODE, '--node-ip', '127.0.0.1', '--port', String(await freePort()), '--healthz-port', '0',
      '--manifest-url', `http://127.0.0.1:${manifestPort}/static.yaml`, '--manifest-url-header', 'X-Svc-Test:yes', '--http-check-frequency', '1s',
      '--cgroup-root', cgroups.path, '--node-status-update-frequency', '1s',
    ], { cwd: dir });
    agent = await startAgent({
      config, nodeName: NODE, hostname: NODE, api: remoteAgentApi(loadSvcconfig(svcconfig), NODE),
      podLogsRoot: logs, plegPeriodMs: 300, log: (m: string) => void (m.startsWith('stopping') && console.error(`svc agent: ${m}`)),
    });
    await eventually(async () => {
      const r = await t.req('GET', `/api/v1/nodes/${NODE}`);
      return r.status === 200 && ((r.body as Obj).status?.conditions ?? []).some((x: Obj) => x.type === 'Ready' && x.status === 'True');
    }, 30_000);
  });
  after(async () => {
    await agent?.stop();
    await t?.stop();
    await c?.stop();
    await new Promise<void>((resolve) => (manifestServer ? manifestServer.close(() => resolve()) : resolve()));
    unmountUnder(dir);
    cgroups?.remove();
    failIfLingering('pod behaviours of the node agent on containerd');
  });

  it('restarts a container whose liveness probe fails: restartCount grows, Unhealthy and Killing events', async () => {
    // healthy while /tmp/alive exists; the container removes it after a second (rm is no applet of the image: busybox rm)
    await createPod('live', {
      containers: [sh('main', 'echo > /tmp/alive; echo started; sleep 1; busybox rm /tmp/alive; sleep 3600', {
        livenessProbe: { exec: { command: ['cat', '/tmp/alive'] }, periodSeconds: 1, failureThreshold: 1 },
      })],
    });
    const p = await waitPod('live', (x) => (status(x).restartCount ?? 0) >= 1 && status(x).lastState?.terminated !== undefined, 60_000);
    assert.equal(status(p).lastState.terminated.exitCode, 137);
    assert.equal(status(p).lastState.terminated.reason, 'Error');
    const reasons = new Set((await events('live')).map((e) => e.reason));
    assert.ok(reasons.has('Unhealthy'), [...reasons].join(','));
    assert.ok(reasons.has('Killing'), [...reasons].join(','));
    const unhealthy = (await events('live')).find((e) => e.reason === 'Unhealthy')!;
    assert.match(unhealthy.message, /^Liveness probe failed: /);
    assert.equal(unhealthy.type, 'Warning');
    assert.equal(unhealthy.involvedObject.fieldPath, 'spec.containers{main}');
    const killing = (await events('live')).find((e) => e.reason === 'Killing')!;
    assert.equal(killing.message, 'Container main failed liveness probe, will be restarted');
  });

  it('runs init containers in order before the main container; their status is terminated, Completed', async () => {
    await createPod('init', {
      volumes: [{ name: 'work', emptyDir: {} }],
      initContainers: [
        sh('first', 'echo first >> /work/order', { volumeMounts: [{ name: 'work', mountPath: '/work' }] }),
        sh('second', 'cat /work/order >/dev/null && echo second >> /work/order', { volumeMounts: [{ name: 'work', mountPath: '/work' }] }),
      ],
      containers: [sh('main', 'echo main >> /work/order; cat /work/order; sleep 3600', { volumeMounts: [{ name: 'work', mountPath: '/work' }] })],
    });
    const p = await waitPod('init', (x) => x.status?.phase === 'Running' && condition(x, 'Ready') === 'True');
    assert.equal(condition(p, 'Initialized'), 'True');
    assert.deepEqual(p.status.initContainerStatuses.map((s: Obj) => s.name), ['first', 'second']);
    for (const name of ['first', 'second']) {
      const s = status(p, name, 'initContainerStatuses');
      assert.equal(s.state.terminated?.reason, 'Completed', JSON.stringify(s));
      assert.equal(s.state.terminated.exitCode, 0);
      assert.equal(s.ready, true);
    }
    assert.equal(await waitLog('init', (l) => l.length > 0), 'first\nsecond\nmain\n');
  });

  it('fails a Never pod whose init container fails: not Initialized, the main container never created', async () => {
    await createPod('initfail', {
      restartPolicy: 'Never',
      initContainers: [sh('setup', 'exit 2')],
      containers: [sh('main', 'sleep 3600')],
    });
    const p = await waitPod('initfail', (x) => x.status?.phase === 'Failed');
    assert.equal(status(p, 'setup', 'initContainerStatuses').state.terminated.exitCode, 2);
    assert.equal(condition(p, 'Initialized'), 'False');
    assert.equal(status(p).state?.waiting?.reason, 'PodInitializing');
    assert.equal((await agent.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.name': 'initfail', 'io.kubernetes.container.name': 'main' } })).length, 0);
  });

  it('kills a container over its 32Mi memory limit: OOMKilled, and lastState after the restart', async () => {
    // the string doubles until the cgroup's memory.max is hit
    await createPod('oom', {
      containers: [sh('main', 'echo go; x=0123456789abcdef; while true; do x=$x$x; done', { resources: { limits: { memory: '32Mi' } } })],
    });
    const p = await waitPod('oom', (x) => status(x).lastState?.terminated !== undefined || status(x).state?.terminated !== undefined, 60_000);
    const ended = status(p).lastState?.terminated ?? status(p).state.terminated;
    assert.equal(ended.reason, 'OOMKilled', JSON.stringify(status(p)));
    assert.equal(ended.exitCode, 137);
    assert.equal(p.status.qosClass, 'Burstable');
  });

  it('shows hostPath and emptyDir volumes in the container', async () => {
    writeFileSync(join(hostDir, 'in.txt'), 'from the host\n');
    await createPod('vols', {
      volumes: [
        { name: 'host', hostPath: { path: hostDir, type: 'Directory' } },
        { name: 'scratch', emptyDir: {} },
        { name: 'ram', emptyDir: { medium: 'Memory' } },
      ],
      containers: [sh('main', 'cat /host/in.txt; echo from the pod > /host/out.txt; echo scratch > /scratch/f; cat /scratch/f; echo ram > /ram/f; cat /ram/f; grep -c " /ram tmpfs " /proc/mounts; sleep 3600', {
        volumeMounts: [{ name: 'host', mountPath: '/host' }, { name: 'scratch', mountPath: '/scratch' }, { name: 'ram', mountPath: '/ram' }],
      })],
    });
    await waitPod('vols', (x) => x.status?.phase === 'Running');
    // the last line counts tmpfs mounts at /ram: the Memory emptyDir is one
    assert.equal(await waitLog('vols', (l) => l.split('\n').length >= 5), 'from the host\nscratch\nram\n1\n');
    await eventually(async () => {
      try {
        return readFileSync(join(hostDir, 'out.txt'), 'utf8') === 'from the pod\n';
      } catch {
        return false;
      }
    }, 10_000);
  });

  it('fills env from the downward API: metadata.name, status.podIP, spec.nodeName', async () => {
    await createPod('downward', {
      containers: [sh('main', 'echo "name=$POD_NAME ip=$POD_IP node=$NODE_NAME"; sleep 3600', {
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
        ],
      })],
    });
    const p = await waitPod('downward', (x) => x.status?.phase === 'Running' && x.status?.podIP !== undefined);
    assert.match(p.status.podIP, /^10\.\d+\.\d+\.\d+$/);
    const log = await waitLog('downward', (l) => l.length > 0);
    assert.equal(log, `name=downward ip=${p.status.podIP} node=${NODE}\n`);
  });

  it('gets pod-bound tokens as the node for its own pods only, over HTTPS and in the server\'s process (svc server --agent)', async () => {
    await createPod('mine', { containers: [sh('main', 'sleep 3600')] });
    await createPod('theirs', { nodeName: 'another-node', containers: [sh('main', 'sleep 3600')] });
    const mine = (await getPod('mine'))!;
    const theirs = (await getPod('theirs'))!;
    for (const [how, api] of [['https', remoteAgentApi(loadSvcconfig(svcconfig), NODE)], ['in-process', inProcessAgentApi(t.server.controllerContext, NODE)]] as const) {
      const request = (pod: Obj) => api.createSubresource(SA_TOKEN, 'default', 'default', {
        apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {},
        spec: { audiences: [], expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid } },
      });
      try {
        const tr = await request(mine) as Obj;
        assert.equal(tr.kind, 'TokenRequest', how);
        const review = await t.req('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: tr.status.token } });
        assert.equal(review.status, 201, review.text);
        const status = (review.body as Obj).status;
        assert.equal(status.authenticated, true, JSON.stringify(status));
        assert.equal(status.user.username, 'system:serviceaccount:default:default');
        assert.deepEqual(status.user.extra['authentication.kubernetes.io/pod-name'], ['mine']);
        await assert.rejects(request(theirs), (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err);
          assert.match(message, /serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node/, `${how}: ${message}`);
          return true;
        });
      } finally {
        api.close();
      }
    }
  });

  it('runs a static pod from --manifest-url (with its header) and publishes its mirror pod; removing it from the URL removes both', async () => {
    manifest = stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fromurl', namespace: 'default' }, spec: { containers: [sh('main', 'echo static; sleep 3600')] } });
    const p = await waitPod(`fromurl-${NODE}`, (x) => x.status?.phase === 'Running', 60_000);
    assert.ok(seenHeaders.length > 0 && seenHeaders.every((h) => h === 'yes'), seenHeaders.join(','));
    const annotations = p.metadata.annotations;
    assert.ok(annotations['kubernetes.io/config.mirror'] ?? annotations['svc.io/config.mirror'], JSON.stringify(annotations));
    assert.equal(annotations['kubernetes.io/config.source'] ?? annotations['svc.io/config.source'], 'http');
    assert.deepEqual(p.metadata.ownerReferences.map((o: Obj) => [o.kind, o.name]), [['Node', NODE]]);
    assert.equal(p.spec.nodeName, NODE);
    const running = await agent.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.name': `fromurl-${NODE}` }, state: 'CONTAINER_RUNNING' });
    assert.equal(running.length, 1);
    // the URL no longer lists it: the pod stops and its mirror pod is deleted
    manifest = '';
    await eventually(async () => (await getPod(`fromurl-${NODE}`)) === undefined, 45_000);
    await eventually(async () => (await agent.runtime.listContainers({ labelSelector: { 'io.kubernetes.pod.name': `fromurl-${NODE}` }, state: 'CONTAINER_RUNNING' })).length === 0, 30_000);
  });
});
