// The REST tester: every stored built-in resource goes through create, get,
// list, update, conflict, not-found, scope and delete over HTTPS, in both
// group spellings for svc.io groups.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enabledByDefaultResources, toK8sGroup } from '../../src/api/catalog/index.js';
import { startTestServer, type TestServer } from './harness.js';
import { MINIMAL_BODIES } from './fixtures.js';

describe('REST tester: every stored resource', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'rest' } });
  });
  after(async () => t?.stop());

  const resources = enabledByDefaultResources().filter((r) => !r.virtual && r.verbs.includes('create') && r.resource !== 'namespaces');
  for (const r of resources) {
    it(`${r.group || 'core'}/${r.version} ${r.resource}`, async () => {
      const group = r.group.includes('svc.io') && r.resource.length % 2 === 0 ? toK8sGroup(r.group) : r.group;
      const gv = group === '' ? `/api/${r.version}` : `/apis/${group}/${r.version}`;
      const coll = r.namespaced ? `${gv}/namespaces/rest/${r.resource}` : `${gv}/${r.resource}`;
      // A CRD's name is `<plural>.<group>` of its own spec.
      const crd = r.resource === 'customresourcedefinitions';
      const name = crd ? 'rts.rest.example.com' : `rt-${r.resource.slice(0, 20)}`;
      const extra = crd
        ? { spec: { group: 'rest.example.com', scope: 'Namespaced', names: { plural: 'rts', kind: 'Rt' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } }
        : MINIMAL_BODIES[`${r.group}/${r.resource}`];
      const c = await t.req('POST', coll, { metadata: { name }, ...extra });
      assert.equal(c.status, 201, JSON.stringify(c.body));
      assert.equal(c.body.kind, r.kind);
      assert.equal(c.body.apiVersion, group === '' ? r.version : `${group}/${r.version}`);
      assert.equal(c.body.metadata.namespace, r.namespaced ? 'rest' : undefined);
      // the quota controller writes a new quota's status at once: read the quota after it, or the PUT below races it
      for (let i = 0; r.resource === 'resourcequotas' && i < 100 && !(await t.req('GET', `${coll}/${name}`)).body.status?.used; i++) await new Promise((res) => setTimeout(res, 50));
      // likewise the CRD controllers write a new CRD's conditions (NamesAccepted, then Established): read it after them
      const established = async () => ((await t.req('GET', `${coll}/${name}`)).body.status?.conditions ?? []).some((x: { type: string; status: string }) => x.type === 'Established' && x.status === 'True');
      for (let i = 0; crd && i < 100 && !(await established()); i++) await new Promise((res) => setTimeout(res, 50));
      // and the priority-and-fairness controller writes a new FlowSchema's Dangling condition
      const conditioned = async () => ((await t.req('GET', `${coll}/${name}`)).body.status?.conditions ?? []).some((x: { type: string }) => x.type === 'Dangling');
      for (let i = 0; r.resource === 'flowschemas' && i < 100 && !(await conditioned()); i++) await new Promise((res) => setTimeout(res, 50));
      const g = await t.req('GET', `${coll}/${name}`);
      assert.equal(g.status, 200);
      const l = await t.req('GET', coll);
      assert.ok(l.body.items.some((i: { metadata: { name: string } }) => i.metadata.name === name));
      assert.equal(l.body.kind, r.listKind);
      const u = await t.req('PUT', `${coll}/${name}`, { ...g.body, metadata: { ...g.body.metadata, labels: { touched: 'yes' } } });
      assert.equal(u.status, 200, JSON.stringify(u.body));
      const stale = await t.req('PUT', `${coll}/${name}`, { ...g.body, metadata: { ...g.body.metadata, labels: { touched: 'again' } } });
      assert.equal(stale.status, 409);
      if (r.namespaced) assert.equal((await t.req('GET', `${gv}/namespaces/default/${r.resource}/${name}`)).status, 404, 'namespaced objects are found only in their namespace');
      const d = await t.req('DELETE', `${coll}/${name}`);
      assert.equal(d.status, 200);
      // A finalizer (pvc-protection, pv-protection) keeps the object until its controller removes it.
      const pending = (d.body.metadata?.finalizers ?? []).length > 0;
      for (let i = 0; pending && i < 100 && (await t.req('GET', `${coll}/${name}`)).status === 200; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal((await t.req('GET', `${coll}/${name}`)).status, 404);
      assert.equal((await t.req('DELETE', `${coll}/${name}`)).status, 404);
    });
  }
});
