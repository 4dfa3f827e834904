// Custom resources converted by a webhook (issue 23, "Versions"): a CRD with
// two versions whose shapes differ — v1 (storage) keeps `spec.size`, v2 keeps
// `spec.length` — and `Webhook` conversion to a real HTTPS callback server.
// Every verb in v2 goes through the webhook: reads convert what is stored,
// writes are computed in v2 and stored in v1, lists convert in one review,
// watches convert their events; a failing webhook answers kube's 500 while
// the storage version keeps working. On SQLite and etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type TestServer } from './harness.js';
import { openWatch } from './watchclient.js';
import { BACKENDS } from './backends.js';
import { startCallbackServer, type CallbackAnswer, type CallbackRequest, type CallbackServer } from '../../src/testing/webhookserver.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The webhook's conversion: v1 spec.size ⇄ v2 spec.length; status as is. */
function convertOne(o: Obj, to: string): Obj {
  const out = structuredClone(o);
  out.apiVersion = to;
  const spec = out.spec ?? {};
  if (to.endsWith('/v2') && 'size' in spec) {
    spec.length = spec.size;
    delete spec.size;
  }
  if (to.endsWith('/v1') && 'length' in spec) {
    spec.size = spec.length;
    delete spec.length;
  }
  return out;
}

function crd(g: string, port: number, caBundle: string, reviewVersions = ['v1']) {
  const version = (name: string, storage: boolean, field: string) => ({
    name, served: true, storage,
    schema: { openAPIV3Schema: { type: 'object', properties: {
      spec: { type: 'object', properties: { [field]: { type: 'integer' }, color: { type: 'string' } } },
      status: { type: 'object', properties: { ready: { type: 'integer' } } },
    } } },
    subresources: { status: {}, scale: { specReplicasPath: `.spec.${field}`, statusReplicasPath: '.status.ready' } },
    additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }],
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${g}` },
    spec: {
      group: g, scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [version('v1', true, 'size'), version('v2', false, 'length')],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: reviewVersions, clientConfig: { url: `https://127.0.0.1:${port}/convert`, caBundle } } },
    },
  };
}

