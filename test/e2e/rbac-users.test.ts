// Restricted users end to end (issue 19): a user minted with `svc certs user`
// and bound with RBAC works with kubectl 1.27 exactly as far as its bindings
// reach; a service account's token with the Python client likewise. The
// server runs its default modes (Node,RBAC) and bootstrap policy.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, eventually, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing, type Kubectl } from './kubectlcli.js';
import { findTool } from '../../src/testing/tools.js';

const main = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const NS = 'rbac-users';

const svc = (...args: string[]) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(process.execPath, [main, ...args], { timeout: 60_000 }, (e, out, err) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out, err }));
  });

describe('restricted users (default Node,RBAC)', { skip: kubectlMissing }, () => {
  let t: TestServer;
  let k: Kubectl;
  let alice: string;
  before(async () => {
    t = await startTestServer({ serviceAccountControllers: true });
    k = kubectlFor(() => t);
    alice = join(t.dataDir, 'alice.svcconfig');
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => {
    k?.cleanup();
    await t?.stop();
  });

  it('svc certs user mints a 0600 svcconfig for the user and groups; bad invocations say what to fix', async () => {
    const r = await svc('certs', 'user', 'alice', '--group', 'devs', '--group', 'qa', '--data-dir', t.dataDir);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /wrote .*alice\.svcconfig for user "alice" in groups "devs", "qa"/);
    assert.equal(statSync(alice).mode & 0o777, 0o600);
    const none = await svc('certs', 'user', '--data-dir', t.dataDir);
    assert.equal(none.code, 1);
    assert.match(none.err, /exactly one user name is required/);
    const noCa = await svc('certs', 'user', 'bob', '--data-dir', join(t.dataDir, 'nowhere'));
    assert.equal(noCa.code, 1);
    assert.match(noCa.err, /no valid certificate authority in .*nowhere\/pki .*start the server once/);
  });

  it('kubectl as the new user: forbidden until bound, then exactly what the binding grants', async () => {
    const as = (...args: string[]) => k('--kubeconfig', alice, ...args);
    const denied = await as('get', 'pods', '-n', NS);
    assert.notEqual(denied.code, 0);
    assert.match(denied.err, new RegExp(`pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "${NS}"`));
    // bind the group to the default edit role in the namespace
    const bound = await k('create', 'rolebinding', 'devs-edit', '--clusterrole=edit', '--group=devs', '-n', NS);
    assert.equal(bound.code, 0, bound.err);
    await eventually(async () => (await as('get', 'pods', '-n', NS)).code === 0);
    const made = await as('create', 'deployment', 'web', '--image=nginx', '-n', NS);
    assert.equal(made.code, 0, made.err);
    const canI = await as('auth', 'can-i', 'create', 'deployments', '-n', NS);
    assert.equal(canI.out.trim(), 'yes');
    const cannot = await as('auth', 'can-i', 'create', 'rolebindings', '-n', NS);
    assert.equal(cannot.out.trim(), 'no');
    const list = await as('auth', 'can-i', '--list', '-n', NS);
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /deployments\.apps\s+\[\]\s+\[\]\s+\[.*create.*\]/);
    // nothing outside the namespace, nothing cluster-scoped
    const nodes = await as('get', 'nodes');
    assert.notEqual(nodes.code, 0);
    assert.match(nodes.err, /nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope/);
    const other = await as('get', 'pods', '-n', 'default');
    assert.notEqual(other.code, 0);
    // edit holds no RBAC write rights: granting herself more is refused
    const escalate = await as('create', 'rolebinding', 'me-admin', '--clusterrole=admin', '--user=alice', '-n', NS);
    assert.notEqual(escalate.code, 0);
    assert.match(escalate.err, /forbidden/);
    // the admin sees what alice may do with --as
    const asAlice = await k('auth', 'can-i', 'delete', 'pods', '-n', NS, '--as', 'alice', '--as-group', 'devs');
    assert.equal(asAlice.out.trim(), 'yes');
  });

  it('kubectl auth reconcile creates and then updates roles from a file', async () => {
    const file = k.file('roles.yaml', `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reconciled, namespace: ${NS}}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reconciled, namespace: ${NS}}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reconciled}
subjects: [{kind: User, name: carol, apiGroup: rbac.authorization.k8s.io}]
`);
    const first = await k('auth', 'reconcile', '-f', file);
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /role\.rbac\.authorization\.k8s\.io\/reconciled reconciled/);
    const more = k.file('more.yaml', `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reconciled, namespace: ${NS}}
rules:
- {apiGroups: [""], resources: [secrets], verbs: [list]}
`);
    const second = await k('auth', 'reconcile', '-f', more);
    assert.equal(second.code, 0, second.err);
    const role = await t.req('GET', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles/reconciled`);
    assert.deepEqual(role.body.rules.map((r: { resources: string[] }) => r.resources[0]).sort(), ['configmaps', 'secrets']);
  });

  const python = findTool('/usr/bin/python3', "Debian's python3-kubernetes (apt-get install python3-kubernetes)", ['-c', 'import kubernetes']);
  it('the Python client with a service account bound to view: reads, and a write or a secret is 403', { skip: python.skip }, async () => {
    assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'reader' } })).status, 201);
    const rb = await t.req('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, {
      metadata: { name: 'reader-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: NS }],
    });
    assert.equal(rb.status, 201, rb.text);
    const tr = await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts/reader/token`, { spec: { expirationSeconds: 900 } });
    const token = tr.body.status.token as string;
    await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/pods`, undefined, { token })).status === 200);
    const script = `
import sys
from kubernetes import client
host, token, ns, ca = sys.argv[1:5]
cfg = client.Configuration()
cfg.host = host
cfg.api_key = {'authorization': 'Bearer ' + token}
cfg.ssl_ca_cert = ca
core = client.CoreV1Api(client.ApiClient(cfg))
core.list_namespaced_pod(ns)
apps = client.AppsV1Api(client.ApiClient(cfg))
assert [d.metadata.name for d in apps.list_namespaced_deployment(ns).items] == ['web']
for call in (lambda: core.list_namespaced_secret(ns), lambda: core.create_namespaced_config_map(ns, {'metadata': {'name': 'x'}}), lambda: core.list_pod_for_all_namespaces()):
    try:
        call(); print('allowed'); sys.exit(1)
    except client.exceptions.ApiException as e:
        assert e.status == 403, (e.status, e.body)
print('ok')
`;
    const r = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile('/usr/bin/python3', ['-c', script, t.url, token, NS, join(t.dataDir, 'pki', 'ca.crt')], { timeout: 120_000 }, (e, out, err) => resolve({ code: e ? 1 : 0, out, err }));
    });
    assert.equal(r.code, 0, r.err + r.out);
    assert.equal(r.out.trim(), 'ok');
  });
});
