// Field ownership after subresource writes, through the real server, as
// Kubernetes v1.27 records it: /scale (PATCH, PUT, apply, dry run) on every
// kind that has it, and /status. Entries are compared without their time
// values, but whether an entry has a time is part of what is compared.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type HttpResult, type TestServer } from './harness.js';

const MERGE = { headers: { 'content-type': 'application/merge-patch+json' } };
const APPLY = { headers: { 'content-type': 'application/apply-patch+yaml' } };
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource?: string;
  time?: string;
  fieldsV1: Record<string, unknown>;
}

/**
 * An entry as `manager/operation/apiVersion[/subresource]` and whether it has
 * a time, with the paths it owns under `only` (top-level field names, e.g.
 * `f:spec`) as JSON — the rest of a creator's set is not this test's business.
 */
function entries(obj: { metadata: { managedFields?: Entry[] } }, only = 'f:spec'): string[] {
  return (obj.metadata.managedFields ?? []).map((e) => {
    if (e.time !== undefined) assert.match(e.time, TIME);
    const owned = e.fieldsV1[only] as Record<string, unknown> | undefined;
    const replicas = owned && 'f:replicas' in owned ? 'replicas' : '-';
    return `${e.manager}/${e.operation}/${e.apiVersion}${e.subresource ? `/${e.subresource}` : ''} ${replicas}${e.time ? ' @time' : ''}`;
  });
}

