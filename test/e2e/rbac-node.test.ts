// The Node authorizer on a real server: node agents (static tokens for
// system:node:n1 and n2 in system:nodes) read only what pods bound to them use,
// with kube's Forbidden texts (golden rbac-07-node-authorizer). The server runs
// --authorization-mode=Node (system:masters, the admin certificate, first);
// RBAC is not in the chain here, so what the node rules do not allow is 403
// without a reason.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, writeTokenFile, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { tempDir } from '../../src/testing/tempdir.js';
const ns = 'rbac-07-node-authorizer';
const n1 = { token: 'token-node-n1' };
const n2 = { token: 'token-node-n2' };
const forbidden = (what: string, verb: string, resource: string, reason: string) =>
  `${what} is forbidden: User "system:node:n1" cannot ${verb} resource "${resource}" in API group "" in the namespace "${ns}"${reason ? `: ${reason}` : ''}`;
const NO_RELATION = "no relationship found between node 'n1' and this object";

const pod = (name: string, nodeName: string, volumes: unknown[]) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], nodeName, volumes, serviceAccountName: 'runner', automountServiceAccountToken: false },
});

for (const backend of BACKENDS) {
  describe(`Node authorizer (e2e) (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    before(async () => {
      const dir = tempDir('svc-node-authz-');
      t = await backend.start({
        tokenAuthFile: writeTokenFile(dir, 'token-node-n1,system:node:n1,n1,"system:nodes"\ntoken-node-n2,system:node:n2,n2,"system:nodes"\n'),
        authorization: { modes: ['Node'] },
      });
    });
    after(async () => t?.stop());

    it('follows the golden rbac-07 scenario', async () => {
      assert.equal((await t.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status, 201);
      for (const [name, pw] of [['app-secret', 'x'], ['other-secret', 'y']]) {
        assert.equal((await t.req('POST', `/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { pw } })).status, 201);
      }
      assert.equal((await t.req('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config' }, data: { k: 'v' } })).status, 201);

      const before = await t.req('GET', `/api/v1/namespaces/${ns}/secrets/app-secret`, undefined, n1);
      assert.equal(before.status, 403);
      assert.deepEqual(before.body, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: forbidden('secrets "app-secret"', 'get', 'secrets', NO_RELATION),
        reason: 'Forbidden', details: { name: 'app-secret', kind: 'secrets' }, code: 403,
      });
      const list = await t.req('GET', `/api/v1/namespaces/${ns}/secrets`, undefined, n1);
      assert.equal(list.status, 403);
      assert.equal(list.body.message, forbidden('secrets', 'list', 'secrets', 'No Object name found'));

      assert.equal((await t.req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'runner' } })).status, 201);
      assert.equal((await t.req('POST', `/api/v1/namespaces/${ns}/pods`, pod('on-n1', 'n1', [{ name: 's', secret: { secretName: 'app-secret' } }, { name: 'c', configMap: { name: 'app-config' } }]))).status, 201);
      assert.equal((await t.req('POST', `/api/v1/namespaces/${ns}/pods`, pod('on-n2', 'n2', [{ name: 's', secret: { secretName: 'other-secret' } }]))).status, 201);

      // the graph follows the pods through a watch
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${ns}/secrets/app-secret`, undefined, n1)).status === 200);
      const secret = await t.req('GET', `/api/v1/namespaces/${ns}/secrets/app-secret`, undefined, n1);
      assert.equal(secret.body.data.pw, 'eA==');
      assert.equal((await t.req('GET', `/api/v1/namespaces/${ns}/configmaps/app-config`, undefined, n1)).status, 200);
      const other = await t.req('GET', `/api/v1/namespaces/${ns}/secrets/other-secret`, undefined, n1);
      assert.equal(other.status, 403);
      assert.equal(other.body.message, forbidden('secrets "other-secret"', 'get', 'secrets', NO_RELATION));
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${ns}/secrets/other-secret`, undefined, n2)).status === 200);

      // the node rules
      assert.equal((await t.req('GET', `/api/v1/namespaces/${ns}/pods/on-n2`, undefined, n1)).status, 200);
      assert.equal((await t.req('GET', '/api/v1/nodes', undefined, n1)).status, 200);
      const namespace = await t.req('GET', `/api/v1/namespaces/${ns}`, undefined, n1);
      assert.equal(namespace.status, 403);
      assert.equal(namespace.body.message, forbidden(`namespaces "${ns}"`, 'get', 'namespaces', ''));
      const cms = await t.req('GET', `/api/v1/namespaces/${ns}/configmaps`, undefined, n1);
      assert.equal(cms.body.message, forbidden('configmaps', 'list', 'configmaps', 'No Object name found'));
      const create = await t.req('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-node' }, data: { k: 'v' } }, n1);
      assert.equal(create.status, 403);
      assert.equal(create.body.message, forbidden('configmaps', 'create', 'configmaps', 'can only read resources of this type'));

      // a token for the service account of a pod on the node
      const token = await t.req('POST', `/api/v1/namespaces/${ns}/serviceaccounts/runner/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }, n1);
      assert.equal(token.status, 201, token.text);

      // deleting the pod removes the node's access
      assert.equal((await t.req('DELETE', `/api/v1/namespaces/${ns}/pods/on-n1?gracePeriodSeconds=0`)).status, 200);
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${ns}/secrets/app-secret`, undefined, n1)).status === 403);
      const after = await t.req('GET', `/api/v1/namespaces/${ns}/secrets/app-secret`, undefined, n1);
      assert.equal(after.body.message, forbidden('secrets "app-secret"', 'get', 'secrets', NO_RELATION));
      assert.equal((await t.req('GET', `/api/v1/namespaces/${ns}/secrets/other-secret`, undefined, n2)).status, 200);
    });
  });
}

