// The scheduler and pods/binding end to end: a real server, nodes written by
// the admin with capacity, labels and taints, the scheduler started on the
// server's controller context; pods land where kube's default profile puts
// them, an unschedulable pod gets FailedScheduling and PodScheduled=False with
// kube's message and is placed once a node fits; pods/binding over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { BACKENDS } from './backends.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSchedulerConfig, startScheduler, type Scheduler } from '../../src/scheduler/index.js';
import { startSimulatedNodes, type SimulatedNodes } from '../../src/simnodes/index.js';

const NS = '/api/v1/namespaces/default';

function node(name: string, opts: { cpu?: string; memory?: string; pods?: string; labels?: Record<string, string>; taints?: unknown[]; unschedulable?: boolean } = {}) {
  const capacity = { cpu: opts.cpu ?? '4', memory: opts.memory ?? '8Gi', pods: opts.pods ?? '110' };
  return {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(opts.labels ?? {}) } },
    spec: { ...(opts.taints ? { taints: opts.taints } : {}), ...(opts.unschedulable ? { unschedulable: true } : {}) },
    status: { capacity, allocatable: capacity, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function pod(name: string, opts: { cpu?: string; nodeSelector?: Record<string, string>; tolerations?: unknown[]; hostPort?: number; priorityClassName?: string; schedulerName?: string } = {}) {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name },
    spec: {
      ...(opts.nodeSelector ? { nodeSelector: opts.nodeSelector } : {}),
      ...(opts.tolerations ? { tolerations: opts.tolerations } : {}),
      ...(opts.schedulerName ? { schedulerName: opts.schedulerName } : {}),
      ...(opts.priorityClassName ? { priorityClassName: opts.priorityClassName } : {}),
      containers: [{
        name: 'c', image: 'nginx',
        ...(opts.cpu ? { resources: { requests: { cpu: opts.cpu } } } : {}),
        ...(opts.hostPort ? { ports: [{ containerPort: 80, hostPort: opts.hostPort }] } : {}),
      }],
    },
  };
}

/** A node as a node agent and the node lifecycle controller leave it: Ready, without the not-ready taint admission put on it. */
async function createNode(t: TestServer, n: ReturnType<typeof node>): Promise<void> {
  const r = await t.req('POST', '/api/v1/nodes', n);
  assert.equal(r.status, 201, r.text);
  const taints = (n.spec as { taints?: unknown[] }).taints ?? null;
  const p = await t.req('PATCH', `/api/v1/nodes/${n.metadata.name}`, { spec: { taints } }, { headers: { 'content-type': 'application/merge-patch+json' } });
  assert.equal(p.status, 200, p.text);
}

async function createPod(t: TestServer, p: object): Promise<void> {
  const r = await t.req('POST', `${NS}/pods`, p);
  assert.equal(r.status, 201, r.text);
}

/** The node the pod is bound to, once it is. */
async function boundNode(t: TestServer, name: string): Promise<string> {
  let node = '';
  await eventually(async () => {
    const r = await t.req('GET', `${NS}/pods/${name}`);
    node = r.body?.spec?.nodeName ?? '';
    return node !== '';
  });
  return node;
}

async function eventsFor(t: TestServer, name: string, reason: string): Promise<{ message: string; type: string; reportingComponent: string }[]> {
  const r = await t.req('GET', `${NS}/events?fieldSelector=involvedObject.name=${name},reason=${reason}`);
  return r.body.items ?? [];
}

