// The eviction subresource and the disruption controller (issue 24): a
// PodDisruptionBudget's status follows its pods, and pods/eviction deletes a
// pod only when the budget allows — kube's answers for every branch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { startDisruptionController } from '../../src/controllers/disruption/controller.js';
import type { Controller } from '../../src/controllers/context.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = 'ev';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const PDBS = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;

async function pod(t: TestServer, name: string, labels: Record<string, string>, state: 'ready' | 'unready' | 'pending', owner?: Obj): Promise<void> {
  const made = await t.req('POST', PODS, { metadata: { name, labels, ...(owner ? { ownerReferences: [owner] } : {}) }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  assert.equal(made.status, 201, made.text);
  if (state === 'pending') return;
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: state === 'ready' ? 'True' : 'False' }] };
  const r = await t.req('PUT', `${PODS}/${name}/status`, { ...made.body, status });
  assert.equal(r.status, 200, r.text);
}

const evict = (t: TestServer, name: string, body: Obj = {}) =>
  t.req('POST', `${PODS}/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS }, ...body });

async function budget(t: TestServer, name: string): Promise<Obj> {
  return (await t.req('GET', `${PDBS}/${name}`)).body;
}

describe('eviction and disruption budgets', () => {
  let t: TestServer;
  let controller: Controller;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    controller = startDisruptionController(t.server.controllerContext);
    await controller.start();
  });
  after(async () => {
    await controller?.stop();
    await t?.stop();
  });

  it('the controller writes the budget\'s status from its pods', async () => {
    for (const n of ['a1', 'a2', 'a3']) await pod(t, n, { app: 'a' }, 'ready');
    assert.equal((await t.req('POST', PDBS, { metadata: { name: 'pa' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'a' } } } })).status, 201);
    await eventually(async () => (await budget(t, 'pa')).status?.disruptionsAllowed === 1);
    const s = (await budget(t, 'pa')).status;
    assert.deepEqual([s.currentHealthy, s.desiredHealthy, s.expectedPods, s.observedGeneration], [3, 2, 3, 1]);
    assert.deepEqual(s.conditions.map((c: Obj) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'True', 'SufficientPods']]);
  });

  it('an eviction the budget allows deletes the pod and spends the budget; the next one is 429 with kube\'s cause', async () => {
    const ok = await evict(t, 'a1');
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual([ok.body.kind, ok.body.status], ['Status', 'Success']);
    const gone = await t.req('GET', `${PODS}/a1`);
    assert.ok(gone.status === 404 || gone.body.metadata.deletionTimestamp, gone.text);
    const spent = await budget(t, 'pa');
    assert.ok(spent.status.disruptionsAllowed === 0);
    const refused = await evict(t, 'a2');
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.equal(refused.body.reason, 'TooManyRequests');
    assert.deepEqual(refused.body.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget pa needs 2 healthy pods and has 2 currently' }]);
    assert.equal((await t.req('GET', `${PODS}/a2`)).status, 200);
  });

  it('pending and unready pods go without spending the budget; a mismatched name is 400', async () => {
    await pod(t, 'a4', { app: 'a' }, 'pending');
    assert.equal((await evict(t, 'a4')).status, 201);
    await pod(t, 'a5', { app: 'a' }, 'unready');
    const unready = await evict(t, 'a5');
    assert.equal(unready.status, 201, unready.text);
    const bad = await t.req('POST', `${PODS}/a2/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.message, 'name in URL does not match name in Eviction object');
    const dry = await t.req('POST', `${PODS}/a2/eviction?dryRun=All`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a2' }, deleteOptions: { dryRun: ['All'] } });
    assert.equal(dry.status, 429); // the budget is still spent: a dry run says so too
  });

  it('two budgets for one pod: a Failure Status of code 500, answered 201 as kube does', async () => {
    await pod(t, 'b1', { app: 'b', tier: 'x' }, 'ready');
    await t.req('POST', PDBS, { metadata: { name: 'pb1' }, spec: { minAvailable: 0, selector: { matchLabels: { app: 'b' } } } });
    await t.req('POST', PDBS, { metadata: { name: 'pb2' }, spec: { minAvailable: 0, selector: { matchLabels: { tier: 'x' } } } });
    const r = await evict(t, 'b1');
    assert.equal(r.status, 201);
    assert.deepEqual([r.body.status, r.body.code, r.body.message], ['Failure', 500, 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.']);
    assert.equal((await t.req('GET', `${PODS}/b1`)).status, 200);
  });

  it('a percentage counts against the scale of the pods\' controller; pods without one are NoControllers', async () => {
    const rs = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/replicasets`, { metadata: { name: 'web' }, spec: { replicas: 4, selector: { matchLabels: { app: 'c' } }, template: { metadata: { labels: { app: 'c' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    assert.equal(rs.status, 201, rs.text);
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.body.metadata.uid, controller: true };
    for (const n of ['c1', 'c2', 'c3']) await pod(t, n, { app: 'c' }, 'ready', owner);
    await t.req('POST', PDBS, { metadata: { name: 'pc' }, spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'c' } } } });
    await eventually(async () => (await budget(t, 'pc')).status?.expectedPods === 4);
    const s = (await budget(t, 'pc')).status;
    assert.deepEqual([s.currentHealthy, s.desiredHealthy, s.disruptionsAllowed], [3, 2, 1]);
    await pod(t, 'd1', { app: 'd' }, 'ready');
    await t.req('POST', PDBS, { metadata: { name: 'pd' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'd' } } } });
    await eventually(async () => {
      const ev = (await t.req('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name=pd`)).body.items ?? [];
      return ev.some((e: Obj) => e.reason === 'NoControllers' && e.message === 'found no controllers for pod "d1"' && e.source.component === 'controllermanager');
    });
    assert.equal((await budget(t, 'pd')).status.disruptionsAllowed, 0);
  });
});
