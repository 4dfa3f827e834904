// Issue 17, class 6: the details of answers a client can see, each pinned to
// what kube-apiserver v1.27 does (the row's `kube` says where it comes from).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';

describe('error and response details as kube-apiserver writes them', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    for (const name of ['details', 'doomed-details']) assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name } })).status, 201);
  });
  after(async () => t?.stop());

  it('a create in a terminating namespace carries the NamespaceTerminating cause', async () => {
    // kube: plugin/pkg/admission/namespace/lifecycle appends v1.NamespaceTerminatingCause on metadata.namespace.
    const cm = '/api/v1/namespaces/doomed-details/configmaps';
    assert.equal((await t.req('POST', cm, { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status, 201);
    assert.equal((await t.req('DELETE', '/api/v1/namespaces/doomed-details')).status, 200);
    await eventually(async () => (await t.req('GET', `${cm}/held`)).body.metadata?.deletionTimestamp !== undefined);
    const r = await t.req('POST', cm, { metadata: { name: 'late' } });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
      message: 'configmaps "late" is forbidden: unable to create new content in namespace doomed-details because it is being terminated',
      details: { name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace doomed-details is being terminated', field: 'metadata.namespace' }] },
    });
    // Let the namespace go so the controller does not keep retrying.
    const held = (await t.req('GET', `${cm}/held`)).body;
    assert.equal((await t.req('PUT', `${cm}/held`, { ...held, metadata: { ...held.metadata, finalizers: [] } })).status, 200);
  });

  const versionCases: { accept: string | undefined; code: number; contentType: RegExp; kube: string }[] = [
    { accept: undefined, code: 200, contentType: /^application\/json/, kube: 'no Accept matches every route' },
    { accept: 'application/json', code: 200, contentType: /^application\/json/, kube: 'the route produces application/json' },
    { accept: '*/*', code: 200, contentType: /^application\/json/, kube: 'go-restful: */* matches' },
    { accept: 'application/yaml, application/json;q=0.5', code: 200, contentType: /^application\/json/, kube: 'one acceptable type in the list is enough' },
    { accept: 'application/yaml', code: 406, contentType: /^application\/yaml/, kube: "go-restful 406; the apiserver's service error handler negotiates the Status (YAML here)" },
    { accept: 'application/vnd.kubernetes.protobuf', code: 406, contentType: /^application\/vnd\.kubernetes\.protobuf/, kube: 'ErrorNegotiated: the Status in protobuf' },
    { accept: 'text/html', code: 406, contentType: /^application\/json/, kube: 'nothing acceptable: the Status in JSON' },
  ];
  for (const c of versionCases) {
    it(`/version with Accept ${c.accept ?? '(none)'} → ${c.code} (${c.kube})`, async () => {
      const r = await t.req('GET', '/version', undefined, { headers: c.accept === undefined ? {} : { Accept: c.accept } });
      assert.equal(r.status, c.code);
      assert.match(String(r.headers['content-type']), c.contentType);
      if (c.code === 200) {
        assert.equal(r.body.major, '1');
        assert.equal(r.body.minor, '27');
        return;
      }
      assert.match(r.text, /406: Not Acceptable/);
      assert.match(r.text, /Available representations: application\/json/);
      assert.match(r.text, /NotAcceptable/, 'the reason');
    });
  }

  const resourceAcceptCases: { accept: string; code: number; message?: string; kube: string }[] = [
    { accept: 'application/xml', code: 406, message: '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.svc.protobuf, application/vnd.kubernetes.protobuf', kube: "go-restful: no type the route produces" },
    { accept: 'text/html', code: 406, message: '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.svc.protobuf, application/vnd.kubernetes.protobuf', kube: 'go-restful: no type the route produces' },
    { accept: 'application/*', code: 406, message: '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.svc.protobuf, application/vnd.kubernetes.protobuf', kube: 'go-restful matches whole types only' },
    { accept: 'application/json;as=Table;v=v2;g=meta.k8s.io', code: 406, message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.svc.protobuf, application/vnd.kubernetes.protobuf', kube: "the route matches; the handler's negotiation finds no Table v2" },
    { accept: 'application/xml, application/json', code: 200, kube: 'one producible type is enough' },
  ];
  for (const c of resourceAcceptCases) {
    it(`GET a configmap with Accept ${c.accept} → ${c.code} (${c.kube})`, async () => {
      const path = '/api/v1/namespaces/details/configmaps/accept-probe';
      if ((await t.req('GET', path)).status === 404) await t.req('POST', '/api/v1/namespaces/details/configmaps', { metadata: { name: 'accept-probe' } });
      const r = await t.req('GET', path, undefined, { headers: { Accept: c.accept } });
      assert.equal(r.status, c.code);
      if (c.code === 200) return assert.equal(r.body.kind, 'ConfigMap');
      assert.equal(r.body.reason, 'NotAcceptable');
      assert.equal(r.body.message, c.message);
    });
  }

  it('a DELETE that removes the object answers with the resourceVersion of the delete', async () => {
    // kube: etcd3 store conditionalDelete decodes the last value with the delete's revision.
    const svc = '/api/v1/namespaces/details/services';
    const c = await t.req('POST', svc, { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } });
    assert.equal(c.status, 201);
    const d = await t.req('DELETE', `${svc}/s`);
    assert.equal(d.status, 200);
    assert.equal(d.body.kind, 'Service');
    assert.ok(Number(d.body.metadata.resourceVersion) > Number(c.body.metadata.resourceVersion), 'the delete is a newer revision than the create');
    const list = await t.req('GET', svc);
    assert.ok(Number(list.body.metadata.resourceVersion) >= Number(d.body.metadata.resourceVersion));
    // A watch from the create's revision sees the DELETED event at that same revision.
    const w = await t.req('GET', `${svc}?watch=1&resourceVersion=${c.body.metadata.resourceVersion}&timeoutSeconds=1`);
    const events = w.text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { resourceVersion: string } } });
    const deleted = events.find((e) => e.type === 'DELETED');
    assert.equal(deleted?.object.metadata.resourceVersion, d.body.metadata.resourceVersion);
    // A dry-run delete changes nothing: the object as stored.
    const again = await t.req('POST', svc, { metadata: { name: 's2' }, spec: { ports: [{ port: 80 }] } });
    const dry = await t.req('DELETE', `${svc}/s2?dryRun=All`);
    assert.equal(dry.body.metadata.resourceVersion, again.body.metadata.resourceVersion);
  });

  // kube's stores built with ReturnDeletedObject: true answer a DELETE with the object (golden authn-04 delete-serviceaccount).
  const returnsObject: { kind: string; collection: string; body: Record<string, unknown> }[] = [
    { kind: 'ServiceAccount', collection: '/api/v1/namespaces/details/serviceaccounts', body: { metadata: { name: 'robot' } } },
    { kind: 'StorageClass', collection: '/apis/storage.k8s.io/v1/storageclasses', body: { metadata: { name: 'details-sc' }, provisioner: 'example.com/p' } },
    { kind: 'Service', collection: '/api/v1/namespaces/details/services', body: { metadata: { name: 'returned' }, spec: { ports: [{ port: 80 }] } } },
  ];
  for (const c of returnsObject) {
    it(`DELETE of a ${c.kind} answers the ${c.kind}, not a Status`, async () => {
      const made = await t.req('POST', c.collection, c.body);
      assert.equal(made.status, 201, made.text);
      const d = await t.req('DELETE', `${c.collection}/${made.body.metadata.name}`);
      assert.equal(d.status, 200);
      assert.equal(d.body.kind, c.kind);
      assert.equal(d.body.metadata.uid, made.body.metadata.uid);
    });
  }
  it('DELETE of a ConfigMap answers a Success Status (ReturnDeletedObject is off)', async () => {
    const made = await t.req('POST', '/api/v1/namespaces/details/configmaps', { metadata: { name: 'status-delete' } });
    const d = await t.req('DELETE', `/api/v1/namespaces/details/configmaps/${made.body.metadata.name}`);
    assert.equal(d.body.kind, 'Status');
    assert.equal(d.body.status, 'Success');
  });

  for (const dryRun of [true, false]) {
    it(`deletecollection${dryRun ? ' (dry run)' : ''} answers the items as listed before deleting`, async () => {
      // kube: registry Store.DeleteCollection returns the list it read, not the deleted objects.
      const cm = '/api/v1/namespaces/details/configmaps';
      const label = dryRun ? 'dry' : 'wet';
      const made = [];
      for (const [name, finalizers] of [[`${label}-a`, []], [`${label}-b`, ['example.com/hold']]] as const) {
        const r = await t.req('POST', cm, { metadata: { name, labels: { set: label }, finalizers } });
        assert.equal(r.status, 201);
        made.push(r.body);
      }
      const r = await t.req('DELETE', `${cm}?labelSelector=set%3D${label}${dryRun ? '&dryRun=All' : ''}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.kind, 'ConfigMapList');
      const items = r.body.items as { metadata: Record<string, unknown> }[];
      assert.deepEqual(items.map((i) => i.metadata.name), made.map((m) => m.metadata.name));
      for (const [i, item] of items.entries()) {
        assert.equal(item.metadata.deletionTimestamp, undefined);
        assert.equal(item.metadata.resourceVersion, made[i].metadata.resourceVersion);
      }
      const after = await t.req('GET', `${cm}/${label}-b`);
      if (dryRun) {
        assert.equal(after.body.metadata.deletionTimestamp, undefined, 'nothing changed');
        assert.equal((await t.req('GET', `${cm}/${label}-a`)).status, 200);
      } else {
        assert.ok(after.body.metadata.deletionTimestamp, 'the held one is terminating');
        assert.equal((await t.req('GET', `${cm}/${label}-a`)).status, 404);
        assert.equal((await t.req('PUT', `${cm}/${label}-b`, { ...after.body, metadata: { ...after.body.metadata, finalizers: [] } })).status, 200);
      }
    });
  }
});
