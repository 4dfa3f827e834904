// Simulated nodes against a real server (NodeRestriction on, authorization
// Node,RBAC): nodes register and stay Ready with Leases renewing, pods bound
// to them run with a kubelet's status, Never pods complete or fail as their
// annotations say, OnFailure pods crash-loop, deleted pods go away, a
// restart adopts nodes and pods, and a node's identity limits what it may
// write. The main flow runs on SQLite and etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from './backends.js';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { startSimulatedNodes, RUN_SECONDS_ANNOTATION, EXIT_CODE_ANNOTATION, SimulatedNodes } from '../../src/simnodes/index.js';
import { remoteCluster, type RemoteCluster } from '../../src/simnodes/remote/index.js';
import { ApiHttp } from '../../src/client/http.js';
import { RemoteKubelet } from '../../src/simnodes/remote/kubelet.js';
import { POD_STATUS } from '../../src/simnodes/pods.js';
import { loadConnectionFile } from '../../src/webhook/connfile.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

const NODE_LEASES = '/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases';
const PODS = '/api/v1/namespaces/default/pods';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const FAST = { leaseRenewMs: 300, statusCheckMs: 300, statusReportMs: 1500 };

function pod(name: string, nodeName: string, opts: { restartPolicy?: string; annotations?: Record<string, string>; init?: boolean } = {}): Any {
  return {
    metadata: { name, ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: {
      nodeName,
      ...(opts.restartPolicy ? { restartPolicy: opts.restartPolicy } : {}),
      ...(opts.init ? { initContainers: [{ name: 'setup', image: 'busybox:1.36' }] } : {}),
      containers: [{ name: 'web', image: 'nginx' }, { name: 'agent', image: 'registry.example.com:5000/team/agent:v2' }],
    },
  };
}

const condition = (obj: Any, type: string) => (obj.status?.conditions ?? []).find((c: Any) => c.type === type);

/** The pod once its phase is one of `phases`. */
async function phaseOf(t: TestServer, name: string, ...phases: string[]): Promise<Any> {
  let last: Any;
  await eventually(async () => {
    last = (await t.req('GET', `${PODS}/${name}`)).body;
    return phases.includes(last.status?.phase);
  });
  return last;
}

async function startNodes(t: TestServer, count: number): Promise<SimulatedNodes> {
  const sim = startSimulatedNodes(t.server.controllerContext, { count, ...FAST });
  await sim.start();
  return sim;
}

for (const backend of BACKENDS) {
  describe(`simulated nodes: the main flow (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    let sim: SimulatedNodes;
    before(async () => {
      t = await backend.start({ admission: { enable: ['NodeRestriction'] } });
      sim = await startNodes(t, 3);
    });
    after(async () => {
      sim?.stop();
      await t?.stop();
    });

    it('registers N Ready nodes with a kubelet\'s labels, capacity, nodeInfo and addresses', async () => {
      const nodes = (await t.req('GET', '/api/v1/nodes')).body.items as Any[];
      assert.deepEqual(nodes.map((n) => n.metadata.name).sort(), ['sim-node-0', 'sim-node-1', 'sim-node-2']);
      const n1 = nodes.find((n) => n.metadata.name === 'sim-node-1');
      assert.equal(n1.metadata.labels['kubernetes.io/hostname'], 'sim-node-1');
      assert.equal(n1.metadata.labels['svc.io/hostname'], 'sim-node-1');
      assert.equal(n1.metadata.labels['kubernetes.io/os'], 'linux');
      assert.equal(n1.metadata.labels['kubernetes.io/arch'], 'amd64');
      assert.equal(n1.metadata.labels.type, 'simulated');
      assert.deepEqual(n1.status.capacity, { cpu: '4', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16Gi', pods: '110' });
      assert.equal(n1.status.allocatable.memory, '16284Mi');
      assert.equal(n1.status.allocatable.pods, '110');
      const ready = condition(n1, 'Ready');
      assert.deepEqual([ready.status, ready.reason, ready.message], ['True', 'KubeletReady', 'kubelet is posting ready status']);
      for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) assert.equal(condition(n1, type).status, 'False', type);
      assert.equal(n1.status.nodeInfo.kubeletVersion, 'v1.27.3');
      assert.equal(n1.status.nodeInfo.operatingSystem, 'linux');
      assert.deepEqual(n1.status.addresses, [{ type: 'InternalIP', address: '198.18.0.2' }, { type: 'Hostname', address: 'sim-node-1' }]);
      assert.deepEqual(n1.status.daemonEndpoints, { kubeletEndpoint: { Port: 10250 } });
      // written as the node itself: the kubelet's field manager
      assert.ok(n1.metadata.managedFields.some((m: Any) => m.manager === 'kubelet'), JSON.stringify(n1.metadata.managedFields));
      // TaintNodesByCondition: not-ready until a node lifecycle controller lifts it (a kubelet may not touch taints)
      assert.ok((n1.spec.taints ?? []).some((x: Any) => x.key === 'node.svc.io/not-ready'));
    });

    it('renews a Lease per node in svc-node-lease, owned by its Node', async () => {
      const first = (await t.req('GET', `${NODE_LEASES}/sim-node-0`)).body;
      assert.equal(first.spec.holderIdentity, 'sim-node-0');
      assert.equal(first.spec.leaseDurationSeconds, 40);
      assert.match(first.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      const node = (await t.req('GET', '/api/v1/nodes/sim-node-0')).body;
      assert.deepEqual(first.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'sim-node-0', uid: node.metadata.uid }]);
      await eventually(async () => (await t.req('GET', `${NODE_LEASES}/sim-node-0`)).body.spec.renewTime !== first.spec.renewTime);
    });

    it('runs a pod bound to the node: Running with a kubelet\'s status', async () => {
      assert.equal((await t.req('POST', PODS, pod('web', 'sim-node-1', { init: true }))).status, 201);
      const p = await phaseOf(t, 'web', 'Running');
      assert.equal(p.status.hostIP, '198.18.0.2');
      assert.match(p.status.podIP, /^10\.244\.1\.\d+$/);
      assert.deepEqual(p.status.podIPs, [{ ip: p.status.podIP }]);
      assert.match(p.status.startTime, /Z$/);
      assert.deepEqual(p.status.conditions.map((c: Any) => [c.type, c.status]),
        [['Initialized', 'True'], ['Ready', 'True'], ['ContainersReady', 'True'], ['PodScheduled', 'True']]);
      assert.deepEqual(p.status.containerStatuses.map((c: Any) => c.name), ['agent', 'web'], 'sorted by name, as the kubelet writes them');
      const web = p.status.containerStatuses.find((c: Any) => c.name === 'web');
      assert.equal(web.image, 'docker.io/library/nginx:latest');
      assert.match(web.imageID, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
      assert.match(web.containerID, /^containerd:\/\/[0-9a-f]{64}$/);
      assert.deepEqual([web.ready, web.started, web.restartCount], [true, true, 0]);
      assert.ok(web.state.running.startedAt);
      const agent = p.status.containerStatuses.find((c: Any) => c.name === 'agent');
      assert.equal(agent.image, 'registry.example.com:5000/team/agent:v2');
      const [init] = p.status.initContainerStatuses;
      assert.deepEqual([init.name, init.state.terminated.exitCode, init.state.terminated.reason, init.ready], ['setup', 0, 'Completed', true]);
      assert.equal(p.status.qosClass, 'BestEffort');
      assert.ok(p.metadata.managedFields.some((m: Any) => m.manager === 'kubelet' && m.subresource === 'status'));
    });

    it('completes a restartPolicy Never pod after its run-seconds: Succeeded, containers Completed', async () => {
      await t.req('POST', PODS, pod('batch', 'sim-node-2', { restartPolicy: 'Never', annotations: { [RUN_SECONDS_ANNOTATION]: '1' } }));
      // Running for a second (a slow poll may see only the end; the container times below show the run)
      const seen = await phaseOf(t, 'batch', 'Running', 'Succeeded');
      if (seen.status.phase === 'Running') assert.equal(condition(seen, 'Ready').status, 'True');
      const p = await phaseOf(t, 'batch', 'Succeeded');
      for (const c of p.status.containerStatuses) {
        assert.deepEqual([c.state.terminated.exitCode, c.state.terminated.reason, c.ready, c.started], [0, 'Completed', false, false]);
        assert.ok(Date.parse(c.state.terminated.finishedAt) - Date.parse(c.state.terminated.startedAt) >= 1000);
      }
      assert.deepEqual([condition(p, 'Ready').status, condition(p, 'Ready').reason], ['False', 'PodCompleted']);
      assert.deepEqual([condition(p, 'Initialized').status, condition(p, 'Initialized').reason], ['True', 'PodCompleted']);
    });

    it('fails a Never pod whose exit code is not 0', async () => {
      await t.req('POST', PODS, pod('broken', 'sim-node-2', { restartPolicy: 'Never', annotations: { [EXIT_CODE_ANNOTATION]: '3' } }));
      const p = await phaseOf(t, 'broken', 'Failed');
      const web = p.status.containerStatuses.find((c: Any) => c.name === 'web');
      assert.deepEqual([web.state.terminated.exitCode, web.state.terminated.reason], [3, 'Error']);
      assert.deepEqual([condition(p, 'Ready').reason, condition(p, 'Ready').message], ['ContainersNotReady', 'containers with unready status: [web agent]'], 'spec order, as the kubelet lists them');
    });

    it('crash-loops an OnFailure pod whose exit code is not 0', async () => {
      await t.req('POST', PODS, pod('loop', 'sim-node-0', { restartPolicy: 'OnFailure', annotations: { [EXIT_CODE_ANNOTATION]: '1' } }));
      let p: Any;
      await eventually(async () => {
        p = (await t.req('GET', `${PODS}/loop`)).body;
        return p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff';
      });
      assert.equal(p.status.phase, 'Running');
      const web = p.status.containerStatuses.find((c: Any) => c.name === 'web');
      assert.equal(web.state.waiting.message, `back-off 10s restarting failed container=web pod=loop_default(${p.metadata.uid})`);
      assert.deepEqual([web.lastState.terminated.exitCode, web.lastState.terminated.reason, web.restartCount], [1, 'Error', 0]);
    });

    it('stops a deleted pod held by a finalizer: containers terminated, phase Failed', async () => {
      const held = pod('held', 'sim-node-1');
      held.metadata.finalizers = ['example.com/hold'];
      await t.req('POST', PODS, held);
      await phaseOf(t, 'held', 'Running');
      assert.equal((await t.req('DELETE', `${PODS}/held`)).status, 200);
      const p = await phaseOf(t, 'held', 'Failed');
      assert.ok(p.metadata.deletionTimestamp);
      assert.deepEqual(p.status.containerStatuses.map((c: Any) => [c.state.terminated?.exitCode, c.state.terminated?.reason]), [[143, 'Error'], [143, 'Error']]);
      const patch = await t.req('PATCH', `${PODS}/held`, { metadata: { finalizers: null } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patch.status, 200, patch.text);
      await eventually(async () => (await t.req('GET', `${PODS}/held`)).status === 404);
    });

    it('finally deletes a terminating pod (grace period 0, as the kubelet)', async () => {
      await t.req('POST', PODS, pod('gone', 'sim-node-0'));
      await phaseOf(t, 'gone', 'Running');
      const del = await t.req('DELETE', `${PODS}/gone`);
      assert.equal(del.status, 200);
      assert.ok(del.body.metadata.deletionTimestamp, 'a graceful delete first');
      await eventually(async () => (await t.req('GET', `${PODS}/gone`)).status === 404);
    });
  });
}

describe('simulated nodes: heartbeats, identity, restart', () => {
  let t: TestServer;
  let sim: SimulatedNodes;
  before(async () => {
    t = await startTestServer({ admission: { enable: ['NodeRestriction'] } });
    sim = await startNodes(t, 2);
  });
  after(async () => {
    sim?.stop();
    await t?.stop();
  });

  const asNode = (name: string) => ({ headers: { 'Impersonate-User': `system:node:${name}`, 'Impersonate-Group': 'system:nodes' } });

  it('takes the pod range an IPAM controller gives its Node (spec.podCIDR)', async () => {
    const patch = await t.req('PATCH', '/api/v1/nodes/sim-node-1', { spec: { podCIDR: '10.99.1.0/24', podCIDRs: ['10.99.1.0/24'] } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patch.status, 200, patch.text);
    const node = sim.nodes.find((n) => n.name === 'sim-node-1')!;
    await eventually(async () => node.podRange === '10.99.1.0/24');
    await t.req('POST', PODS, pod('ranged', 'sim-node-1'));
    assert.match((await phaseOf(t, 'ranged', 'Running')).status.podIP, /^10\.99\.1\.\d+$/);
  });

  it('reports status again when another writer changed a condition (the lifecycle controller\'s Unknown)', async () => {
    const node = (await t.req('GET', '/api/v1/nodes/sim-node-0')).body;
    const unknown = structuredClone(node);
    unknown.status.conditions = unknown.status.conditions.map((c: Any) => (c.type === 'Ready' ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' } : c));
    assert.equal((await t.req('PUT', '/api/v1/nodes/sim-node-0/status', unknown)).status, 200);
    await eventually(async () => condition((await t.req('GET', '/api/v1/nodes/sim-node-0')).body, 'Ready').status === 'True');
  });

  it('moves the conditions\' lastHeartbeatTime at each report', async () => {
    const first = condition((await t.req('GET', '/api/v1/nodes/sim-node-1')).body, 'Ready');
    await eventually(async () => condition((await t.req('GET', '/api/v1/nodes/sim-node-1')).body, 'Ready').lastHeartbeatTime !== first.lastHeartbeatTime);
    const later = condition((await t.req('GET', '/api/v1/nodes/sim-node-1')).body, 'Ready');
    assert.equal(later.lastTransitionTime, first.lastTransitionTime, 'no transition while Ready stays True');
  });

  it('refuses a node the status of another node\'s pod, and another node\'s Lease', async () => {
    await t.req('POST', PODS, pod('mine', 'sim-node-1'));
    const p = await phaseOf(t, 'mine', 'Running');
    const res = await t.req('PUT', `${PODS}/mine/status`, p, asNode('sim-node-0'));
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.message, 'pods "mine" is forbidden: node "sim-node-0" can only update pod status for pods with spec.nodeName set to itself');
    const own = await t.req('PUT', `${PODS}/mine/status`, p, asNode('sim-node-1'));
    assert.equal(own.status, 200, own.text);
    const lease = (await t.req('GET', `${NODE_LEASES}/sim-node-1`)).body;
    const other = await t.req('PUT', `${NODE_LEASES}/sim-node-1`, lease, asNode('sim-node-0'));
    assert.equal(other.status, 403, other.text);
    assert.match(other.body.message, /can only access node lease with the same name as the requesting node/);
  });

  it('holds Ready back for a readiness gate until its condition is True', async () => {
    const gated = pod('gated', 'sim-node-0');
    gated.spec.readinessGates = [{ conditionType: 'example.com/lb-ready' }];
    await t.req('POST', PODS, gated);
    const p = await phaseOf(t, 'gated', 'Running');
    assert.deepEqual([condition(p, 'Ready').status, condition(p, 'Ready').reason], ['False', 'ReadinessGatesNotReady']);
    assert.equal(condition(p, 'ContainersReady').status, 'True');
    p.status.conditions.push({ type: 'example.com/lb-ready', status: 'True' });
    assert.equal((await t.req('PUT', `${PODS}/gated/status`, p)).status, 200);
    await eventually(async () => condition((await t.req('GET', `${PODS}/gated`)).body, 'Ready').status === 'True');
  });

  it('rejects a pod its node cannot hold, as the kubelet\'s admission: Failed, OutOfcpu', async () => {
    const big = pod('big', 'sim-node-1');
    big.spec.containers[0].resources = { requests: { cpu: '3' } };
    big.spec.containers[1].resources = { requests: { cpu: '2' } };
    await t.req('POST', PODS, big);
    const p = await phaseOf(t, 'big', 'Failed');
    assert.equal(p.status.reason, 'OutOfcpu');
    assert.equal(p.status.message, "Pod was rejected: Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000");
    assert.equal(p.status.podIP, undefined, 'no address for a pod that never ran');
    const fits = pod('fits', 'sim-node-1');
    fits.spec.containers[0].resources = { requests: { cpu: '3' } };
    await t.req('POST', PODS, fits);
    await phaseOf(t, 'fits', 'Running');
    const next = pod('next', 'sim-node-1');
    next.spec.containers[0].resources = { requests: { cpu: '1500m' } };
    await t.req('POST', PODS, next);
    assert.equal((await phaseOf(t, 'next', 'Failed')).status.message, "Pod was rejected: Node didn't have enough resource: cpu, requested: 1500, used: 3000, capacity: 4000");
  });

  it('pause() silences one node (a dead kubelet): its Lease stops, its pods wait; resume() brings it back', async () => {
    const renewal = async (node: string) => (await t.req('GET', `${NODE_LEASES}/${node}`)).body.spec.renewTime as string;
    const nextRenewal = async (node: string) => {
      const before_ = await renewal(node);
      await eventually(async () => (await renewal(node)) !== before_);
    };
    sim.pause('sim-node-0');
    // two renewals of another node: a round begun before the pause is over
    await nextRenewal('sim-node-1');
    await nextRenewal('sim-node-1');
    const silent = await renewal('sim-node-0');
    await t.req('POST', PODS, pod('paused-pod', 'sim-node-0'));
    await t.req('POST', PODS, pod('live-pod', 'sim-node-1'));
    await phaseOf(t, 'live-pod', 'Running');
    await nextRenewal('sim-node-1');
    assert.equal(await renewal('sim-node-0'), silent, 'no renewal while paused');
    assert.equal((await t.req('GET', `${PODS}/paused-pod`)).body.status.phase, 'Pending');
    await sim.resume('sim-node-0');
    assert.notEqual(await renewal('sim-node-0'), silent);
    await phaseOf(t, 'paused-pod', 'Running');
    assert.throws(() => sim.pause('nope'), /no simulated node "nope"/);
  });

  it('stop() keeps the nodes; a new start adopts them and their pods', async () => {
    const before_ = (await t.req('GET', '/api/v1/nodes/sim-node-0')).body;
    const running = await (async () => {
      await t.req('POST', PODS, pod('kept', 'sim-node-0'));
      return phaseOf(t, 'kept', 'Running');
    })();
    sim.stop();
    await t.req('POST', PODS, pod('waiting', 'sim-node-0'));
    const lease = (await t.req('GET', `${NODE_LEASES}/sim-node-0`)).body;
    assert.equal((await t.req('GET', `${PODS}/waiting`)).body.status.phase, 'Pending', 'nothing runs it while stopped');
    assert.equal((await t.req('GET', '/api/v1/nodes/sim-node-0')).status, 200, 'the node stays registered');

    sim = await startNodes(t, 2);
    const after_ = (await t.req('GET', '/api/v1/nodes/sim-node-0')).body;
    assert.equal(after_.metadata.uid, before_.metadata.uid, 'the same Node, adopted');
    const waiting = await phaseOf(t, 'waiting', 'Running');
    assert.notEqual(waiting.status.podIP, running.status.podIP, 'the running pod keeps its address; the new one gets another');
    assert.equal((await t.req('GET', `${PODS}/kept`)).body.status.podIP, running.status.podIP);
    await eventually(async () => (await t.req('GET', `${NODE_LEASES}/sim-node-0`)).body.spec.renewTime !== lease.spec.renewTime);

    // the same instance started again learns its pods afresh: no address handed out twice
    sim.stop();
    await sim.start();
    await t.req('POST', PODS, pod('third', 'sim-node-0'));
    const third = await phaseOf(t, 'third', 'Running');
    assert.ok(![running.status.podIP, waiting.status.podIP].includes(third.status.podIP), third.status.podIP);
  });
});

describe('simulated nodes over HTTPS (svc simulate-nodes), impersonating their nodes', () => {
  let t: TestServer;
  let cluster: RemoteCluster;
  let sim: SimulatedNodes;
  before(async () => {
    t = await startTestServer({ admission: { enable: ['NodeRestriction'] } });
    cluster = remoteCluster(loadConnectionFile(t.kubeconfig));
    sim = new SimulatedNodes(cluster, { count: 2, prefix: 'remote-node-', ...FAST });
    await sim.start();
  });
  after(async () => {
    sim?.stop();
    cluster?.close();
    await t?.stop();
  });

  it('registers Ready nodes with renewing Leases', async () => {
    const node = (await t.req('GET', '/api/v1/nodes/remote-node-1')).body;
    assert.equal(condition(node, 'Ready').status, 'True');
    assert.ok(node.metadata.managedFields.some((m: Any) => m.manager === 'kubelet'));
    const lease = (await t.req('GET', `${NODE_LEASES}/remote-node-1`)).body;
    assert.equal(lease.spec.holderIdentity, 'remote-node-1');
    await eventually(async () => (await t.req('GET', `${NODE_LEASES}/remote-node-1`)).body.spec.renewTime !== lease.spec.renewTime);
  });

  it('runs, completes and finally deletes pods bound to them', async () => {
    await t.req('POST', PODS, pod('r-web', 'remote-node-0'));
    await t.req('POST', PODS, pod('r-job', 'remote-node-1', { restartPolicy: 'Never' }));
    const web = await phaseOf(t, 'r-web', 'Running');
    assert.equal(web.status.hostIP, '198.18.0.1');
    await phaseOf(t, 'r-job', 'Succeeded');
    assert.equal((await t.req('DELETE', `${PODS}/r-web`)).status, 200);
    await eventually(async () => (await t.req('GET', `${PODS}/r-web`)).status === 404);
  });

  it('acts as the node: one node may not write another node\'s pod status', async () => {
    await t.req('POST', PODS, pod('r-other', 'remote-node-1'));
    await phaseOf(t, 'r-other', 'Running');
    const http = new ApiHttp(loadConnectionFile(t.kubeconfig));
    try {
      const wrongNode = new RemoteKubelet(http, 'remote-node-0');
      await assert.rejects(wrongNode.update(POD_STATUS, 'default', 'r-other', (p) => p), (err: Any) => {
        assert.equal(err.status.code, 403);
        assert.equal(err.status.message, 'pods "r-other" is forbidden: node "remote-node-0" can only update pod status for pods with spec.nodeName set to itself');
        return true;
      });
      await assert.rejects(new RemoteKubelet(http, 'remote-node-0').authorizeWatch({ group: '', version: 'v1', resource: 'secrets' }, ''), /cannot list resource "secrets"/);
    } finally {
      http.close();
    }
  });
});

describe('simulated nodes through kubectl 1.27', { skip: kubectlMissing }, () => {
  let t: TestServer;
  let sim: SimulatedNodes;
  const kubectl = kubectlFor(() => t);
  before(async () => {
    t = await startTestServer({ admission: { enable: ['NodeRestriction'] } });
    sim = await startNodes(t, 2);
  });
  after(async () => {
    sim?.stop();
    kubectl.cleanup();
    await t?.stop();
  });

  it('get nodes shows them Ready with their version and addresses; get pods shows Running and Completed', async () => {
    const nodes = await kubectl('get', 'nodes', '-o', 'wide', '--no-headers');
    assert.equal(nodes.code, 0, nodes.err);
    const rows = nodes.out.trim().split('\n').map((l) => l.split(/\s+/));
    assert.deepEqual(rows.map((r) => [r[0], r[1], r[4], r[5]]), [['sim-node-0', 'Ready', 'v1.27.3', '198.18.0.1'], ['sim-node-1', 'Ready', 'v1.27.3', '198.18.0.2']]);
    await t.req('POST', PODS, pod('kweb', 'sim-node-0'));
    await t.req('POST', PODS, pod('kjob', 'sim-node-1', { restartPolicy: 'Never' }));
    await phaseOf(t, 'kweb', 'Running');
    await phaseOf(t, 'kjob', 'Succeeded');
    const pods = await kubectl('get', 'pods', '-o', 'wide', '--no-headers');
    assert.equal(pods.code, 0, pods.err);
    const byName = new Map(pods.out.trim().split('\n').map((l) => l.split(/\s+/)).map((r) => [r[0], r]));
    assert.deepEqual(byName.get('kweb')!.slice(1, 4), ['2/2', 'Running', '0']);
    assert.match(byName.get('kweb')![5]!, /^10\.244\.0\.\d+$/);
    assert.equal(byName.get('kweb')![6], 'sim-node-0');
    assert.deepEqual(byName.get('kjob')!.slice(1, 3), ['0/2', 'Completed']);
  });
});

describe('simulated nodes with runPods: false (Nodes and heartbeats only)', () => {
  let t: TestServer;
  let sim: SimulatedNodes;
  before(async () => {
    t = await startTestServer({ admission: { enable: ['NodeRestriction'] } });
    sim = startSimulatedNodes(t.server.controllerContext, { count: 1, runPods: false, ...FAST });
    await sim.start();
  });
  after(async () => {
    sim?.stop();
    await t?.stop();
  });

  it('leaves pods bound to the node alone while its Lease renews', async () => {
    await t.req('POST', PODS, pod('untouched', 'sim-node-0'));
    for (let i = 0; i < 2; i++) {
      const before_ = (await t.req('GET', `${NODE_LEASES}/sim-node-0`)).body.spec.renewTime;
      await eventually(async () => (await t.req('GET', `${NODE_LEASES}/sim-node-0`)).body.spec.renewTime !== before_);
    }
    const p = (await t.req('GET', `${PODS}/untouched`)).body;
    assert.equal(p.status.phase, 'Pending');
    assert.equal(p.status.podIP, undefined);
  });
});
