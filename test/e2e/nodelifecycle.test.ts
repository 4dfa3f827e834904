// The node lifecycle controller and its taint manager (issue 24): a node that
// reports Ready loses the not-ready NoSchedule taint it registered with; a
// node no longer heard from goes Unknown (kube's reasons), its pods not
// ready, tainted unreachable NoSchedule and NoExecute; pods that do not
// tolerate the NoExecute taint are evicted, those tolerating it for a while
// after that while, those tolerating it forever stay; Ready again untaints.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { NodeLifecycleController } from '../../src/controllers/nodelifecycle/controller.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = 'nl';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('node lifecycle', () => {
  let t: TestServer;
  let c: NodeLifecycleController;
  let clock = Date.now();
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    c = new NodeLifecycleController(t.server.controllerContext, { now: () => clock, monitorPeriodMs: 3_600_000 });
    await c.start();
  });
  after(async () => {
    c?.stop();
    await t?.stop();
  });

  async function node(): Promise<Obj> {
    return (await t.req('GET', '/api/v1/nodes/n1')).body;
  }

  it('a node loses the not-ready NoSchedule taint it registered with unless its conditions call for it', async () => {
    const made = await t.req('POST', '/api/v1/nodes', { metadata: { name: 'n1' } });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(made.body.spec.taints.map((x: Obj) => [x.key, x.effect]), [['node.svc.io/not-ready', 'NoSchedule']]);
    // as kube: the NoSchedule taints follow the conditions the node has (none yet), so the taint goes at once
    await eventually(async () => (await node()).spec.taints === undefined);
    const status = { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: stamp(clock), lastTransitionTime: stamp(clock) }] };
    const posted = await t.req('PATCH', '/api/v1/nodes/n1/status', { status }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(posted.status, 200, posted.text);
    assert.equal((await t.req('POST', '/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases', { metadata: { name: 'n1' }, spec: { holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: new Date(clock).toISOString().replace('Z', '000Z') } })).status, 201);
    await eventually(async () => (await node()).spec.taints === undefined);
    await c.monitor();
    assert.equal((await node()).spec.taints, undefined);
  });

  it('not heard from past the grace period: Unknown, pods not ready, tainted; the taint manager evicts by tolerations', async () => {
    const mk = async (name: string, tolerations?: Obj[]) => {
      const p = await t.req('POST', PODS, { metadata: { name }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }], ...(tolerations ? { tolerations } : {}) } });
      assert.equal(p.status, 201, p.text);
      const r = await t.req('PUT', `${PODS}/${name}/status`, { ...p.body, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
      assert.equal(r.status, 200, r.text);
    };
    // (DefaultTolerationSeconds gives a pod without its own 300 s of both taints: 'plain' says 0)
    await mk('plain', [{ key: 'node.svc.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }]);
    await mk('brief', [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }]);
    await mk('forever', [{ key: 'node.svc.io/unreachable', operator: 'Exists', effect: 'NoExecute' }]);
    // a second node, heard from all along: the zone is not fully disrupted (then kube taints nothing)
    const n2 = await t.req('POST', '/api/v1/nodes', { metadata: { name: 'n2' } });
    assert.equal(n2.status, 201);
    const ready2 = { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: stamp(clock), lastTransitionTime: stamp(clock) }] };
    assert.equal((await t.req('PATCH', '/api/v1/nodes/n2/status', { status: ready2 }, { headers: { 'Content-Type': 'application/merge-patch+json' } })).status, 200);
    const lease = await t.req('POST', '/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases', { metadata: { name: 'n2' }, spec: { holderIdentity: 'n2', leaseDurationSeconds: 40, renewTime: new Date(clock).toISOString().replace('Z', '000Z') } });
    assert.equal(lease.status, 201);
    await new Promise((r) => setTimeout(r, 200));
    await c.monitor(); // seen Ready
    clock += 41_000;
    const renewed = await t.req('PATCH', '/apis/coordination.k8s.io/v1/namespaces/svc-node-lease/leases/n2', { spec: { renewTime: new Date(clock).toISOString().replace('Z', '000Z') } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(renewed.status, 200, renewed.text);
    await new Promise((r) => setTimeout(r, 200));
    await c.monitor();
    assert.equal((await t.req('GET', '/api/v1/nodes/n2')).body.status.conditions[0].status, 'True');
    const n = await node();
    const ready = n.status.conditions.find((x: Obj) => x.type === 'Ready');
    assert.deepEqual([ready.status, ready.reason, ready.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    assert.deepEqual(n.status.conditions.map((x: Obj) => [x.type, x.status]).sort(), [['DiskPressure', 'Unknown'], ['MemoryPressure', 'Unknown'], ['PIDPressure', 'Unknown'], ['Ready', 'Unknown']]);
    await eventually(async () => {
      const taints = ((await node()).spec.taints ?? []).map((x: Obj) => `${x.key}:${x.effect}`).sort();
      return JSON.stringify(taints) === JSON.stringify(['node.svc.io/unreachable:NoExecute', 'node.svc.io/unreachable:NoSchedule']);
    });
    // the pod tolerating 0 s goes at once; the brief one after its second; the other stays
    await eventually(async () => (await t.req('GET', `${PODS}/plain`)).status === 404 || Boolean((await t.req('GET', `${PODS}/plain`)).body.metadata?.deletionTimestamp));
    await eventually(async () => { const r = await t.req('GET', `${PODS}/brief`); return r.status === 404 || Boolean(r.body.metadata?.deletionTimestamp); });
    const plain = (await t.req('GET', `${PODS}/plain`)).body; // bound to a node: graceful, still there
    assert.ok(plain.metadata.deletionTimestamp);
    assert.deepEqual(plain.status.conditions.filter((x: Obj) => x.type === 'DisruptionTarget').map((x: Obj) => [x.status, x.reason, x.message]), [['True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']]);
    const forever = (await t.req('GET', `${PODS}/forever`)).body;
    assert.equal(forever.metadata.deletionTimestamp, undefined);
    assert.equal(forever.status.conditions.find((x: Obj) => x.type === 'Ready').status, 'False');
    const events = (await t.req('GET', `/api/v1/namespaces/${NS}/events`)).body.items as Obj[];
    assert.ok(events.some((e) => e.reason === 'TaintManagerEviction' && e.message === `Marking for deletion Pod ${NS}/plain` && e.source.component === 'taint-controller'), JSON.stringify(events.map((e) => e.message)));
    const nodeEvents = (await t.req('GET', '/api/v1/namespaces/default/events')).body.items as Obj[];
    assert.ok(nodeEvents.some((e) => e.reason === 'NodeNotReady' && e.message === 'Node n1 status is now: NodeNotReady'));
  });

  it('Ready again: the NoExecute and NoSchedule taints go', async () => {
    const cur = await node();
    const conditions = cur.status.conditions.map((x: Obj) => (x.type === 'Ready' ? { ...x, status: 'True', reason: 'KubeletReady', lastHeartbeatTime: stamp(clock) } : { ...x, status: 'False' }));
    const posted = await t.req('PATCH', '/api/v1/nodes/n1/status', { status: { conditions } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(posted.status, 200, posted.text);
    await eventually(async () => { await c.monitor(); return (await node()).spec.taints === undefined; });
  });
});
