// The official JavaScript client (@kubernetes/client-node 1.4) against the
// real server over HTTPS with the generated admin kubeconfig, on each storage
// backend: typed CRUD, Watch, an informer that relists after a 410, and
// KubernetesObjectApi including server-side apply. The server runs with a
// small watch-cache window and short watch timeouts so the 410 can be forced.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ApiException,
  ApiextensionsV1Api,
  AppsV1Api,
  CustomObjectsApi,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
  makeInformer,
  setHeaderOptions,
  type KubernetesObject,
  type V1ConfigMap,
  type V1Deployment,
} from '@kubernetes/client-node';
import { BACKENDS } from './backends.js';
import { eventually, type TestServer } from './harness.js';

/** The ApiException a call throws (fails when it does not throw one). */
async function apiError(p: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiException) return err as ApiException<string>;
    throw err;
  }
  assert.fail('expected an ApiException');
}

function deployment(name: string, replicas: number): V1Deployment {
  const labels = { app: name };
  return {
    metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } },
  };
}

for (const backend of BACKENDS) {
  describe(`@kubernetes/client-node (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    let kc: KubeConfig;
    before(async () => {
      t = await backend.start({ watchCacheWindow: { maxEvents: 50 }, watch: { minTimeoutMs: 1000 } });
      kc = new KubeConfig();
      kc.loadFromFile(t.kubeconfig);
    });
    after(async () => t?.stop());

    it('CoreV1Api configmaps: create, read, list, merge and JSON patch, replace, delete, errors', async () => {
      const core = kc.makeApiClient(CoreV1Api);
      const ns = 'default';
      const created = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'js-cm', labels: { app: 'js' } }, data: { a: '1' } } });
      assert.equal(created.metadata?.name, 'js-cm');
      assert.ok(created.metadata?.resourceVersion);
      assert.equal(created.kind, 'ConfigMap');

      const read = await core.readNamespacedConfigMap({ name: 'js-cm', namespace: ns });
      assert.equal(read.metadata?.uid, created.metadata?.uid);
      const list = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app=js' });
      assert.deepEqual(list.items.map((c) => c.metadata?.name), ['js-cm']);
      assert.ok(list.metadata?.resourceVersion);

      // The typed patch defaults to json-patch+json; other patch types go through a header option.
      const merged = await core.patchNamespacedConfigMap({ name: 'js-cm', namespace: ns, body: { data: { b: '2' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      assert.deepEqual(merged.data, { a: '1', b: '2' });
      const jsonPatched = await core.patchNamespacedConfigMap({ name: 'js-cm', namespace: ns, body: [{ op: 'remove', path: '/data/a' }] });
      assert.deepEqual(jsonPatched.data, { b: '2' });

      const replaced = await core.replaceNamespacedConfigMap({ name: 'js-cm', namespace: ns, body: { metadata: { name: 'js-cm', resourceVersion: jsonPatched.metadata?.resourceVersion }, data: { c: '3' } } });
      assert.deepEqual(replaced.data, { c: '3' });
      const conflict = await apiError(core.replaceNamespacedConfigMap({ name: 'js-cm', namespace: ns, body: { metadata: { name: 'js-cm', resourceVersion: jsonPatched.metadata?.resourceVersion } } }));
      assert.equal(conflict.code, 409);
      assert.equal(JSON.parse(conflict.body).reason, 'Conflict');

      await core.deleteNamespacedConfigMap({ name: 'js-cm', namespace: ns });
      const gone = await apiError(core.readNamespacedConfigMap({ name: 'js-cm', namespace: ns }));
      assert.equal(gone.code, 404);
      const status = JSON.parse(gone.body);
      assert.equal(status.kind, 'Status');
      assert.equal(status.reason, 'NotFound');
      assert.deepEqual(status.details, { name: 'js-cm', kind: 'configmaps' });
    });

    it('AppsV1Api deployments: create with defaults, read, strategic merge patch, scale, delete', async () => {
      const apps = kc.makeApiClient(AppsV1Api);
      const ns = 'default';
      const created = await apps.createNamespacedDeployment({ namespace: ns, body: deployment('js-web', 2) });
      assert.equal(created.spec?.strategy?.type, 'RollingUpdate');
      assert.equal(created.spec?.template.spec?.containers[0]?.imagePullPolicy, 'IfNotPresent');
      assert.equal(created.metadata?.generation, 1);
      assert.equal((await apps.readNamespacedDeployment({ name: 'js-web', namespace: ns })).spec?.replicas, 2);
      assert.deepEqual((await apps.listNamespacedDeployment({ namespace: ns })).items.map((d) => d.metadata?.name), ['js-web']);

      const patched = await apps.patchNamespacedDeployment(
        { name: 'js-web', namespace: ns, body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26' }] } } } } },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      );
      assert.equal(patched.spec?.template.spec?.containers.length, 1, 'containers merged by name');
      assert.equal(patched.spec?.template.spec?.containers[0]?.image, 'nginx:1.26');
      assert.equal(patched.metadata?.generation, 2);

      const scale = await apps.readNamespacedDeploymentScale({ name: 'js-web', namespace: ns });
      assert.equal(scale.spec?.replicas, 2);
      const scaled = await apps.replaceNamespacedDeploymentScale({ name: 'js-web', namespace: ns, body: { ...scale, spec: { replicas: 5 } } });
      assert.equal(scaled.spec?.replicas, 5);
      assert.equal((await apps.readNamespacedDeployment({ name: 'js-web', namespace: ns })).spec?.replicas, 5);

      await apps.deleteNamespacedDeployment({ name: 'js-web', namespace: ns });
      assert.equal((await apiError(apps.readNamespacedDeployment({ name: 'js-web', namespace: ns }))).code, 404);
    });

    it('Watch: existing objects as ADDED, then changes; timeoutSeconds ends the stream', async () => {
      const core = kc.makeApiClient(CoreV1Api);
      const ns = 'default';
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'js-w1', labels: { w: 'js' } } } });
      const events: string[] = [];
      let ended: unknown = 'open';
      const w = new Watch(kc);
      // Watch sends Accept */* and no resourceVersion: the server answers JSON, starting with synthetic ADDED events.
      const req = await w.watch(
        `/api/v1/namespaces/${ns}/configmaps`,
        { labelSelector: 'w=js', allowWatchBookmarks: true },
        (type, obj: V1ConfigMap) => type !== 'BOOKMARK' && events.push(`${type} ${obj.metadata?.name}`),
        (err) => (ended = err),
      );
      await eventually(async () => events.length === 1);
      await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'js-w2', labels: { w: 'js' } } } });
      await core.deleteNamespacedConfigMap({ name: 'js-w1', namespace: ns });
      await eventually(async () => events.length === 3);
      assert.deepEqual(events, ['ADDED js-w1', 'ADDED js-w2', 'DELETED js-w1']);
      req.abort();

      const rv = (await core.listNamespacedConfigMap({ namespace: ns })).metadata?.resourceVersion;
      ended = 'open';
      await w.watch(`/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: rv, timeoutSeconds: 1 }, () => {}, (err) => (ended = err));
      await eventually(async () => ended !== 'open');
      assert.equal(ended, null, 'the server closed the stream cleanly at timeoutSeconds');
      await core.deleteNamespacedConfigMap({ name: 'js-w2', namespace: ns });
    });

    it('informer: lists, follows changes, relists after a 410 once its resourceVersion is compacted away', async () => {
      const core = kc.makeApiClient(CoreV1Api);
      await core.createNamespace({ body: { metadata: { name: 'js-inf' } } });
      await core.createNamespace({ body: { metadata: { name: 'js-noise' } } });
      await core.createNamespacedConfigMap({ namespace: 'js-inf', body: { metadata: { name: 'before' } } });
      let lists = 0;
      const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/js-inf/configmaps', () => {
        lists++;
        return core.listNamespacedConfigMap({ namespace: 'js-inf' });
      });
      const added: string[] = [];
      const errors: unknown[] = [];
      informer.on('add', (o) => added.push(o.metadata!.name!));
      informer.on('error', (e) => errors.push(e));
      await informer.start();
      try {
        assert.equal(lists, 1);
        assert.deepEqual(informer.list().map((o) => o.metadata?.name), ['before']);
        await core.createNamespacedConfigMap({ namespace: 'js-inf', body: { metadata: { name: 'live' } } });
        await eventually(async () => informer.get('live', 'js-inf') !== undefined);

        // The informer sees nothing in js-noise, so its resourceVersion stays where it was while
        // 60 writes push it out of the 50-event watch-cache window; compaction then removes it from
        // storage too. Its next watch (the server ends each one after 1-2 s) gets 410, and it relists.
        for (let i = 0; i < 60; i++) await core.createNamespacedConfigMap({ namespace: 'js-noise', body: { metadata: { name: `n-${i}` } } });
        await t.server.store.compact(await t.server.store.currentRevision());
        await eventually(async () => lists >= 2, 20_000);
        assert.deepEqual(errors, [], 'a 410 is handled by relisting, not reported');

        await core.createNamespacedConfigMap({ namespace: 'js-inf', body: { metadata: { name: 'after' } } });
        await eventually(async () => informer.get('after', 'js-inf') !== undefined);
        assert.deepEqual(informer.list().map((o) => o.metadata?.name).sort(), ['after', 'before', 'live']);
        assert.deepEqual(added, ['before', 'live', 'after'], 'the relist found nothing new to add');
      } finally {
        await informer.stop();
      }
    });

    it('KubernetesObjectApi: create, read, list, patch, delete, resolving kinds through discovery', async () => {
      const api = KubernetesObjectApi.makeApiClient(kc);
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'js-obj', namespace: 'default' }, data: { a: '1' } };
      const created = await api.create<V1ConfigMap>(cm);
      assert.ok(created.metadata?.uid);
      const read = await api.read<V1ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'js-obj', namespace: 'default' } });
      assert.deepEqual(read.data, { a: '1' });
      // The default patch type is strategic merge.
      const patched = await api.patch<V1ConfigMap>({ ...cm, data: { b: '2' } });
      assert.deepEqual(patched.data, { a: '1', b: '2' });
      const merged = await api.patch<V1ConfigMap>({ ...cm, data: { a: null } } as unknown as V1ConfigMap, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch);
      assert.deepEqual(merged.data, { b: '2' });
      const list = await api.list<V1ConfigMap>('v1', 'ConfigMap', 'default');
      assert.ok(list.items.some((i) => i.metadata?.name === 'js-obj'));

      // A manifest written for Kubernetes: the k8s.io group is discovered and served.
      const role: KubernetesObject & { rules: unknown[] } = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'js-reader', namespace: 'default' }, rules: [] };
      const createdRole = await api.create(role);
      assert.equal(createdRole.apiVersion, 'rbac.authorization.k8s.io/v1');
      const deploy = await api.create({ apiVersion: 'apps/v1', kind: 'Deployment', ...deployment('js-obj-web', 1), metadata: { name: 'js-obj-web', namespace: 'default' } } as KubernetesObject);
      assert.equal(deploy.metadata?.generation, 1);

      await api.delete(cm);
      await api.delete(role);
      await api.delete({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'js-obj-web', namespace: 'default' } });
      assert.equal((await apiError(api.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'js-obj', namespace: 'default' } }))).code, 404);
    });

    it('custom resources: a CRD through ApiextensionsV1Api, CustomObjectsApi CRUD and 422, KubernetesObjectApi by discovery', async () => {
      const ext = kc.makeApiClient(ApiextensionsV1Api);
      await ext.createCustomResourceDefinition({ body: {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'crontabs.js.example.com' },
        spec: {
          group: 'js.example.com', scope: 'Namespaced', names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, replicas: { type: 'integer', minimum: 1, _default: 1 } } } } } } }],
        },
      } });
      await eventually(async () => ((await ext.readCustomResourceDefinition({ name: 'crontabs.js.example.com' })).status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True'));
      const co = kc.makeApiClient(CustomObjectsApi);
      const at = { group: 'js.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' };
      const made = await co.createNamespacedCustomObject({ ...at, body: { apiVersion: 'js.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly' }, spec: { cronSpec: '0 0 * * *' } } }) as { spec: { replicas: number } };
      assert.equal(made.spec.replicas, 1, 'the schema default is applied');
      const listed = await co.listNamespacedCustomObject(at) as { items: { metadata: { name: string } }[] };
      assert.deepEqual(listed.items.map((i) => i.metadata.name), ['nightly']);
      const patched = await co.patchNamespacedCustomObject({ ...at, name: 'nightly', body: [{ op: 'replace', path: '/spec/replicas', value: 2 }] }) as { spec: { replicas: number } };
      assert.equal(patched.spec.replicas, 2);
      const bad = await apiError(co.createNamespacedCustomObject({ ...at, body: { apiVersion: 'js.example.com/v1', kind: 'CronTab', metadata: { name: 'bad' }, spec: { replicas: 0 } } }));
      assert.equal(bad.code, 422);
      assert.match(String(bad.body), /spec\.replicas in body should be greater than or equal to 1/);
      const api = KubernetesObjectApi.makeApiClient(kc);
      const read = await api.read({ apiVersion: 'js.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly', namespace: 'default' } }) as KubernetesObject & { spec: { replicas: number } };
      assert.equal(read.spec.replicas, 2);
      await co.deleteNamespacedCustomObject({ ...at, name: 'nightly' });
      await ext.deleteCustomResourceDefinition({ name: 'crontabs.js.example.com' });
    });

    it('KubernetesObjectApi server-side apply: create, update, conflict, force', async () => {
      const api = KubernetesObjectApi.makeApiClient(kc);
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'js-ssa', namespace: 'default' }, data: { a: '1', b: '2' } };
      const apply = (spec: KubernetesObject, manager: string, force: boolean) => api.patch<V1ConfigMap>(spec, undefined, undefined, manager, force, PatchStrategy.ServerSideApply);
      const created = await apply(cm, 'js-manager', false);
      assert.deepEqual(created.data, { a: '1', b: '2' });
      assert.ok(created.metadata?.managedFields?.some((m) => m.manager === 'js-manager' && m.operation === 'Apply'));

      const updated = await apply({ ...cm, data: { a: '1', c: '3' } } as KubernetesObject, 'js-manager', false);
      assert.deepEqual(updated.data, { a: '1', c: '3' }, 'a field the manager stopped applying is removed');

      const conflict = await apiError(apply({ ...cm, data: { a: 'other' } } as KubernetesObject, 'js-other', false));
      assert.equal(conflict.code, 409);
      assert.equal(JSON.parse(conflict.body).reason, 'Conflict');
      const forced = await apply({ ...cm, data: { a: 'other' } } as KubernetesObject, 'js-other', true);
      assert.equal(forced.data?.a, 'other');
      await api.delete(cm);
    });
  });
}