describe('pods/binding over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await BACKENDS[0]!.start();
    await createNode(t, node('n1'));
  });
  after(async () => t?.stop());

  it('binds an unassigned pod: nodeName, annotations, PodScheduled True, a 201 Success Status', async () => {
    await createPod(t, pod('b1'));
    const r = await t.req('POST', `${NS}/pods/b1/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b1', annotations: { 'example.com/why': 'test' } }, target: { kind: 'Node', name: 'n1' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const p = (await t.req('GET', `${NS}/pods/b1`)).body;
    assert.equal(p.spec.nodeName, 'n1');
    assert.equal(p.metadata.annotations['example.com/why'], 'test');
    const cond = p.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
    assert.equal(cond.status, 'True');
    assert.ok(cond.lastTransitionTime);
  });

  it('refuses a second binding with kube\'s 409', async () => {
    const r = await t.req('POST', `${NS}/pods/b1/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b1' }, target: { name: 'n2' } });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.reason, 'Conflict');
    assert.equal(r.body.message, 'Operation cannot be fulfilled on pods/binding "b1": pod b1 is already assigned to node "n1"');
    assert.deepEqual(r.body.details, { name: 'b1', kind: 'pods/binding' });
  });

  it('checks the Binding: target kind, target name, the URL\'s name, the uid precondition, a missing pod', async () => {
    await createPod(t, pod('b2'));
    const rows: { body: unknown; path?: string; status: number; message: string }[] = [
      { body: { metadata: { name: 'b2' }, target: { kind: 'Pod', name: 'n1' } }, status: 400, message: 'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"' },
      { body: { metadata: { name: 'b2' }, target: {} }, status: 400, message: 'target.name: Required value' },
      { body: { metadata: { name: 'other' }, target: { name: 'n1' } }, status: 400, message: 'name in URL does not match name in Binding object' },
      { body: { metadata: { name: 'b2', namespace: 'kube-public' }, target: { name: 'n1' } }, status: 400, message: 'the namespace of the provided object does not match the namespace sent on the request' },
      {
        body: { metadata: { name: 'b2', uid: 'not-the-uid' }, target: { name: 'n1' } }, status: 409,
        message: 'Operation cannot be fulfilled on pods "b2": StorageError: invalid object, Code: 4, Key: /registry/pods/default/b2, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: not-the-uid, UID in object meta: ',
      },
      { body: { metadata: { name: 'gone' }, target: { name: 'n1' } }, path: `${NS}/pods/gone/binding`, status: 404, message: 'pods "gone" not found' },
    ];
    for (const row of rows) {
      const r = await t.req('POST', row.path ?? `${NS}/pods/b2/binding`, { apiVersion: 'v1', kind: 'Binding', ...(row.body as object) });
      assert.equal(r.status, row.status, r.text);
      assert.ok(String(r.body.message).startsWith(row.message), `${r.body.message} should start with ${row.message}`);
    }
    assert.equal((await t.req('GET', `${NS}/pods/b2`)).body.spec.nodeName, undefined, 'nothing was bound');
  });

  it('the legacy bindings collection binds the pod the Binding names', async () => {
    await createPod(t, pod('legacy'));
    const r = await t.req('POST', `${NS}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'legacy' }, target: { kind: 'Node', name: 'n1' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'Success');
    assert.equal((await t.req('GET', `${NS}/pods/legacy`)).body.spec.nodeName, 'n1');
    const again = await t.req('POST', `${NS}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'legacy' }, target: { name: 'n1' } });
    assert.equal(again.status, 409, again.text);
    const nameless = await t.req('POST', `${NS}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: {}, target: { name: 'n1' } });
    assert.equal(nameless.status, 400, nameless.text);
    assert.equal(nameless.body.message, 'Name parameter required.');
  });

  it('a dry-run binding writes nothing', async () => {
    const r = await t.req('POST', `${NS}/pods/b2/binding?dryRun=All`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b2' }, target: { name: 'n1' } });
    assert.equal(r.status, 201, r.text);
    assert.equal((await t.req('GET', `${NS}/pods/b2`)).body.spec.nodeName, undefined);
  });
});

for (const backend of BACKENDS) {
  describe(`the scheduler (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    let scheduler: Scheduler;
    before(async () => {
      t = await backend.start();
      scheduler = startScheduler(t.server.controllerContext);
      await scheduler.start();
    });
    after(async () => {
      scheduler?.stop();
      await t?.stop();
    });

    it('places pods as the filters allow: taints, nodeSelector, cordoned nodes; Scheduled event', async () => {
      await createNode(t, node('tainted', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
      await createNode(t, node('cordoned', { unschedulable: true }));
      await createNode(t, node('plain', { labels: { disk: 'ssd' } }));
      await createPod(t, pod('p1'));
      assert.equal(await boundNode(t, 'p1'), 'plain');
      await createPod(t, pod('p2', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }], nodeSelector: { 'kubernetes.io/hostname': 'tainted' } }));
      assert.equal(await boundNode(t, 'p2'), 'tainted');
      await eventually(async () => (await eventsFor(t, 'p1', 'Scheduled')).length === 1);
      const [ev] = await eventsFor(t, 'p1', 'Scheduled');
      assert.equal(ev!.message, 'Successfully assigned default/p1 to plain');
      assert.equal(ev!.type, 'Normal');
      assert.equal(ev!.reportingComponent, 'default-scheduler'); // events.k8s.io/v1: no source, the reporting controller
      const p1 = (await t.req('GET', `${NS}/pods/p1`)).body;
      assert.equal(p1.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled').status, 'True');
    });

    it('an unschedulable pod gets FailedScheduling and PodScheduled=False with kube\'s message, then lands once a node fits', async () => {
      await createPod(t, pod('big', { cpu: '6' }));
      const want = '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable. '
        + 'preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling..';
      await eventually(async () => (await eventsFor(t, 'big', 'FailedScheduling')).length > 0);
      const [ev] = await eventsFor(t, 'big', 'FailedScheduling');
      assert.equal(ev!.message, want);
      assert.equal(ev!.type, 'Warning');
      await eventually(async () => {
        const p = (await t.req('GET', `${NS}/pods/big`)).body;
        const c = (p.status.conditions ?? []).find((x: { type: string }) => x.type === 'PodScheduled');
        return c?.status === 'False' && c.reason === 'Unschedulable' && c.message === want;
      });
      await createNode(t, node('large', { cpu: '8' }));
      assert.equal(await boundNode(t, 'big'), 'large');
    });

    it('host ports conflict; requests add up on a node (the assumed pod counts before its binding is seen)', async () => {
      await createNode(t, node('ports-a', { labels: { pool: 'ports' } }));
      await createPod(t, pod('hp1', { hostPort: 8080, nodeSelector: { pool: 'ports' } }));
      await createPod(t, pod('hp2', { hostPort: 8080, nodeSelector: { pool: 'ports' } }));
      assert.equal(await boundNode(t, 'hp1'), 'ports-a');
      await eventually(async () => (await eventsFor(t, 'hp2', 'FailedScheduling')).length > 0);
      const [ev] = await eventsFor(t, 'hp2', 'FailedScheduling');
      assert.equal(ev!.message, "0/5 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) had untolerated taint {dedicated: gpu}, "
        + "1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/5 nodes are available: 1 No preemption victims found for incoming pod, "
        + '4 Preemption is not helpful for scheduling..');
    });

    it('preempts a lower-priority pod: the victim deleted and told, the preemptor nominated, then placed', async () => {
      const pc = await t.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
      assert.equal(pc.status, 201, pc.text);
      await createNode(t, node('pre', { cpu: '2', labels: { pool: 'pre' } }));
      await createPod(t, pod('victim', { cpu: '2', nodeSelector: { pool: 'pre' } }));
      assert.equal(await boundNode(t, 'victim'), 'pre');
      await createPod(t, pod('preemptor', { cpu: '2', nodeSelector: { pool: 'pre' }, priorityClassName: 'high' }));
      await eventually(async () => (await t.req('GET', `${NS}/pods/preemptor`)).body.status?.nominatedNodeName === 'pre');
      await eventually(async () => Boolean((await t.req('GET', `${NS}/pods/victim`)).body.metadata?.deletionTimestamp));
      const victim = (await t.req('GET', `${NS}/pods/victim`)).body;
      const target = victim.status.conditions.find((c: { type: string }) => c.type === 'DisruptionTarget');
      assert.deepEqual([target.status, target.reason, target.message], ['True', 'PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod']);
      await eventually(async () => (await eventsFor(t, 'victim', 'Preempted')).length > 0);
      const [preempted] = await eventsFor(t, 'victim', 'Preempted');
      assert.match(preempted!.message, /^Preempted by pod .+ on node pre$/);
      // The node agent's part: the victim goes.
      const del = await t.req('DELETE', `${NS}/pods/victim`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
      assert.equal(del.status, 200, del.text);
      assert.equal(await boundNode(t, 'preemptor'), 'pre');
    });

    it('a pod with scheduling gates waits until the last gate is removed', async () => {
      const p = pod('gated');
      await createPod(t, { ...p, spec: { ...p.spec, schedulingGates: [{ name: 'example.com/wait' }] } });
      await createPod(t, pod('ungated'));
      await boundNode(t, 'ungated');
      assert.equal((await t.req('GET', `${NS}/pods/gated`)).body.spec.nodeName, undefined);
      const r = await t.req('PATCH', `${NS}/pods/gated`, { spec: { schedulingGates: null } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(r.status, 200, r.text);
      await boundNode(t, 'gated');
    });

    it('a pod for another scheduler is left alone', async () => {
      await createPod(t, pod('other', { schedulerName: 'my-scheduler' }));
      await createPod(t, pod('mine'));
      await boundNode(t, 'mine');
      assert.equal((await t.req('GET', `${NS}/pods/other`)).body.spec.nodeName, undefined);
    });
  });
}

describe('the scheduler with a KubeSchedulerConfiguration file', () => {
  let t: TestServer;
  let scheduler: Scheduler;
  before(async () => {
    t = await BACKENDS[0]!.start();
    const file = join(t.dataDir, 'scheduler.yaml');
    writeFileSync(file, `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: packer
  plugins:
    score:
      disabled: [{name: NodeResourcesBalancedAllocation}]
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
`);
    scheduler = startScheduler(t.server.controllerContext, readSchedulerConfig(file));
    await scheduler.start();
  });
  after(async () => {
    scheduler?.stop();
    await t?.stop();
  });

  it('without nodes: "no nodes available to schedule pods"', async () => {
    await createPod(t, pod('early'));
    await eventually(async () => (await eventsFor(t, 'early', 'FailedScheduling')).length > 0);
    assert.equal((await eventsFor(t, 'early', 'FailedScheduling'))[0]!.message, 'no nodes available to schedule pods');
    await eventually(async () => {
      const c = ((await t.req('GET', `${NS}/pods/early`)).body.status.conditions ?? []).find((x: { type: string }) => x.type === 'PodScheduled');
      return c?.status === 'False' && c.reason === 'Unschedulable';
    });
    await createNode(t, node('a'));
    assert.equal(await boundNode(t, 'early'), 'a');
  });

  it('a second profile packs pods (MostAllocated) and records events under its name', async () => {
    await createNode(t, node('b'));
    await createPod(t, pod('filler', { cpu: '1', nodeSelector: { 'kubernetes.io/hostname': 'b' } }));
    await boundNode(t, 'filler');
    await createPod(t, pod('packed', { cpu: '1', schedulerName: 'packer' }));
    assert.equal(await boundNode(t, 'packed'), 'b');
    await eventually(async () => (await eventsFor(t, 'packed', 'Scheduled')).length > 0);
    assert.equal((await eventsFor(t, 'packed', 'Scheduled'))[0]!.reportingComponent, 'packer');
  });

  it('a pod waiting for its claim: not found, then unbound, in the PreFilter\'s words', async () => {
    const p = pod('claimant');
    await createPod(t, { ...p, spec: { ...p.spec, volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] } });
    const message = async () => {
      const c = ((await t.req('GET', `${NS}/pods/claimant`)).body.status.conditions ?? []).find((x: { type: string }) => x.type === 'PodScheduled');
      return c?.message as string | undefined;
    };
    await eventually(async () => (await message()) === '0/2 nodes are available: persistentvolumeclaim "data" not found. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..');
    const claim = await t.req('POST', `${NS}/persistentvolumeclaims`, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    assert.equal(claim.status, 201, claim.text);
    await eventually(async () => (await message()) === '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling..');
  });

  it('kubectl describe shows the scheduler\'s events and the node', { skip: kubectlMissing }, async () => {
    const kubectl = kubectlFor(() => t);
    try {
      const r = await kubectl('describe', 'pod', 'early');
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^Node:\s+a\/?/m);
      assert.match(r.out, /Warning\s+FailedScheduling\s+.*default-scheduler\s+no nodes available to schedule pods/);
      assert.match(r.out, /Normal\s+Scheduled\s+.*default-scheduler\s+Successfully assigned default\/early to a/);
      const wide = await kubectl('get', 'pod', 'early', '-o', 'wide');
      assert.match(wide.out, /early\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+a\s/);
    } finally {
      kubectl.cleanup();
    }
  });
});

describe('the scheduler with simulated nodes', () => {
  let t: TestServer;
  let scheduler: Scheduler;
  let sim: SimulatedNodes;
  before(async () => {
    t = await BACKENDS[0]!.start();
    sim = startSimulatedNodes(t.server.controllerContext, { count: 2, leaseRenewMs: 300, statusCheckMs: 300, statusReportMs: 1500 });
    await sim.start();
    // The node lifecycle controller's part: the not-ready taint goes once the nodes are Ready.
    for (const n of sim.nodes) {
      const r = await t.req('PATCH', `/api/v1/nodes/${n.name}`, { spec: { taints: null } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(r.status, 200, r.text);
    }
    scheduler = startScheduler(t.server.controllerContext);
    await scheduler.start();
  });
  after(async () => {
    scheduler?.stop();
    sim?.stop();
    await t?.stop();
  });

  it('pods are placed, spread by their requests, and run', async () => {
    for (const name of ['s1', 's2']) await createPod(t, pod(name, { cpu: '3' }));
    const nodes = [await boundNode(t, 's1'), await boundNode(t, 's2')];
    assert.deepEqual(nodes.sort(), ['sim-node-0', 'sim-node-1'], '3 of 4 cpus each: one per node');
    await eventually(async () => (await t.req('GET', `${NS}/pods/s1`)).body.status?.phase === 'Running');
  });

  it('a preempted pod is deleted by its node, and the preemptor runs in its place', async () => {
    const pc = await t.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'urgent' }, value: 100 });
    assert.equal(pc.status, 201, pc.text);
    await createPod(t, pod('urgent', { cpu: '3', priorityClassName: 'urgent' }));
    const node = await boundNode(t, 'urgent');
    await eventually(async () => (await t.req('GET', `${NS}/pods/urgent`)).body.status?.phase === 'Running');
    const gone = (await Promise.all(['s1', 's2'].map(async (n) => (await t.req('GET', `${NS}/pods/${n}`)).status === 404)));
    assert.deepEqual(gone.filter(Boolean).length, 1, `one victim was deleted to make room on ${node}`);
  });
});
