// RBAC escalation prevention through the API (kube v1.27's policybased RBAC
// storage; golden rbac-04 texts): a user may write Roles and bindings only
// for permissions they hold, unless allowed to `escalate` or `bind`;
// system:masters always may; roleRef cannot change. The server runs its
// default modes (Node,RBAC); the policy below is created through the API and
// reaches the authorizer through its watch (hence the waits for it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, writeTokenFile, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { tempDir } from '../../src/testing/tempdir.js';
const NS = 'esc';
const K8S = `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}`;
const SVC = `/apis/rbac.authorization.svc.io/v1/namespaces/${NS}`;
const ALICE = { token: 'token-alice' };
const HEAD = 'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n';

const role = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules });
const binding = (name: string, kind: string, ref: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: ref },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
});
const getPods = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
const deletePods = { apiGroups: [''], resources: ['pods'], verbs: ['delete'] };

for (const backend of BACKENDS) {
  describe(`RBAC escalation prevention (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    const admin = async (method: string, path: string, body?: unknown) => {
      const r = await t.req(method, path, body);
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
      return r;
    };

    /** Waits until the authorizer (fed by a watch) allows alice the verb. */
    const untilAllowed = (resourceAttributes: Record<string, string>) =>
      eventually(async () => (await t.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        spec: { user: 'alice', groups: ['devs', 'system:authenticated'], resourceAttributes },
      })).body.status?.allowed === true);

    before(async () => {
      const tokens = writeTokenFile(tempDir('svc-esc-'), 'token-alice,alice,uid-alice,"devs"\n');
      t = await backend.start({ tokenAuthFile: tokens });
      await admin('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      // alice: get pods, and writing Roles and RoleBindings in the namespace.
      await admin('POST', `${K8S}/roles`, role('alice-base', [
        getPods,
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['get', 'create', 'update', 'patch'] },
      ]));
      await admin('POST', `${K8S}/rolebindings`, { ...binding('alice-base', 'Role', 'alice-base'), subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }] });
      await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'esc-admin' },
        rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }],
      });
      await untilAllowed({ namespace: NS, verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'rolebindings' });
    });
    after(async () => t?.stop());

    it('a Role granting what alice lacks is 403 with kube text, in the request spelling; dry runs too', async () => {
      const r = await t.req('POST', `${K8S}/roles`, role('deleter', [getPods, deletePods]), ALICE);
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403,
        message: `roles.rbac.authorization.k8s.io "deleter" is forbidden: ${HEAD}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`,
        details: { name: 'deleter', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      });
      const s = await t.req('POST', `${SVC}/roles`, role('deleter', [deletePods]), ALICE);
      assert.equal(s.status, 403);
      assert.equal(s.body.message, `roles.rbac.authorization.svc.io "deleter" is forbidden: ${HEAD}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`);
      assert.equal((await t.req('POST', `${K8S}/roles?dryRun=All`, role('deleter', [deletePods]), ALICE)).status, 403);
      assert.equal((await t.req('GET', `${K8S}/roles/deleter`)).status, 404);
    });

    it('a Role within what alice holds is created; widening it by PUT, patch or apply is 403', async () => {
      const c = await t.req('POST', `${K8S}/roles`, role('getter', [getPods]), ALICE);
      assert.equal(c.status, 201, c.text);
      const widened = `roles.rbac.authorization.k8s.io "getter" is forbidden: ${HEAD}{APIGroups:[""], Resources:["pods"], Verbs:["list"]}`;
      const put = await t.req('PUT', `${K8S}/roles/getter`, { ...c.body, rules: [{ ...getPods, verbs: ['get', 'list'] }] }, ALICE);
      assert.equal(put.status, 403);
      assert.equal(put.body.message, widened);
      const patch = await t.req('PATCH', `${K8S}/roles/getter`, { rules: [{ ...getPods, verbs: ['get', 'list'] }] }, { ...ALICE, headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patch.status, 403);
      assert.equal(patch.body.message, widened);
      const apply = await t.req('PATCH', `${K8S}/roles/getter?fieldManager=alice&force=true`, role('getter', [{ ...getPods, verbs: ['get', 'list'] }]), { ...ALICE, headers: { 'content-type': 'application/apply-patch+yaml' } });
      assert.equal(apply.status, 403, apply.text);
      assert.equal(apply.body.message, widened);
      // Server-side apply of a manifest written for Kubernetes, within what alice holds, creates the Role.
      const created = await t.req('PATCH', `${K8S}/roles/applied?fieldManager=alice`, role('applied', [getPods]), { ...ALICE, headers: { 'content-type': 'application/apply-patch+yaml' } });
      assert.equal(created.status, 201, created.text);
      // A change that grants nothing new (a label) is allowed.
      const label = await t.req('PATCH', `${K8S}/roles/getter`, { metadata: { labels: { a: 'b' } } }, { ...ALICE, headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(label.status, 200, label.text);
    });

    it('binding a role alice holds is allowed; one she does not hold is 403; a missing role 404', async () => {
      assert.equal((await t.req('POST', `${K8S}/rolebindings`, binding('bob-getter', 'Role', 'getter'), ALICE)).status, 201);
      const admin = await t.req('POST', `${K8S}/rolebindings`, binding('bob-admin', 'ClusterRole', 'esc-admin'), ALICE);
      assert.equal(admin.status, 403);
      assert.deepEqual(admin.body.details, { name: 'bob-admin', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' });
      assert.equal(admin.body.message, `rolebindings.rbac.authorization.k8s.io "bob-admin" is forbidden: ${HEAD}{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`);
      const ghost = await t.req('POST', `${K8S}/rolebindings`, binding('bob-ghost', 'Role', 'no-such-role'), ALICE);
      assert.equal(ghost.status, 404);
      assert.deepEqual(ghost.body, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404,
        message: 'roles.rbac.authorization.k8s.io "no-such-role" not found', details: { name: 'no-such-role', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      });
    });

    it('with `bind` on the ClusterRole alice may bind it; with `escalate` on roles she may grant more', async () => {
      await admin('POST', `${K8S}/roles`, role('binder', [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['esc-admin'] },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] },
      ]));
      await admin('POST', `${K8S}/rolebindings`, { ...binding('alice-binder', 'Role', 'binder'), subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }] });
      await untilAllowed({ namespace: NS, verb: 'escalate', group: 'rbac.authorization.k8s.io', resource: 'roles' });
      const b = await t.req('POST', `${K8S}/rolebindings`, binding('bob-admin', 'ClusterRole', 'esc-admin'), ALICE);
      assert.equal(b.status, 201, b.text);
      const r = await t.req('POST', `${K8S}/roles`, role('deleter', [deletePods]), ALICE);
      assert.equal(r.status, 201, r.text);
    });

    it('through aggregation: an aggregated ClusterRole needs cluster-admin; a role alice labels for aggregation holds only what she holds', async () => {
      // alice may write ClusterRoles
      await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'esc-clusterrole-writer' },
        rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create', 'update', 'patch', 'get'] }],
      });
      await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'esc-clusterrole-writer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'esc-clusterrole-writer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      });
      await untilAllowed({ verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'clusterroles' });
      // an aggregationRule gathering cluster-admin-like roles: refused whatever it selects
      const agg = await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'alice-gathers' },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] },
      }, ALICE);
      assert.equal(agg.status, 403);
      assert.equal(agg.body.message, 'clusterroles.rbac.authorization.k8s.io "alice-gathers" is forbidden: must have cluster-admin privileges to use the aggregationRule');
      // labelling a role into `admin` with rules she lacks is an ordinary escalation, refused
      const labelled = await t.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
        metadata: { name: 'alice-into-admin', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      }, ALICE);
      assert.equal(labelled.status, 403);
      assert.match(labelled.body.message, /is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}$/);
      assert.equal((await t.req('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/alice-into-admin')).status, 404);
    });

    it('through impersonation: alice may not impersonate her way to more rights', async () => {
      for (const headers of [{ 'impersonate-user': 'admin', 'impersonate-group': 'system:masters' }, { 'impersonate-user': 'bob' }] as Record<string, string>[]) {
        const r = await t.req('POST', `${K8S}/roles`, role('via-impersonation', [deletePods]), { ...ALICE, headers });
        assert.equal(r.status, 403);
        assert.equal(r.body.message, `users "${headers['impersonate-user']}" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`);
      }
      assert.equal((await t.req('GET', `${K8S}/roles/via-impersonation`)).status, 404);
    });

    it('system:masters always may; roleRef cannot change (422)', async () => {
      assert.equal((await t.req('POST', `${K8S}/roles`, role('anything', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]))).status, 201);
      const changed = await t.req('PATCH', `${K8S}/rolebindings/bob-getter`, { roleRef: { kind: 'Role', name: 'anything' } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(changed.status, 422);
      // The cause as kube words it (the Status message renders the value as JSON and names the svc.io group: see the report).
      assert.deepEqual(changed.body.details.causes.map((c: { field: string; reason: string }) => [c.field, c.reason]), [['roleRef', 'FieldValueInvalid']]);
      assert.match(changed.body.message, /"bob-getter" is invalid: roleRef: Invalid value: .*: cannot change roleRef$/);
    });
  });
}