const template = { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const KINDS = [
  { kind: 'Deployment', apiVersion: 'apps/v1', path: '/apis/apps/v1/namespaces/default/deployments', spec: { selector: { matchLabels: { app: 'w' } }, template } },
  { kind: 'ReplicaSet', apiVersion: 'apps/v1', path: '/apis/apps/v1/namespaces/default/replicasets', spec: { selector: { matchLabels: { app: 'w' } }, template } },
  { kind: 'StatefulSet', apiVersion: 'apps/v1', path: '/apis/apps/v1/namespaces/default/statefulsets', spec: { serviceName: 'web', selector: { matchLabels: { app: 'w' } }, template } },
  { kind: 'ReplicationController', apiVersion: 'v1', path: '/api/v1/namespaces/default/replicationcontrollers', spec: { selector: { app: 'w' }, template } },
];

describe('field ownership after subresource writes', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(async () => t?.stop());

  const ok = (r: HttpResult, code = 200): HttpResult => {
    assert.equal(r.status, code, r.text);
    return r;
  };

  for (const k of KINDS) {
    const v = k.apiVersion;
    it(`${k.kind}: create (A) → scale (B) → scale (B) → scale (C) → apply owning replicas (D) → scale (B)`, async () => {
      const name = `seq-${k.kind.toLowerCase()}`;
      const url = `${k.path}/${name}`;
      const get = async () => ok(await t.req('GET', url)).body;
      ok(await t.req('POST', `${k.path}?fieldManager=A`, { apiVersion: v, kind: k.kind, metadata: { name }, spec: { ...k.spec, replicas: 2 } }), 201);
      assert.deepEqual(entries(await get()), [`A/Update/${v} replicas @time`]);

      // Kubernetes: the Scale's field manager gives B spec.replicas; toParent makes that a v1 entry
      // (subresource scale) whose time is looked up under B's Scale key in the parent: none.
      const s1 = ok(await t.req('PATCH', `${url}/scale?fieldManager=B`, { spec: { replicas: 3 } }, MERGE));
      assert.equal(s1.body.metadata.managedFields, undefined, 'a Scale is answered without managedFields (scaleFromDeployment copies no more metadata)');
      assert.deepEqual(entries(await get()), [`B/Update/${v}/scale replicas`, `A/Update/${v} - @time`]);

      ok(await t.req('PATCH', `${url}/scale?fieldManager=B`, { spec: { replicas: 4 } }, MERGE));
      assert.deepEqual(entries(await get()), [`B/Update/${v}/scale replicas`, `A/Update/${v} - @time`], 'B again: one entry, still no time');

      ok(await t.req('PATCH', `${url}/scale?fieldManager=C`, { spec: { replicas: 5 } }, MERGE));
      assert.deepEqual(entries(await get()), [`C/Update/${v}/scale replicas`, `A/Update/${v} - @time`], 'C takes replicas; B owned nothing else');

      const applied = { apiVersion: v, kind: k.kind, metadata: { name }, spec: { replicas: 6 } };
      const conflict = await t.req('PATCH', `${url}?fieldManager=D`, applied, APPLY);
      assert.equal(conflict.status, 409);
      assert.equal(conflict.body.message, `Apply failed with 1 conflict: conflict with "C" with subresource "scale" using ${v}: .spec.replicas`);
      ok(await t.req('PATCH', `${url}?fieldManager=D&force=true`, applied, APPLY));
      assert.deepEqual(entries(await get()), [`D/Apply/${v} replicas @time`, `A/Update/${v} - @time`]);

      // A scale of the value replicas have: D (an Apply key matches across versions) keeps its entry whole; B records nothing.
      ok(await t.req('PATCH', `${url}/scale?fieldManager=B`, { spec: { replicas: 6 } }, MERGE));
      assert.deepEqual(entries(await get()), [`D/Apply/${v} replicas @time`, `A/Update/${v} - @time`]);

      // An Update never conflicts: B takes replicas from the applier, which keeps nothing else and is gone.
      ok(await t.req('PATCH', `${url}/scale?fieldManager=B`, { spec: { replicas: 7 } }, MERGE));
      const end = await get();
      assert.equal(end.spec.replicas, 7);
      assert.deepEqual(entries(end), [`B/Update/${v}/scale replicas`, `A/Update/${v} - @time`]);
    });
  }

  it('a scale that changes nothing leaves the creator\'s replicas as a second entry of its identity, without time', async () => {
    const k = KINDS[0]!;
    const url = `${k.path}/noop`;
    ok(await t.req('POST', `${k.path}?fieldManager=A`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'noop' }, spec: { ...k.spec, replicas: 2 } }), 201);
    ok(await t.req('PATCH', `${url}/scale?fieldManager=B`, { spec: { replicas: 2 } }, MERGE));
    assert.deepEqual(entries(ok(await t.req('GET', url)).body), ['A/Update/apps/v1 replicas', 'A/Update/apps/v1 - @time']);
    // The next write decodes both under one key, the later (timed) winning, as Kubernetes does: A no longer owns replicas.
    ok(await t.req('PATCH', `${url}?fieldManager=E`, { metadata: { labels: { x: '1' } } }, MERGE));
    assert.deepEqual(entries(ok(await t.req('GET', url)).body), ['A/Update/apps/v1 - @time', 'E/Update/apps/v1 - @time'].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('PUT /scale (the HPA\'s write): the same ownership as a patch; scale to 0 leaves replicas unowned', async () => {
    const k = KINDS[0]!;
    const url = `${k.path}/put`;
    ok(await t.req('POST', `${k.path}?fieldManager=A`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'put' }, spec: { ...k.spec, replicas: 2 } }), 201);
    const current = ok(await t.req('GET', `${url}/scale`)).body;
    assert.equal(current.metadata.managedFields, undefined);
    const put = ok(await t.req('PUT', `${url}/scale?fieldManager=hpa`, { ...current, spec: { replicas: 4 } }));
    assert.equal(put.body.spec.replicas, 4);
    assert.deepEqual(entries(ok(await t.req('GET', url)).body), ['hpa/Update/apps/v1/scale replicas', 'A/Update/apps/v1 - @time']);
    const zero = ok(await t.req('PUT', `${url}/scale?fieldManager=hpa`, { ...current, metadata: { name: 'put' }, spec: { replicas: 0 } }));
    assert.deepEqual(zero.body.spec, {}, 'autoscaling/v1 ScaleSpec.replicas is omitempty');
    assert.deepEqual(entries(ok(await t.req('GET', url)).body), ['A/Update/apps/v1 - @time'], 'the Scale leaves 0 out, so the change is a removal nobody owns');
  });

  it('apply on /scale: conflicts with the applier owning replicas; forced, the scale applier owns them', async () => {
    const k = KINDS[0]!;
    const url = `${k.path}/apply-scale`;
    ok(await t.req('PATCH', `${url}?fieldManager=apply_test`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'apply-scale' }, spec: { ...k.spec, replicas: 1 } }, APPLY), 201);
    const body = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'apply-scale' }, spec: { replicas: 17 } };
    const conflict = await t.req('PATCH', `${url}/scale?fieldManager=apply_scale`, body, APPLY);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.message, 'Apply failed with 1 conflict: conflict with "apply_test": .spec.replicas');
    const forced = ok(await t.req('PATCH', `${url}/scale?fieldManager=apply_scale&force=true`, body, APPLY));
    assert.equal(forced.body.spec.replicas, 17);
    assert.deepEqual(entries(ok(await t.req('GET', url)).body), ['apply_scale/Apply/apps/v1/scale replicas', 'apply_test/Apply/apps/v1 - @time']);
  });

  it('dry run on /scale stores nothing: neither replicas nor managedFields change', async () => {
    const k = KINDS[0]!;
    const url = `${k.path}/dry`;
    ok(await t.req('POST', `${k.path}?fieldManager=A`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dry' }, spec: { ...k.spec, replicas: 2 } }), 201);
    const before = ok(await t.req('GET', url)).body;
    const dry = ok(await t.req('PATCH', `${url}/scale?fieldManager=B&dryRun=All`, { spec: { replicas: 9 } }, MERGE));
    assert.equal(dry.body.spec.replicas, 9, 'the answer is the Scale the write would make');
    ok(await t.req('PUT', `${url}/scale?fieldManager=B&dryRun=All`, { metadata: { name: 'dry' }, spec: { replicas: 8 } }));
    const afterDry = ok(await t.req('GET', url)).body;
    assert.equal(afterDry.spec.replicas, 2);
    assert.equal(afterDry.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.deepEqual(afterDry.metadata.managedFields, before.metadata.managedFields);
  });

  it('/status: the writer owns what it changed in status (subresource status, timed, in time order); a Deployment\'s /status resets spec and labels', async () => {
    const k = KINDS[0]!;
    const url = `${k.path}/status-writes`;
    const c = ok(await t.req('POST', `${k.path}?fieldManager=a-creator`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'status-writes', labels: { app: 'w' } }, spec: { ...k.spec, replicas: 2 } }), 201).body;
    // Names sort as the times do (the creator wrote first), so the expected order holds within one second too.
    const st = ok(await t.req('PUT', `${url}/status?fieldManager=z-status`, { ...c, metadata: { ...c.metadata, labels: { app: 'changed' } }, spec: { ...c.spec, replicas: 9 }, status: { replicas: 2, readyReplicas: 1 } })).body;
    assert.equal(st.spec.replicas, 2, '/status resets spec');
    assert.deepEqual(st.metadata.labels, { app: 'w' }, 'a Deployment\'s /status resets metadata.labels (deploymentStatusStrategy)');
    const mf = st.metadata.managedFields as Entry[];
    assert.deepEqual(mf.map((e) => `${e.manager}/${e.operation}/${e.apiVersion}${e.subresource ? `/${e.subresource}` : ''}${e.time ? ' @time' : ''}`), ['a-creator/Update/apps/v1 @time', 'z-status/Update/apps/v1/status @time']);
    assert.deepEqual(mf[1]!.fieldsV1, { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } }, 'nothing of spec or labels: they are reset fields of deployments/status');
    assert.deepEqual((mf[0]!.fieldsV1['f:metadata'] as Record<string, unknown>)['f:labels'], { '.': {}, 'f:app': {} }, 'the creator keeps the labels');
    // A scale after the status write: the scaler's entry (no time) goes first.
    ok(await t.req('PATCH', `${url}/scale?fieldManager=m-scale`, { spec: { replicas: 3 } }, MERGE));
    const after = ok(await t.req('GET', url)).body;
    assert.deepEqual(after.metadata.managedFields.map((e: Entry) => `${e.manager}${e.subresource ? `/${e.subresource}` : ''}${e.time ? ' @time' : ''}`), ['m-scale/scale', 'a-creator @time', 'z-status/status @time']);
  });

  it('/status of a ReplicaSet keeps label changes (its strategy resets spec only) and the writer owns them', async () => {
    const k = KINDS[1]!;
    const c = ok(await t.req('POST', `${k.path}?fieldManager=a-creator`, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs-status', labels: { app: 'w' } }, spec: { ...k.spec, replicas: 2 } }), 201).body;
    const st = ok(await t.req('PUT', `${k.path}/rs-status/status?fieldManager=z-status`, { ...c, metadata: { ...c.metadata, labels: { app: 'w', extra: '1' } }, status: { replicas: 2 } })).body;
    assert.deepEqual(st.metadata.labels, { app: 'w', extra: '1' });
    const writer = (st.metadata.managedFields as Entry[]).find((e) => e.manager === 'z-status')!;
    assert.equal(writer.subresource, 'status');
    assert.deepEqual(writer.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:extra': {} } }, 'f:status': { 'f:replicas': {} } });
  });
  it('/status of a Pod keeps ownerReferences (podStatusStrategy resets them) and its writer does not own them', async () => {
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '00000000-0000-0000-0000-000000000001' };
    const c = ok(await t.req('POST', '/api/v1/namespaces/default/pods?fieldManager=a-creator', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod-status', ownerReferences: [owner] }, spec: { containers: [{ name: 'c', image: 'x' }] } }), 201).body;
    const st = ok(await t.req('PUT', '/api/v1/namespaces/default/pods/pod-status/status?fieldManager=z-status', { ...c, metadata: { ...c.metadata, ownerReferences: [] }, status: { ...c.status, message: 'hello' } })).body;
    assert.deepEqual(st.metadata.ownerReferences, [owner]);
    assert.equal(st.status.message, 'hello');
    const writer = (st.metadata.managedFields as Entry[]).find((e) => e.manager === 'z-status')!;
    assert.equal(writer.subresource, 'status');
    assert.deepEqual(writer.fieldsV1, { 'f:status': { 'f:message': {} } });
    const creator = (st.metadata.managedFields as Entry[]).find((e) => e.manager === 'a-creator')!;
    assert.ok((creator.fieldsV1['f:metadata'] as Record<string, unknown>)['f:ownerReferences'], 'the creator keeps its ownerReferences');
  });
});
