// Custom resources end to end (issue 23): a CustomResourceDefinition becomes
// Established and its resources are served like built-in kinds — every verb,
// discovery, pruning and field validation, defaults on write and on read,
// status and scale, names that conflict, and the delete that removes every
// custom resource first — on SQLite and on etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { openWatch } from './watchclient.js';
import { BACKENDS } from './backends.js';
import { FeatureGates } from '../../src/features/gates.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A namespaced CRD in group `g` with one served version and the given schema properties. */
export function widgetCrd(g: string, extra: { versions?: unknown[]; names?: Record<string, unknown>; spec?: Record<string, unknown> } = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${g}` },
    spec: {
      group: g,
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], ...extra.names },
      scope: 'Namespaced',
      versions: extra.versions ?? [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: {
          spec: { type: 'object', properties: { size: { type: 'integer', minimum: 0 }, color: { type: 'string', default: 'blue' }, mode: { type: 'string', enum: ['a', 'b'] } } },
          status: { type: 'object', properties: { ready: { type: 'integer' }, selector: { type: 'string' } } },
        } } },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.ready', labelSelectorPath: '.status.selector' } },
      }],
      ...extra.spec,
    },
  };
}

async function established(t: TestServer, name: string): Promise<Record<string, unknown>> {
  let crd: { status?: { conditions?: { type: string; status: string }[] } } = {};
  await eventually(async () => {
    const r = await t.req('GET', `${CRDS}/${name}`);
    crd = r.body;
    return r.status === 200 && (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  });
  return crd as Record<string, unknown>;
}

for (const backend of BACKENDS) {
  describe(`custom resources (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    before(async () => {
      t = await backend.start({ controllers: true, featureGates: FeatureGates.parse('AggregatedDiscoveryEndpoint=true') });
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'cr' } })).status, 201);
    });
    after(async () => t?.stop());

    it('a CRD becomes Established with its names accepted, and is served with every verb', async () => {
      const g = 'one.example.com';
      const c = await t.req('POST', CRDS, widgetCrd(g));
      assert.equal(c.status, 201, c.text);
      assert.deepEqual(c.body.status.storedVersions, ['v1']);
      assert.equal(c.body.spec.conversion.strategy, 'None');
      assert.equal(c.body.spec.names.listKind, 'WidgetList');
      const crd = await established(t, `widgets.${g}`) as { status: { acceptedNames: { plural: string }; conditions: { type: string; reason: string }[] } };
      assert.equal(crd.status.acceptedNames.plural, 'widgets');
      assert.deepEqual(crd.status.conditions.map((x) => [x.type, x.reason]), [['NamesAccepted', 'NoConflicts'], ['Established', 'InitialNamesAccepted']]);
      const base = `/apis/${g}/v1/namespaces/cr/widgets`;
      const made = await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'w1', labels: { a: '1' } }, spec: { size: 2 } });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.body.spec.color, 'blue', 'the schema default is applied on write');
      assert.equal(made.body.metadata.generation, 1);
      assert.equal((await t.req('GET', `${base}/w1`)).body.spec.size, 2);
      const list = await t.req('GET', base);
      assert.equal(list.body.kind, 'WidgetList');
      assert.equal(list.body.items[0].kind, 'Widget', 'items of a custom resource list keep their kind');
      assert.equal(list.body.items[0].apiVersion, `${g}/v1`);
      assert.equal((await t.req('GET', `/apis/${g}/v1/widgets`)).body.items.length, 1, 'listed across namespaces');
      const merged = await t.req('PATCH', `${base}/w1`, { spec: { size: 3 } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
      assert.equal(merged.status, 200, merged.text);
      assert.equal(merged.body.metadata.generation, 2);
      const json = await t.req('PATCH', `${base}/w1`, [{ op: 'replace', path: '/spec/size', value: 4 }], { headers: { 'Content-Type': 'application/json-patch+json' } });
      assert.equal(json.body.spec.size, 4);
      const smp = await t.req('PATCH', `${base}/w1`, { spec: { size: 5 } }, { headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
      assert.equal(smp.status, 415);
      assert.match(smp.body.message, /accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/apply-patch\+yaml$/);
      const put = await t.req('PUT', `${base}/w1`, { ...json.body, spec: { size: 6 } });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.spec.color, 'blue');
      const applied = await t.req('PATCH', `${base}/w2?fieldManager=tester`, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'w2' }, spec: { size: 1 } }, { headers: { 'Content-Type': 'application/apply-patch+yaml' } });
      assert.equal(applied.status, 201, applied.text);
      assert.equal(applied.body.metadata.managedFields[0].manager, 'tester');
      assert.equal((await t.req('DELETE', `${base}/w2`)).status, 200);
      assert.equal((await t.req('GET', `${base}/w2`)).status, 404);
      const dc = await t.req('DELETE', base);
      assert.equal(dc.status, 200, dc.text);
      assert.equal((await t.req('GET', base)).body.items.length, 0);
    });

    it('discovery lists the group, version and resource (legacy and aggregated)', async () => {
      const g = 'disc.example.com';
      await t.req('POST', CRDS, widgetCrd(g, { names: { categories: ['all'] } }));
      await established(t, `widgets.${g}`);
      const group = await t.req('GET', `/apis/${g}`);
      assert.equal(group.status, 200);
      assert.deepEqual(group.body.preferredVersion, { groupVersion: `${g}/v1`, version: 'v1' });
      const rl = await t.req('GET', `/apis/${g}/v1`);
      const w = rl.body.resources.find((r: { name: string }) => r.name === 'widgets');
      assert.deepEqual(w.verbs, ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch']);
      assert.deepEqual(w.shortNames, ['wd']);
      assert.deepEqual(w.categories, ['all']);
      assert.ok(w.storageVersionHash);
      assert.deepEqual(rl.body.resources.map((r: { name: string }) => r.name), ['widgets', 'widgets/scale', 'widgets/status']);
      const apis = await t.req('GET', '/apis');
      assert.ok(apis.body.groups.some((x: { name: string }) => x.name === g));
      const agg = await t.req('GET', '/apis', undefined, { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' } });
      assert.equal(agg.status, 200);
      assert.ok(agg.body.items.some((x: { metadata: { name: string } }) => x.metadata.name === g), 'the group is in aggregated discovery');
    });

    it('unknown fields are pruned (Warn), refused (Strict) or dropped silently (Ignore)', async () => {
      const g = 'prune.example.com';
      await t.req('POST', CRDS, widgetCrd(g));
      await established(t, `widgets.${g}`);
      const base = `/apis/${g}/v1/namespaces/cr/widgets`;
      const body = (name: string) => ({ apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name }, spec: { size: 1, zzz: true, aaa: 1 }, extra: 'x' });
      const warn = await t.req('POST', base, body('p1'));
      assert.equal(warn.status, 201);
      assert.equal(warn.body.spec.zzz, undefined);
      assert.equal(warn.body.extra, undefined);
      assert.equal(warn.headers.warning, '299 - "unknown field \\"extra\\"", 299 - "unknown field \\"spec.aaa\\"", 299 - "unknown field \\"spec.zzz\\""');
      const strict = await t.req('POST', `${base}?fieldValidation=Strict`, body('p2'));
      assert.equal(strict.status, 400);
      assert.equal(strict.body.message, 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "extra", unknown field "spec.aaa", unknown field "spec.zzz"');
      const ignore = await t.req('POST', `${base}?fieldValidation=Ignore`, body('p3'));
      assert.equal(ignore.status, 201);
      assert.equal(ignore.headers.warning, undefined);
    });

    it('schema violations are 422 with kube\'s causes', async () => {
      const g = 'invalid.example.com';
      await t.req('POST', CRDS, widgetCrd(g));
      await established(t, `widgets.${g}`);
      const base = `/apis/${g}/v1/namespaces/cr/widgets`;
      const typed = await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'i1' }, spec: { mode: 5 } });
      assert.equal(typed.status, 422);
      assert.equal(typed.body.message, 'Widget.invalid.example.com "i1" is invalid: spec.mode: Invalid value: "integer": spec.mode in body must be of type string: "integer"');
      assert.deepEqual(typed.body.details.causes.map((c: { reason: string }) => c.reason), ['FieldValueTypeInvalid']);
      const bounds = await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'i2' }, spec: { size: -1, mode: 'c' } });
      assert.equal(bounds.status, 422);
      assert.match(bounds.body.message, /spec\.size: Invalid value: -1: spec\.size in body should be greater than or equal to 0/);
      assert.match(bounds.body.message, /spec\.mode: Unsupported value: "c": supported values: "a", "b"/);
      // The scale subresource's path is checked too (kube's ValidateScaleSpec), after the schema.
      const scaled = await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'i3' }, spec: { size: 'big' } });
      assert.deepEqual(scaled.body.details.causes.map((c: { field: string }) => c.field), ['spec.size', '.spec.size']);
      const wrongKind = await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Gadget', metadata: { name: 'i4' } });
      assert.equal(wrongKind.status, 422);
      assert.match(wrongKind.body.message, /kind: Invalid value: "Gadget": must be Widget/);
    });

    it('status and scale subresources: the main resource ignores status, /scale reads and writes the CRD\'s paths', async () => {
      const g = 'scale.example.com';
      await t.req('POST', CRDS, widgetCrd(g));
      await established(t, `widgets.${g}`);
      const base = `/apis/${g}/v1/namespaces/cr/widgets`;
      const made = await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 's1' }, spec: { size: 2 }, status: { ready: 9 } });
      assert.equal(made.body.status, undefined, 'a create drops the status');
      const st = await t.req('PATCH', `${base}/s1/status`, { status: { ready: 2, selector: 'app=s1' } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
      assert.equal(st.status, 200, st.text);
      assert.equal(st.body.metadata.generation, 1, 'a status write keeps the generation');
      const ignored = await t.req('PATCH', `${base}/s1`, { status: { ready: 7 } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
      assert.equal(ignored.body.status.ready, 2);
      const scale = await t.req('GET', `${base}/s1/scale`);
      assert.deepEqual({ spec: scale.body.spec, status: scale.body.status, kind: scale.body.kind }, { spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=s1' }, kind: 'Scale' });
      const put = await t.req('PUT', `${base}/s1/scale`, { ...scale.body, spec: { replicas: 5 } });
      assert.equal(put.status, 200, put.text);
      assert.equal((await t.req('GET', `${base}/s1`)).body.spec.size, 5);
      assert.equal((await t.req('GET', `${base}/missing/scale`)).body.message, `widgets.${g} "missing" not found`);
    });

    it('a default added later is applied to objects read back', async () => {
      const g = 'later.example.com';
      await t.req('POST', CRDS, widgetCrd(g));
      await established(t, `widgets.${g}`);
      const base = `/apis/${g}/v1/namespaces/cr/widgets`;
      await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'old' }, spec: { size: 1 } });
      const crd = (await t.req('GET', `${CRDS}/widgets.${g}`)).body;
      crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode.default = 'a';
      const upd = await t.req('PUT', `${CRDS}/widgets.${g}`, crd);
      assert.equal(upd.status, 200, upd.text);
      await eventually(async () => (await t.req('GET', `${base}/old`)).body.spec?.mode === 'a');
      assert.equal((await t.req('GET', base)).body.items[0].spec.mode, 'a', 'lists default too');
    });

    it('a second CRD asking for names in use is not accepted; it is once they are free', async () => {
      const g = 'names.example.com';
      await t.req('POST', CRDS, widgetCrd(g));
      await established(t, `widgets.${g}`);
      const other = widgetCrd(g, { names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: ['wd'] } });
      other.metadata.name = `gadgets.${g}`;
      assert.equal((await t.req('POST', CRDS, other)).status, 201);
      await eventually(async () => {
        const b = (await t.req('GET', `${CRDS}/gadgets.${g}`)).body;
        const c = (b.status?.conditions ?? []) as { type: string; status: string; reason: string; message: string }[];
        return c.some((x) => x.type === 'NamesAccepted' && x.status === 'False' && x.reason === 'ShortNamesConflict' && x.message === '"wd" is already in use')
          && c.some((x) => x.type === 'Established' && x.status === 'False');
      });
      assert.equal((await t.req('GET', `/apis/${g}/v1/namespaces/cr/gadgets`)).status, 404, 'not served before it is Established');
      assert.equal((await t.req('DELETE', `${CRDS}/widgets.${g}`)).status, 200);
      await established(t, `gadgets.${g}`);
      assert.equal((await t.req('GET', `/apis/${g}/v1/namespaces/cr/gadgets`)).status, 200);
    });

    it('deleting a CRD removes its custom resources first, then the CRD; nothing is served after', async () => {
      const g = 'gone.example.com';
      await t.req('POST', CRDS, widgetCrd(g));
      await established(t, `widgets.${g}`);
      const base = `/apis/${g}/v1/namespaces/cr/widgets`;
      for (const n of ['a', 'b']) assert.equal((await t.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: n }, spec: { size: 1 } })).status, 201);
      const del = await t.req('DELETE', `${CRDS}/widgets.${g}`);
      assert.equal(del.status, 200);
      assert.deepEqual(del.body.metadata.finalizers, ['customresourcecleanup.apiextensions.svc.io']);
      assert.equal(del.body.metadata.generation, 1);
      assert.ok(del.body.status.conditions.some((c: { type: string; reason: string }) => c.type === 'Terminating' && c.reason === 'InstanceDeletionPending'));
      await eventually(async () => (await t.req('GET', `${CRDS}/widgets.${g}`)).status === 404);
      const after = await t.req('GET', base);
      assert.equal(after.status, 404);
    });

    it('custom resources are JSON and YAML only; a deprecated version warns', async () => {
      const g = 'media.example.com';
      const crd = widgetCrd(g);
      const v = crd.spec.versions[0] as Record<string, unknown>;
      crd.spec.versions = [{ ...v, deprecated: true }];
      await t.req('POST', CRDS, crd);
      await established(t, `widgets.${g}`);
      const base = `/apis/${g}/v1/namespaces/cr/widgets`;
      const pb = await t.req('GET', base, undefined, { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
      assert.equal(pb.status, 406);
      const fallback = await t.req('GET', base, undefined, { headers: { Accept: 'application/vnd.kubernetes.protobuf, application/json' } });
      assert.equal(fallback.status, 200);
      assert.equal(fallback.headers['content-type'], 'application/json');
      assert.equal(fallback.headers.warning, `299 - "${g}/v1 Widget is deprecated"`);
      const yaml = await t.req('GET', base, undefined, { headers: { Accept: 'application/yaml' } });
      assert.match(yaml.text, /^apiVersion: media\.example\.com\/v1\nitems: \[\]\nkind: WidgetList/);
    });

    it('a terminating namespace loses its custom resources', async () => {
      const g = 'nsdel.example.com';
      await t.req('POST', CRDS, widgetCrd(g));
      await established(t, `widgets.${g}`);
      await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'crns' } });
      assert.equal((await t.req('POST', `/apis/${g}/v1/namespaces/crns/widgets`, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'x' } })).status, 201);
      await t.req('DELETE', '/api/v1/namespaces/crns');
      await eventually(async () => (await t.req('GET', '/api/v1/namespaces/crns')).status === 404);
      assert.equal((await t.req('GET', `/apis/${g}/v1/widgets`)).body.items.length, 0);
    });

    it('two versions: None conversion serves both; a Webhook CRD whose webhook is unreachable serves its storage version and fails the other with kube\'s 500', async () => {
      for (const [g, conversion] of [['two.example.com', undefined], ['hook.example.com', { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://127.0.0.1:1/convert' } } }]] as const) {
        const crd = widgetCrd(g);
        const v1 = crd.spec.versions[0] as Record<string, unknown>;
        crd.spec.versions = [v1, { ...v1, name: 'v2', storage: false }];
        const made = await t.req('POST', CRDS, { ...crd, spec: { ...crd.spec, ...(conversion ? { conversion } : {}) } });
        assert.equal(made.status, 201, made.text);
        await established(t, `widgets.${g}`);
        const w = await t.req('POST', `/apis/${g}/v1/namespaces/cr/widgets`, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
        assert.equal(w.status, 201, w.text);
        const other = await t.req('GET', `/apis/${g}/v2/namespaces/cr/widgets/w`);
        if (!conversion) {
          assert.equal(other.status, 200);
          assert.equal(other.body.apiVersion, `${g}/v2`);
        } else {
          assert.equal(other.status, 500);
          assert.match(other.body.message, new RegExp(`^conversion webhook for ${g.replace(/\./g, '\\.')}/v1, Kind=Widget failed: Post "https://127\\.0\\.0\\.1:1/convert\\?timeout=30s": `), other.body.message);
          assert.equal((await t.req('GET', `/apis/${g}/v1/namespaces/cr/widgets/w`)).status, 200);
        }
      }
    });

    it('an invalid CRD is refused with kube\'s messages', async () => {
      const bad = widgetCrd('bad.example.com');
      bad.metadata.name = 'wrong.bad.example.com';
      const r = await t.req('POST', CRDS, bad);
      assert.equal(r.status, 422);
      assert.match(r.body.message, /metadata\.name: Invalid value: "wrong\.bad\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group/);
    });
  });
}

describe('custom resources across a restart (sqlite)', () => {
  it('an Established CRD is served again as soon as the server is back, with its objects, and a watch resumes', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const g = 'restart.example.com';
    await first.req('POST', '/api/v1/namespaces', { metadata: { name: 'cr' } });
    assert.equal((await first.req('POST', CRDS, widgetCrd(g))).status, 201);
    await established(first, `widgets.${g}`);
    const base = `/apis/${g}/v1/namespaces/cr/widgets`;
    const made = await first.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'kept' }, spec: { size: 1 } });
    assert.equal(made.status, 201);
    await first.server.shutdown();
    const second = await startTestServer({ dataDir, storage: { backend: 'sqlite', dataDir } });
    try {
      // No wait: the server serves Established CRDs before it is ready.
      const got = await second.req('GET', `${base}/kept`);
      assert.equal(got.status, 200, got.text);
      assert.equal(got.body.spec.color, 'blue');
      const rl = await second.req('GET', `/apis/${g}/v1`);
      assert.deepEqual(rl.body.resources.map((r: { name: string }) => r.name), ['widgets', 'widgets/scale', 'widgets/status']);
      const s = await openWatch(second, `${base}?watch=1&resourceVersion=${made.body.metadata.resourceVersion}`);
      await second.req('POST', base, { apiVersion: `${g}/v1`, kind: 'Widget', metadata: { name: 'after' } });
      await s.waitFor(1);
      s.close();
      assert.deepEqual(s.events.map((e) => [e.type, e.object.metadata.name]), [['ADDED', 'after']]);
    } finally {
      await second.stop();
    }
  });
});
