// The resource API over HTTPS: CRUD, optimistic concurrency, errors,
// generateName, deletion with finalizers and preconditions, status and scale.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';

describe('resource API (HTTPS, embedded storage)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'crud' } })).status, 201);
  });
  after(async () => t?.stop());
  const cm = '/api/v1/namespaces/crud/configmaps';

  it('creates, gets, lists, updates and deletes a configmap', async () => {
    const c = await t.req('POST', cm, { metadata: { name: 'settings', labels: { app: 'demo' } }, data: { mode: 'fast' } });
    assert.equal(c.status, 201);
    assert.equal(c.body.kind, 'ConfigMap');
    assert.equal(c.body.apiVersion, 'v1');
    assert.equal(c.body.metadata.namespace, 'crud');
    assert.match(c.body.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(c.body.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(c.body.metadata.resourceVersion, /^\d+$/);
    const g = await t.req('GET', `${cm}/settings`);
    assert.deepEqual(g.body, c.body);
    const l = await t.req('GET', cm);
    assert.equal(l.body.kind, 'ConfigMapList');
    assert.equal(l.body.items.length, 1);
    assert.equal(l.body.items[0].kind, undefined, 'list items carry no kind');
    assert.ok(Number(l.body.metadata.resourceVersion) >= Number(c.body.metadata.resourceVersion));

    const u = await t.req('PUT', `${cm}/settings`, { ...c.body, data: { mode: 'slow' } });
    assert.equal(u.status, 200);
    assert.ok(Number(u.body.metadata.resourceVersion) > Number(c.body.metadata.resourceVersion));
    const stale = await t.req('PUT', `${cm}/settings`, { ...c.body, data: { mode: 'stale' } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.reason, 'Conflict');
    assert.equal(stale.body.message, 'Operation cannot be fulfilled on configmaps "settings": the object has been modified; please apply your changes to the latest version and try again');
    const noRV = await t.req('PUT', `${cm}/settings`, { metadata: { name: 'settings' }, data: { mode: 'last' } });
    assert.equal(noRV.status, 200);
    assert.equal(noRV.body.metadata.uid, c.body.metadata.uid, 'uid survives an update');

    const d = await t.req('DELETE', `${cm}/settings`);
    assert.equal(d.status, 200);
    assert.deepEqual(d.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'settings', kind: 'configmaps', uid: c.body.metadata.uid } });
    const gone = await t.req('GET', `${cm}/settings`);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "settings" not found', reason: 'NotFound', details: { name: 'settings', kind: 'configmaps' }, code: 404 });
  });

  it('a no-op update keeps the resourceVersion; PUT creates where allowed', async () => {
    const c = await t.req('POST', cm, { metadata: { name: 'same' }, data: { a: '1' } });
    const u = await t.req('PUT', `${cm}/same`, c.body);
    assert.equal(u.body.metadata.resourceVersion, c.body.metadata.resourceVersion);
    const put = await t.req('PUT', '/api/v1/namespaces/crud/configmaps/fresh', { metadata: { name: 'fresh' } });
    assert.equal(put.status, 404, 'configmaps do not create on update');
  });

  it('rejects bad input with Kubernetes errors', async () => {
    const dup = await t.req('POST', cm, { metadata: { name: 'dup' } });
    assert.equal(dup.status, 201);
    const again = await t.req('POST', cm, { metadata: { name: 'dup' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.reason, 'AlreadyExists');
    assert.equal(again.body.message, 'configmaps "dup" already exists');

    const badName = await t.req('POST', cm, { metadata: { name: 'Bad_Name' } });
    assert.equal(badName.status, 422);
    assert.equal(badName.body.reason, 'Invalid');
    assert.equal(badName.body.details.causes[0].field, 'metadata.name');

    const noName = await t.req('POST', cm, { metadata: {} });
    assert.equal(noName.status, 422);
    const mismatch = await t.req('PUT', `${cm}/dup`, { metadata: { name: 'other' } });
    assert.equal(mismatch.status, 400);
    const wrongNs = await t.req('POST', cm, { metadata: { name: 'x', namespace: 'elsewhere' } });
    assert.equal(wrongNs.status, 400);
    const notJson = await t.req('POST', cm, undefined, { raw: '{not json' });
    assert.equal(notJson.status, 400);
    const media = await t.req('POST', cm, undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } });
    assert.equal(media.status, 415);
    assert.equal(media.body.reason, 'UnsupportedMediaType');
    const accept = await t.req('GET', cm, undefined, { headers: { accept: 'application/vnd.unknown' } });
    assert.equal(accept.status, 406);
    const big = await t.req('POST', cm, undefined, { raw: JSON.stringify({ metadata: { name: 'big' }, data: { x: 'y'.repeat(3 * 1024 * 1024) } }) });
    assert.equal(big.status, 413);
    const missingNs = await t.req('POST', '/api/v1/namespaces/nope/configmaps', { metadata: { name: 'x' } });
    assert.equal(missingNs.status, 404);
    assert.equal(missingNs.body.message, 'namespaces "nope" not found');
    const unknown = await t.req('GET', '/api/v1/widgets');
    assert.equal(unknown.status, 404);
    const badType = await t.req('PATCH', `${cm}/dup`, {}, { headers: { 'content-type': 'application/json' } });
    assert.equal(badType.status, 415, 'a PATCH needs a patch media type');
    assert.equal(badType.body.reason, 'UnsupportedMediaType');
    const missing = await t.req('PATCH', `${cm}/no-such`, {}, { headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(missing.status, 404);
    const malformed = await t.req('PATCH', `${cm}/dup`, undefined, { raw: '{"data":', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.message, 'error decoding patch: unexpected end of JSON input');
  });

  it('accepts YAML bodies and fills apiVersion and kind from the URL', async () => {
    const y = await t.req('POST', cm, undefined, { raw: 'metadata:\n  name: from-yaml\ndata:\n  k: v\n', headers: { 'content-type': 'application/yaml', accept: 'application/yaml' } });
    assert.equal(y.status, 201);
    assert.equal(y.headers['content-type'], 'application/yaml');
    assert.match(y.text, /^apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n/); // sorted keys, as Go writes YAML
  });

  it('generateName adds a random suffix', async () => {
    const a = await t.req('POST', cm, { metadata: { generateName: 'gen-' } });
    const b = await t.req('POST', cm, { metadata: { generateName: 'gen-' } });
    assert.match(a.body.metadata.name, /^gen-[a-z0-9]{5}$/);
    assert.notEqual(a.body.metadata.name, b.body.metadata.name);
  });

  it('deletion with finalizers: terminating, idempotent, removed with the last finalizer, no new finalizers', async () => {
    await t.req('POST', cm, { metadata: { name: 'held', finalizers: ['example.com/hold'] }, data: { a: '1' } });
    const d1 = await t.req('DELETE', `${cm}/held`);
    assert.equal(d1.status, 200);
    assert.ok(d1.body.metadata.deletionTimestamp);
    assert.equal(d1.body.metadata.deletionGracePeriodSeconds, 0);
    const d2 = await t.req('DELETE', `${cm}/held`);
    assert.equal(d2.body.metadata.resourceVersion, d1.body.metadata.resourceVersion, 'a second delete changes nothing');
    const add = await t.req('PUT', `${cm}/held`, { ...d1.body, metadata: { ...d1.body.metadata, finalizers: ['example.com/hold', 'example.com/other'] } });
    assert.equal(add.status, 422);
    assert.match(add.body.message, /no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"example.com\/other"\}/);
    const fin = await t.req('PUT', `${cm}/held`, { ...d1.body, metadata: { ...d1.body.metadata, finalizers: [] } });
    assert.equal(fin.status, 200);
    assert.equal((await t.req('GET', `${cm}/held`)).status, 404);
  });

  it('preconditions and propagation policies', async () => {
    const c = await t.req('POST', cm, { metadata: { name: 'pre' } });
    const wrongUid = await t.req('DELETE', `${cm}/pre`, { preconditions: { uid: 'nope' } });
    assert.equal(wrongUid.status, 409);
    assert.match(wrongUid.body.message, /^Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition \(nope\) does not match the UID in record/);
    const wrongRV = await t.req('DELETE', `${cm}/pre`, { preconditions: { resourceVersion: '1' } });
    assert.equal(wrongRV.status, 409);
    const badPolicy = await t.req('DELETE', `${cm}/pre`, { propagationPolicy: 'Sideways' });
    assert.equal(badPolicy.status, 422);
    const orphan = await t.req('DELETE', `${cm}/pre`, { propagationPolicy: 'Orphan', preconditions: { uid: c.body.metadata.uid } });
    assert.equal(orphan.status, 200);
    assert.deepEqual(orphan.body.metadata.finalizers, ['orphan'], 'Orphan leaves its finalizer for the garbage collector');
  });

  it('deletecollection with a label selector', async () => {
    for (const [n, app] of [['dc1', 'x'], ['dc2', 'x'], ['dc3', 'y']]) await t.req('POST', cm, { metadata: { name: n, labels: { app } } });
    const r = await t.req('DELETE', `${cm}?labelSelector=app%3Dx`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['dc1', 'dc2']);
    assert.equal((await t.req('GET', `${cm}/dc3`)).status, 200);
    assert.equal((await t.req('GET', `${cm}/dc1`)).status, 404);
  });

  it('status subresource and generation on a deployment; scale', async () => {
    const base = '/apis/apps/v1/namespaces/crud/deployments';
    const spec = { replicas: 2, selector: { matchLabels: { app: 'w' } }, template: { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } };
    const c = await t.req('POST', base, { metadata: { name: 'web' }, spec, status: { replicas: 9 } });
    assert.equal(c.status, 201);
    assert.equal(c.body.metadata.generation, 1);
    const st = await t.req('PUT', `${base}/web/status`, { ...c.body, spec: { ...spec, replicas: 5 }, status: { replicas: 2 } });
    assert.equal(st.status, 200);
    assert.equal(st.body.status.replicas, 2);
    assert.equal(st.body.spec.replicas, 2, '/status ignores spec');
    assert.equal(st.body.metadata.generation, 1);
    const main = await t.req('PUT', `${base}/web`, { ...st.body, spec: { ...spec, replicas: 3 }, status: { replicas: 7 } });
    assert.equal(main.body.status.replicas, 2, 'the main resource ignores status');
    assert.equal(main.body.metadata.generation, 2, 'a spec change bumps generation');
    const scale = await t.req('GET', `${base}/web/scale`);
    assert.equal(scale.body.kind, 'Scale');
    assert.equal(scale.body.apiVersion, 'autoscaling/v1');
    assert.equal(scale.body.spec.replicas, 3);
    assert.equal(scale.body.status.selector, 'app=w');
    // As any PUT, a Scale names the object of the URL (Kubernetes' update handler checks it).
    const unnamed = await t.req('PUT', `${base}/web/scale`, { spec: { replicas: 6 } });
    assert.equal(unnamed.status, 400);
    assert.equal(unnamed.body.message, 'the name of the object () does not match the name on the URL (web)');
    const up = await t.req('PUT', `${base}/web/scale`, { metadata: { name: 'web' }, spec: { replicas: 6 } });
    assert.equal(up.body.spec.replicas, 6);
    assert.equal((await t.req('GET', `${base}/web`)).body.spec.replicas, 6);
  });

  it('an unbound pod is deleted at once, answering with its deletionTimestamp', async () => {
    await t.req('POST', '/api/v1/namespaces/crud/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    const d = await t.req('DELETE', '/api/v1/namespaces/crud/pods/p');
    assert.equal(d.status, 200);
    assert.equal(d.body.kind, 'Pod');
    assert.ok(d.body.metadata.deletionTimestamp);
    assert.equal(d.body.metadata.deletionGracePeriodSeconds, 0);
    assert.equal((await t.req('GET', '/api/v1/namespaces/crud/pods/p')).status, 404);
  });

  it('a terminating pod\'s grace period may only be shortened, its deletionTimestamp moving by as much; 0 deletes it', async () => {
    const pods = '/api/v1/namespaces/crud/pods';
    await t.req('POST', pods, { metadata: { name: 'slow' }, spec: { nodeName: 'n1', terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'x' }] } });
    const d1 = await t.req('DELETE', `${pods}/slow`);
    assert.equal(d1.body.metadata.deletionGracePeriodSeconds, 30);
    const longer = await t.req('DELETE', `${pods}/slow`, { gracePeriodSeconds: 60 });
    assert.equal(longer.status, 200);
    assert.equal(longer.body.metadata.resourceVersion, d1.body.metadata.resourceVersion, 'a longer period changes nothing');
    assert.equal((await t.req('DELETE', `${pods}/slow`)).body.metadata.resourceVersion, d1.body.metadata.resourceVersion, 'nor does none');
    const shorter = await t.req('DELETE', `${pods}/slow`, { gracePeriodSeconds: 10 });
    assert.equal(shorter.body.metadata.deletionGracePeriodSeconds, 10);
    assert.equal(Date.parse(d1.body.metadata.deletionTimestamp) - Date.parse(shorter.body.metadata.deletionTimestamp), 20_000);
    const now = await t.req('DELETE', `${pods}/slow`, { gracePeriodSeconds: 0 });
    assert.equal(now.status, 200);
    assert.equal((await t.req('GET', `${pods}/slow`)).status, 404);
  });

  it('answers unknown paths and verbs as Kubernetes does', async () => {
    const group = await t.req('GET', '/apis/widgets.example.com/v1');
    assert.equal(group.status, 404);
    assert.equal(group.text, '404 page not found\n');
    const version = await t.req('GET', '/apis/apps/v7');
    assert.equal(version.body.message, 'the server could not find the requested resource');
    const post = await t.req('POST', `${cm}/dup`, { metadata: { name: 'dup' } });
    assert.equal(post.status, 405);
    assert.equal(post.body.message, 'the server does not allow this method on the requested resource');
    assert.equal((await t.req('PUT', cm, { metadata: { name: 'x' } })).status, 405);
    assert.equal((await t.req('GET', '/api/v1/namespaces/crud/bindings')).status, 405);
    assert.equal((await t.req('GET', `${cm}/dup/status`)).status, 404, 'configmaps have no status subresource');
  });

  it('serves k8s.io group spellings from the same storage', async () => {
    const r = await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/crud/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader' }, rules: [] });
    assert.equal(r.status, 201);
    assert.equal(r.body.apiVersion, 'rbac.authorization.k8s.io/v1');
    const s = await t.req('GET', '/apis/rbac.authorization.svc.io/v1/namespaces/crud/roles/reader');
    assert.equal(s.body.apiVersion, 'rbac.authorization.svc.io/v1');
    assert.equal(s.body.metadata.uid, r.body.metadata.uid);
  });

  it('dryRun=All validates and answers without persisting', async () => {
    const d = await t.req('POST', `${cm}?dryRun=All`, { metadata: { name: 'dry' } });
    assert.equal(d.status, 201);
    assert.equal((await t.req('GET', `${cm}/dry`)).status, 404);
    const bad = await t.req('POST', `${cm}?dryRun=Some`, { metadata: { name: 'dry' } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.message, 'CreateOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
  });

  it('services get a cluster IP and node ports from the ranges, released on delete', async () => {
    const svc = '/api/v1/namespaces/crud/services';
    const a = await t.req('POST', svc, { metadata: { name: 'alloc-a' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.match(a.body.spec.clusterIP, /^10\.0\.0\.\d+$/);
    assert.deepEqual(a.body.spec.clusterIPs, [a.body.spec.clusterIP]);
    assert.ok(a.body.spec.ports[0].nodePort >= 30000 && a.body.spec.ports[0].nodePort <= 32767);
    const taken = await t.req('POST', svc, { metadata: { name: 'alloc-b' }, spec: { clusterIP: a.body.spec.clusterIP, ports: [{ port: 80 }] } });
    assert.equal(taken.status, 422);
    assert.match(taken.body.message, /provided IP is already allocated/);
    const dry = await t.req('POST', `${svc}?dryRun=All`, { metadata: { name: 'alloc-c' }, spec: { ports: [{ port: 80 }] } });
    assert.equal(dry.status, 201);
    assert.equal((await t.req('DELETE', `${svc}/alloc-a`)).status, 200);
    const again = await t.req('POST', svc, { metadata: { name: 'alloc-b' }, spec: { clusterIP: a.body.spec.clusterIP, ports: [{ port: 80 }] } });
    assert.equal(again.status, 201, 'the IP was released with its service');
  });
});
