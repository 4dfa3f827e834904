// Namespaces: system namespaces, the lifecycle (Active → Terminating → gone,
// with the namespace controller deleting the content), NamespaceLifecycle.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';

describe('namespaces', () => {
  let t: TestServer;
  before(async () => { t = await startTestServer(); });
  after(async () => t?.stop());

  it('creates the system namespaces, which cannot be deleted', async () => {
    const l = await t.req('GET', '/api/v1/namespaces');
    const names = l.body.items.map((n: { metadata: { name: string } }) => n.metadata.name);
    for (const n of ['default', 'svc-system', 'svc-public']) assert.ok(names.includes(n), n);
    const d = await t.req('DELETE', '/api/v1/namespaces/default');
    assert.equal(d.status, 403);
    assert.equal(d.body.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
  });

  it('new namespaces get the name label, the kubernetes finalizer and phase Active', async () => {
    const c = await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'life' } });
    assert.equal(c.status, 201);
    assert.deepEqual(c.body.metadata.labels, { 'svc.io/metadata.name': 'life', 'kubernetes.io/metadata.name': 'life' });
    assert.deepEqual(c.body.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(c.body.status, { phase: 'Active' });
    const bad = await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'Not_Valid' } });
    assert.equal(bad.status, 422);
    assert.match(bad.body.message, /a lowercase RFC 1123 label must consist of/);
    const relabel = await t.req('PUT', '/api/v1/namespaces/life', { ...c.body, metadata: { ...c.body.metadata, labels: { 'svc.io/metadata.name': 'other', 'kubernetes.io/metadata.name': 'other', team: 'a' } } });
    assert.deepEqual(relabel.body.metadata.labels, { 'svc.io/metadata.name': 'life', 'kubernetes.io/metadata.name': 'life', team: 'a' }, 'the name labels are kept');
  });

  it('deleting a namespace terminates it, removes its content, then the namespace', async () => {
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'doomed' } });
    await t.req('POST', '/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'a' } });
    await t.req('POST', '/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await t.req('POST', '/apis/apps/v1/namespaces/doomed/deployments', { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } } } } });
    const d = await t.req('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(d.status, 200);
    assert.equal(d.body.status.phase, 'Terminating');
    assert.ok(d.body.metadata.deletionTimestamp);
    const create = await t.req('POST', '/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'late' } });
    assert.equal(create.status, 403);
    assert.match(create.body.message, /unable to create new content in namespace doomed because it is being terminated/);
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces/doomed/configmaps/a')).status === 404);
    assert.equal((await t.req('GET', '/apis/apps/v1/namespaces/doomed/deployments/d')).status, 404);
    // The finalizer holds one object, and so the namespace.
    const held = await t.req('GET', '/api/v1/namespaces/doomed/configmaps/held');
    assert.ok(held.body.metadata.deletionTimestamp);
    assert.equal((await t.req('GET', '/api/v1/namespaces/doomed')).status, 200);
    await t.req('PUT', '/api/v1/namespaces/doomed/configmaps/held', { ...held.body, metadata: { ...held.body.metadata, finalizers: [] } });
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces/doomed')).status === 404, 15_000);
  });

  it('finalize changes only spec.finalizers', async () => {
    const c = await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'fin' } });
    const f = await t.req('PUT', '/api/v1/namespaces/fin/finalize', { ...c.body, spec: { finalizers: [] }, metadata: { ...c.body.metadata, labels: { x: 'y' } } });
    assert.equal(f.status, 200);
    assert.equal(f.body.spec.finalizers, undefined, 'an emptied list is left out, as Go writes it');
    const d = await t.req('DELETE', '/api/v1/namespaces/fin');
    assert.equal(d.status, 200);
    // As kube: the first delete only marks it; with no finalizer left the
    // namespace controller has nothing to do, and a second delete removes it.
    await new Promise((r) => setTimeout(r, 300));
    const marked = await t.req('GET', '/api/v1/namespaces/fin');
    assert.equal(marked.status, 200);
    assert.ok(marked.body.metadata.deletionTimestamp);
    assert.equal((await t.req('DELETE', '/api/v1/namespaces/fin')).status, 200);
    assert.equal((await t.req('GET', '/api/v1/namespaces/fin')).status, 404);
  });

  it('a terminating namespace carries kube\'s deletion conditions while content remains', async () => {
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'cond' } })).status, 201);
    await t.req('POST', '/api/v1/namespaces/cond/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    assert.equal((await t.req('DELETE', '/api/v1/namespaces/cond')).status, 200);
    let conditions: { type: string; status: string; reason: string; message: string }[] = [];
    await eventually(async () => {
      conditions = (await t.req('GET', '/api/v1/namespaces/cond')).body.status?.conditions ?? [];
      return conditions.some((c) => c.type === 'NamespaceContentRemaining' && c.status === 'True');
    });
    const byType = new Map(conditions.map((c) => [c.type, c]));
    assert.deepEqual([...byType.keys()], [
      'NamespaceDeletionDiscoveryFailure', 'NamespaceDeletionGroupVersionParsingFailure', 'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining', 'NamespaceFinalizersRemaining',
    ]);
    assert.deepEqual(byType.get('NamespaceContentRemaining'), { ...byType.get('NamespaceContentRemaining'), reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' });
    assert.deepEqual(byType.get('NamespaceFinalizersRemaining'), { ...byType.get('NamespaceFinalizersRemaining'), status: 'True', reason: 'SomeFinalizerRemain', message: 'Some finalizers are remaining: example.com/hold in 1 resource instances' });
    assert.deepEqual(byType.get('NamespaceDeletionDiscoveryFailure'), { ...byType.get('NamespaceDeletionDiscoveryFailure'), status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' });
    const held = await t.req('GET', '/api/v1/namespaces/cond/configmaps/held');
    await t.req('PUT', '/api/v1/namespaces/cond/configmaps/held', { ...held.body, metadata: { ...held.body.metadata, finalizers: [] } });
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces/cond')).status === 404, 15_000);
  });
});
