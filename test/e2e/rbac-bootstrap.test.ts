// The bootstrap RBAC policy on the real server: created at start (the
// rbac/bootstrap-roles post-start hook), reconciled on the next start by
// union (missing rules, subjects and deleted objects back; extra rules and
// subjects kept; autoupdate "false" left alone), a restart that has nothing to
// reconcile writes nothing; and the ClusterRole aggregation controller
// filling admin, edit and view.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../../src/testing/tempdir.js';
import { eventually, sleep, startTestServer, type TestServer } from './harness.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';

/** kind/namespace/name → resourceVersion of every RBAC object. */
async function versions(t: TestServer): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const resource of ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings']) {
    const r = await t.req('GET', `${RBAC}/${resource}`);
    assert.equal(r.status, 200, r.text);
    for (const o of r.body.items) out.set(`${resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion);
  }
  return out;
}

const get = async (t: TestServer, path: string) => {
  const r = await t.req('GET', `${RBAC}/${path}`);
  assert.equal(r.status, 200, r.text);
  return r.body;
};

describe('RBAC bootstrap policy: creation and reconciliation across restarts', () => {
  const dataDir = tempDir('svc-rbac-bootstrap-');
  let t: TestServer;
  after(async () => t?.stop());

  it('creates every default object at start, and /readyz names the hook', async () => {
    t = await startTestServer({ dataDir, controllers: false });
    const v = await versions(t);
    for (const key of [
      'clusterroles//cluster-admin', 'clusterroles//system:basic-user', 'clusterroles//system:svc-scheduler', 'clusterroles//system:controller:namespace-controller',
      'clusterrolebindings//cluster-admin', 'clusterrolebindings//system:controller:job-controller',
      'roles/svc-system/extension-apiserver-authentication-reader', 'rolebindings/svc-public/system:controller:bootstrap-signer',
    ]) assert.ok(v.has(key), key);
    assert.equal([...v.keys()].filter((k) => k.startsWith('clusterroles/')).length, 62);
    assert.equal([...v.keys()].filter((k) => k.startsWith('clusterrolebindings/')).length, 43);
    const ready = await t.req('GET', '/readyz?verbose');
    assert.match(ready.text, /\[\+\]poststarthook\/rbac\/bootstrap-roles ok/);
    const crb = await get(t, 'clusterrolebindings/system:public-info-viewer');
    // subjects carry the group in the stored (svc.io) spelling, as the defaulter writes it
    assert.deepEqual(crb.subjects, [
      { kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'system:authenticated' },
      { kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'system:unauthenticated' },
    ]);
  });

  it('reconciles by union on the next start, leaving protected objects alone', async () => {
    // basic-user loses a permission and gains one; discovery is protected and cut down; monitoring is deleted;
    // the basic-user binding loses its group and gains a user
    const basic = await get(t, 'clusterroles/system:basic-user');
    const extra = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
    basic.rules = [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] }, extra];
    assert.equal((await t.req('PUT', `${RBAC}/clusterroles/system:basic-user`, basic)).status, 200);
    const discovery = await get(t, 'clusterroles/system:discovery');
    discovery.metadata.annotations[AUTOUPDATE] = 'false';
    discovery.rules = [{ verbs: ['get'], nonResourceURLs: ['/version'] }];
    assert.equal((await t.req('PUT', `${RBAC}/clusterroles/system:discovery`, discovery)).status, 200);
    assert.equal((await t.req('DELETE', `${RBAC}/clusterroles/system:monitoring`)).status, 200);
    const binding = await get(t, 'clusterrolebindings/system:basic-user');
    binding.subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }];
    assert.equal((await t.req('PUT', `${RBAC}/clusterrolebindings/system:basic-user`, binding)).status, 200);

    await t.server.shutdown();
    t = await startTestServer({ dataDir, controllers: false });

    assert.deepEqual((await get(t, 'clusterroles/system:basic-user')).rules, [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      extra,
      // the missing permission, broken down as kube adds it
      { verbs: ['create'], apiGroups: ['authorization.svc.io'], resources: ['selfsubjectrulesreviews'] },
    ]);
    assert.deepEqual((await get(t, 'clusterroles/system:discovery')).rules, [{ verbs: ['get'], nonResourceURLs: ['/version'] }]);
    assert.equal((await get(t, 'clusterroles/system:monitoring')).rules.length, 1);
    assert.deepEqual((await get(t, 'clusterrolebindings/system:basic-user')).subjects, [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
      { kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'system:authenticated' },
    ]);
  });

  it('writes nothing on a start with nothing to reconcile', async () => {
    const before = await versions(t);
    await t.server.shutdown();
    t = await startTestServer({ dataDir, controllers: false });
    assert.deepEqual(await versions(t), before);
  });
});

describe('ClusterRole aggregation controller', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.stop());

  const rulesOf = async (name: string) => (await get(t, `clusterroles/${name}`)).rules ?? [];
  const has = (rules: { resources?: string[] }[], resource: string) => rules.some((r) => r.resources?.includes(resource));

  it('fills view, edit and admin from the aggregate-to roles', async () => {
    await eventually(async () => has(await rulesOf('view'), 'pods/log') && has(await rulesOf('edit'), 'pods/log') && has(await rulesOf('admin'), 'rolebindings'));
    const view = await rulesOf('view');
    assert.deepEqual(view, (await get(t, 'clusterroles/system:aggregate-to-view')).rules);
    const admin = await get(t, 'clusterroles/admin');
    assert.ok(admin.metadata.managedFields.some((e: { manager: string }) => e.manager === 'clusterrole-aggregation-controller'));
  });

  it('adds a role labelled aggregate-to-view (k8s.io or svc.io) to view and on to edit and admin, and drops it when the label goes', async () => {
    for (const label of ['rbac.authorization.k8s.io/aggregate-to-view', 'rbac.authorization.svc.io/aggregate-to-view']) {
      const name = `widgets-view-${label.includes('svc.io') ? 'svc' : 'k8s'}`;
      const resource = `widgets-${label.includes('svc.io') ? 'svc' : 'k8s'}`;
      const created = await t.req('POST', `${RBAC}/clusterroles`, {
        metadata: { name, labels: { [label]: 'true' } },
        rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['example.com'], resources: [resource] }],
      });
      assert.equal(created.status, 201, created.text);
      await eventually(async () => has(await rulesOf('view'), resource) && has(await rulesOf('edit'), resource) && has(await rulesOf('admin'), resource));

      const r = await t.req('PATCH', `${RBAC}/clusterroles/${name}`, { metadata: { labels: { [label]: null } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(r.status, 200, r.text);
      await eventually(async () => !has(await rulesOf('view'), resource) && !has(await rulesOf('edit'), resource) && !has(await rulesOf('admin'), resource));
    }
  });

  it('drops a deleted role\'s rules', async () => {
    assert.equal((await t.req('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'gadgets-edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
      rules: [{ verbs: ['create'], apiGroups: ['example.com'], resources: ['gadgets'] }],
    })).status, 201);
    await eventually(async () => has(await rulesOf('admin'), 'gadgets'));
    assert.ok(!has(await rulesOf('view'), 'gadgets'));
    assert.equal((await t.req('DELETE', `${RBAC}/clusterroles/gadgets-edit`)).status, 200);
    await eventually(async () => !has(await rulesOf('edit'), 'gadgets') && !has(await rulesOf('admin'), 'gadgets'));
  });

  it('writes as its service account through authorization: without its binding it cannot aggregate', async () => {
    const binding = `${RBAC}/clusterrolebindings/system:controller:clusterrole-aggregation-controller`;
    const saved = (await t.req('GET', binding)).body;
    const controller = { user: 'system:serviceaccount:svc-system:clusterrole-aggregation-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:svc-system'] };
    const mayUpdate = async () => (await t.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      spec: { ...controller, resourceAttributes: { verb: 'update', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'view' } },
    })).body.status.allowed === true;
    assert.ok(await mayUpdate());
    assert.equal((await t.req('DELETE', binding)).status, 200);
    await eventually(async () => !(await mayUpdate()));
    assert.equal((await t.req('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'sprockets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['sprockets'] }],
    })).status, 201);
    await sleep(1500); // the controller tries (and is refused) at once, then retries after a second
    assert.ok(!has(await rulesOf('view'), 'sprockets'), 'aggregated without its rights');
    const { metadata, ...rest } = saved;
    assert.equal((await t.req('POST', `${RBAC}/clusterrolebindings`, { ...rest, metadata: { name: metadata.name, labels: metadata.labels, annotations: metadata.annotations } })).status, 201);
    await eventually(async () => has(await rulesOf('view'), 'sprockets'));
  });
});
