// The pod garbage collector (issue 24): terminated pods past the threshold
// (oldest first) and pods of a node that is gone — marked Failed with kube's
// DisruptionTarget condition — are deleted; pods of a node that exists stay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { openWatch } from './watchclient.js';
import { PodGC } from '../../src/controllers/podgc/controller.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = 'gc';
const PODS = `/api/v1/namespaces/${NS}/pods`;

async function pod(t: TestServer, name: string, nodeName?: string, phase?: string): Promise<Obj> {
  const made = await t.req('POST', PODS, { metadata: { name }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }] } });
  assert.equal(made.status, 201, made.text);
  if (!phase) return made.body;
  const r = await t.req('PUT', `${PODS}/${name}/status`, { ...made.body, status: { phase } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

describe('pod garbage collector', () => {
  let t: TestServer;
  let gc: PodGC;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    assert.equal((await t.req('POST', '/api/v1/nodes', { metadata: { name: 'real' } })).status, 201);
    gc = new PodGC(t.server.controllerContext, { terminatedThreshold: 2, periodMs: 3_600_000, quarantineMs: 0 });
    await gc.start();
  });
  after(async () => {
    gc?.stop();
    await t?.stop();
  });

  it('terminated pods past the threshold go, the oldest first; running ones stay', async () => {
    for (const n of ['t1', 't2', 't3', 't4']) {
      await pod(t, n, 'real', n === 't2' ? 'Failed' : 'Succeeded');
      await new Promise((r) => setTimeout(r, 1100)); // distinct creation seconds
    }
    await pod(t, 'running', 'real', 'Running');
    await new Promise((r) => setTimeout(r, 200));
    await gc.gc();
    const names = (await t.req('GET', PODS)).body.items.map((p: Obj) => p.metadata.name).sort();
    assert.deepEqual(names, ['running', 't3', 't4']);
  });

  it('pods bound to a node that does not exist are marked Failed (DisruptionTarget) and deleted', async () => {
    const made = await pod(t, 'orphan', 'ghost', 'Running');
    const w = await openWatch(t, `${PODS}?watch=1&fieldSelector=metadata.name=orphan&resourceVersion=${made.metadata.resourceVersion}`);
    try {
      await new Promise((r) => setTimeout(r, 200));
      await gc.gc(); // first seen missing
      await gc.gc(); // confirmed by a live read, quarantine 0
      assert.equal((await t.req('GET', `${PODS}/orphan`)).status, 404);
      await eventually(async () => w.events.some((e) => e.type === 'DELETED'));
      const marked = w.events.find((e) => e.type === 'MODIFIED')!.object as Obj;
      assert.equal(marked.status.phase, 'Failed');
      assert.deepEqual(marked.status.conditions.map((c: Obj) => [c.type, c.status, c.reason, c.message]), [['DisruptionTarget', 'True', 'DeletionByPodGC', 'PodGC: node no longer exists']]);
    } finally {
      w.close();
    }
    assert.equal((await t.req('GET', `${PODS}/running`)).status, 200);
  });
});
