// ServiceAccount admission end to end, over HTTPS on SQLite and etcd, with the
// service-account controllers on (as `svc server` runs them): a pod in a new
// namespace gets the `default` account and the projected token volume at both
// token paths, automounting can be turned off by the account or the pod, a
// missing account is refused with kube's text, the account of a pod cannot be
// changed by an update, and mirror pods are neither defaulted nor allowed to
// refer to accounts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from './backends.js';
import { eventually, type TestServer } from './harness.js';

const NS = 'sa-admission';
const MOUNT_PATHS = ['/var/run/secrets/svc.io/serviceaccount', '/var/run/secrets/kubernetes.io/serviceaccount'];

const pod = (name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], ...spec },
});

type Volume = { name: string; projected?: { sources: Record<string, unknown>[]; defaultMode: number } };
type Mount = { name: string; readOnly?: boolean; mountPath: string };

for (const backend of BACKENDS) {
  describe(`ServiceAccount admission (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    const create = (name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
      t.req('POST', `/api/v1/namespaces/${NS}/pods`, pod(name, spec, annotations));

    before(async () => {
      t = await backend.start({ serviceAccountControllers: true });
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
      // the controllers give the new namespace its account and the root-CA ConfigMap
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200);
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/configmaps/svc-root-ca.crt`)).status === 200);
      for (const sa of [
        { metadata: { name: 'runner' }, imagePullSecrets: [{ name: 'registry-creds' }] },
        { metadata: { name: 'quiet' }, automountServiceAccountToken: false },
      ]) assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, sa)).status, 201);
    });
    after(async () => t?.stop());

    it('a pod without an account gets the default one and the token volume at both paths', async () => {
      const r = await create('plain');
      assert.equal(r.status, 201, r.text);
      const spec = r.body.spec;
      assert.equal(spec.serviceAccountName, 'default');
      assert.equal(spec.serviceAccount, 'default');
      const volumes = spec.volumes as Volume[];
      assert.equal(volumes.length, 1);
      const [volume] = volumes;
      assert.match(volume!.name, /^kube-api-access-[a-z0-9]{5}$/);
      // the ConfigMap the root-CA publisher wrote into the namespace is the one the volume names
      const configMaps = (await t.req('GET', `/api/v1/namespaces/${NS}/configmaps`)).body.items as { metadata: { name: string }; data: Record<string, string> }[];
      const rootCA = configMaps.find((c) => c.metadata.name.endsWith('root-ca.crt'));
      assert.ok(rootCA, 'the root-CA ConfigMap exists');
      assert.match(rootCA.data['ca.crt']!, /^-----BEGIN CERTIFICATE-----/);
      assert.deepEqual(volume!.projected, {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: rootCA.metadata.name, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      });
      assert.deepEqual(spec.containers[0].volumeMounts as Mount[], MOUNT_PATHS.map((mountPath) => ({ name: volume!.name, readOnly: true, mountPath })));
      // what was answered is what was stored
      assert.deepEqual((await t.req('GET', `/api/v1/namespaces/${NS}/pods/plain`)).body.spec, spec);
    });

    it('init containers get the mounts, and a named account its pull secrets', async () => {
      const r = await create('init', { serviceAccountName: 'runner', initContainers: [{ name: 'setup', image: 'registry.example/setup:1.0' }] });
      assert.equal(r.status, 201, r.text);
      const name = (r.body.spec.volumes as Volume[])[0]!.name;
      for (const c of [...r.body.spec.initContainers, ...r.body.spec.containers]) {
        assert.deepEqual((c.volumeMounts as Mount[]).map((m) => [m.name, m.mountPath]), MOUNT_PATHS.map((p) => [name, p]), c.name);
      }
      assert.deepEqual(r.body.spec.imagePullSecrets, [{ name: 'registry-creds' }]);
    });

    const noVolume: [string, string, Record<string, unknown>][] = [
      ['the account turns automounting off', 'by-account', { serviceAccountName: 'quiet' }],
      ['the pod turns automounting off', 'by-pod', { automountServiceAccountToken: false }],
    ];
    for (const [what, name, spec] of noVolume) {
      it(`${what}: no volume, no mounts`, async () => {
        const r = await create(name, spec);
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.spec.volumes, undefined);
        assert.equal(r.body.spec.containers[0].volumeMounts, undefined);
      });
    }
    it('the pod overrides an account that turns automounting off', async () => {
      const r = await create('loud', { serviceAccountName: 'quiet', automountServiceAccountToken: true });
      assert.equal(r.status, 201, r.text);
      assert.match((r.body.spec.volumes as Volume[])[0]!.name, /^kube-api-access-/);
    });

    it('a pod naming a missing account is refused as kube refuses it', async () => {
      const r = await create('ghost', { serviceAccountName: 'ghost' });
      assert.equal(r.status, 403, r.text);
      assert.equal(r.body.reason, 'Forbidden');
      assert.equal(r.body.message, `pods "ghost" is forbidden: error looking up service account ${NS}/ghost: serviceaccount "ghost" not found`);
      assert.deepEqual(r.body.details, { name: 'ghost', kind: 'pods' });
      assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/pods/ghost`)).status, 404);
    });

    it('an update may not change the account of a pod (pod validation)', async () => {
      const created = await create('fixed', { serviceAccountName: 'runner', automountServiceAccountToken: false });
      assert.equal(created.status, 201, created.text);
      const changed = structuredClone(created.body);
      changed.spec.serviceAccountName = 'quiet';
      changed.spec.serviceAccount = 'quiet';
      const r = await t.req('PUT', `/api/v1/namespaces/${NS}/pods/fixed`, changed);
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.reason, 'Invalid');
      assert.match(r.body.message, /^Pod "fixed" is invalid: spec: Forbidden: pod updates may not change fields other than /);
      assert.equal((await t.req('GET', `/api/v1/namespaces/${NS}/pods/fixed`)).body.spec.serviceAccountName, 'runner');
    });

    it('a mirror pod is not defaulted, and may not refer to an account, a secret or a token', async () => {
      const mirror = { 'kubernetes.io/config.mirror': 'hash' };
      const ok = await create('mirror', { nodeName: 'n1' }, mirror);
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.body.spec.serviceAccountName, undefined);
      assert.equal(ok.body.spec.volumes, undefined);
      const rows: [string, Record<string, unknown>, string][] = [
        ['mirror-sa', { serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
        ['mirror-secret', { volumes: [{ name: 's', secret: { secretName: 'creds' } }] }, 'a mirror pod may not reference secrets'],
        ['mirror-token', { volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] }, 'a mirror pod may not use ServiceAccountToken volume projections'],
      ];
      for (const [name, spec, message] of rows) {
        const r = await create(name, { nodeName: 'n1', ...spec }, mirror);
        assert.equal(r.status, 403, `${name}: ${r.text}`);
        assert.equal(r.body.message, `pods "${name}" is forbidden: ${message}`);
      }
    });
  });
}