for (const backend of BACKENDS) {
  describe(`custom resources converted by a webhook (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    let hook: CallbackServer;
    let failing = false;
    const reviews: Obj[] = [];
    const g = 'conv.example.com';
    const v1 = `/apis/${g}/v1/namespaces/cv/gadgets`;
    const v2 = `/apis/${g}/v2/namespaces/cv/gadgets`;

    before(async () => {
      hook = await startCallbackServer({
        handle: (r: CallbackRequest): CallbackAnswer => {
          const review = JSON.parse(r.body) as Obj;
          reviews.push(review);
          if (failing) return { status: 500, body: 'broken' };
          const req = review.request;
          const converted = req.objects.map((o: Obj) => convertOne(o, req.desiredAPIVersion));
          return { body: JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: req.uid, result: { status: 'Success' }, convertedObjects: converted } }) };
        },
      });
      t = await backend.start({ controllers: true });
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'cv' } })).status, 201);
      const made = await t.req('POST', CRDS, crd(g, hook.port, hook.caBundle));
      assert.equal(made.status, 201, made.text);
      await eventually(async () => (await t.req('GET', v2)).status === 200);
    });
    after(async () => {
      await t?.stop();
      await hook?.close();
    });

    it('a create in v2 is stored in v1 and answered in v2', async () => {
      reviews.length = 0;
      const c = await t.req('POST', v2, { apiVersion: `${g}/v2`, kind: 'Gadget', metadata: { name: 'a', labels: { app: 'x' } }, spec: { length: 3, color: 'red' } });
      assert.equal(c.status, 201, c.text);
      assert.equal(c.body.apiVersion, `${g}/v2`);
      assert.deepEqual(c.body.spec, { length: 3, color: 'red' });
      assert.equal(c.body.metadata.managedFields[0].apiVersion, `${g}/v2`);
      // to storage, then back for the answer: two reviews, kube's ConversionReview v1
      assert.deepEqual(reviews.map((r) => r.request.desiredAPIVersion), [`${g}/v1`, `${g}/v2`]);
      assert.equal(reviews[0]!.apiVersion, 'apiextensions.k8s.io/v1');
      const stored = await t.req('GET', `${v1}/a`);
      assert.equal(stored.status, 200);
      assert.deepEqual(stored.body.spec, { size: 3, color: 'red' });
      assert.equal(stored.body.metadata.resourceVersion, c.body.metadata.resourceVersion);
    });

    it('get and list in v2 convert what is stored; a list converts in one review', async () => {
      assert.equal((await t.req('POST', v1, { apiVersion: `${g}/v1`, kind: 'Gadget', metadata: { name: 'b' }, spec: { size: 7 } })).status, 201);
      const one = await t.req('GET', `${v2}/b`);
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(one.body.spec, { length: 7 });
      reviews.length = 0;
      const list = await t.req('GET', v2);
      assert.equal(list.status, 200);
      assert.equal(list.body.apiVersion, `${g}/v2`);
      assert.deepEqual(list.body.items.map((i: Obj) => [i.metadata.name, i.apiVersion, i.spec.length]), [['a', `${g}/v2`, 3], ['b', `${g}/v2`, 7]]);
      assert.equal(reviews.length, 1);
      assert.equal(reviews[0]!.request.objects.length, 2);
      const table = await t.req('GET', v2, undefined, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
      assert.equal(table.status, 200);
      assert.deepEqual(table.body.rows.map((r: Obj) => r.cells.slice(0, 2)), [['a', 'red'], ['b', null]]);
    });

    it('update, merge patch, apply and status in v2 are computed in v2 and stored in v1', async () => {
      const cur = (await t.req('GET', `${v2}/a`)).body;
      const put = await t.req('PUT', `${v2}/a`, { ...cur, spec: { ...cur.spec, length: 4 } });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.spec.length, 4);
      assert.equal((await t.req('GET', `${v1}/a`)).body.spec.size, 4);
      const stale = await t.req('PUT', `${v2}/a`, { ...cur, spec: { length: 9 } });
      assert.equal(stale.status, 409);
      const patched = await t.req('PATCH', `${v2}/a`, { spec: { length: 5 } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.body.spec, { length: 5, color: 'red' });
      const applied = await t.req('PATCH', `${v2}/c?fieldManager=tester`, { apiVersion: `${g}/v2`, kind: 'Gadget', metadata: { name: 'c' }, spec: { length: 11 } }, { headers: { 'Content-Type': 'application/apply-patch+yaml' } });
      assert.equal(applied.status, 201, applied.text);
      assert.equal(applied.body.spec.length, 11);
      assert.deepEqual(applied.body.metadata.managedFields.map((m: Obj) => [m.manager, m.operation, m.apiVersion]), [['tester', 'Apply', `${g}/v2`]]);
      assert.equal((await t.req('GET', `${v1}/c`)).body.spec.size, 11);
      const status = await t.req('PUT', `${v2}/c/status`, { ...applied.body, spec: { length: 99 }, status: { ready: 1 } });
      assert.equal(status.status, 200, status.text);
      assert.deepEqual([status.body.spec.length, status.body.status.ready], [11, 1]);
    });

    it('scale in v2 reads and writes the v2 paths; storage keeps v1\'s', async () => {
      const got = await t.req('GET', `${v2}/a/scale`);
      assert.equal(got.status, 200, got.text);
      assert.equal(got.body.spec.replicas, 5);
      const put = await t.req('PUT', `${v2}/a/scale`, { ...got.body, spec: { replicas: 6 } });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.spec.replicas, 6);
      assert.equal((await t.req('GET', `${v1}/a`)).body.spec.size, 6);
      assert.equal((await t.req('GET', `${v2}/a`)).body.spec.length, 6);
    });

    it('a watch in v2 gets its initial and live events converted, in order', async () => {
      const w = await openWatch(t, `${v2}?watch=1`);
      try {
        await eventually(async () => w.events.length >= 3);
        assert.deepEqual(w.events.slice(0, 3).map((e: Obj) => [e.type, e.object.apiVersion, e.object.metadata.name]), [['ADDED', `${g}/v2`, 'a'], ['ADDED', `${g}/v2`, 'b'], ['ADDED', `${g}/v2`, 'c']]);
        await t.req('PATCH', `${v1}/b`, { spec: { size: 8 } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
        await t.req('POST', v1, { apiVersion: `${g}/v1`, kind: 'Gadget', metadata: { name: 'd' }, spec: { size: 1 } });
        await t.req('DELETE', `${v1}/d`);
        await eventually(async () => w.events.length >= 6);
        assert.deepEqual(w.events.slice(3, 6).map((e: Obj) => [e.type, e.object.metadata.name, e.object.spec.length]), [['MODIFIED', 'b', 8], ['ADDED', 'd', 1], ['DELETED', 'd', 1]]);
      } finally {
        w.close();
      }
    });

    it('delete in v2: a finalized object is answered in v2 with its deletionTimestamp; then a Status when it goes', async () => {
      const fin = await t.req('PATCH', `${v2}/c`, { metadata: { finalizers: ['example.com/hold'] } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
      assert.equal(fin.status, 200, fin.text);
      const d = await t.req('DELETE', `${v2}/c`);
      assert.equal(d.status, 200, d.text);
      assert.equal(d.body.apiVersion, `${g}/v2`);
      assert.equal(d.body.spec.length, 11);
      assert.ok(d.body.metadata.deletionTimestamp);
      const released = await t.req('PATCH', `${v2}/c`, { metadata: { finalizers: null } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
      assert.equal(released.status, 200, released.text);
      assert.equal((await t.req('GET', `${v1}/c`)).status, 404);
      const gone = await t.req('DELETE', `${v2}/b`);
      assert.deepEqual([gone.status, gone.body.kind, gone.body.status], [200, 'Status', 'Success']);
    });

    it('a failing webhook answers kube\'s 500 in v2; v1 keeps working and nothing is half-written', async () => {
      failing = true;
      try {
        const get = await t.req('GET', `${v2}/a`);
        assert.equal(get.status, 500);
        assert.equal(get.body.message, `conversion webhook for ${g}/v1, Kind=Gadget failed: an error on the server ("broken") has prevented the request from succeeding`);
        const create = await t.req('POST', v2, { apiVersion: `${g}/v2`, kind: 'Gadget', metadata: { name: 'e' }, spec: { length: 1 } });
        assert.equal(create.status, 500);
        assert.equal((await t.req('GET', `${v1}/e`)).status, 404);
        assert.equal((await t.req('GET', `${v1}/a`)).status, 200);
      } finally {
        failing = false;
      }
    });
  });
}
