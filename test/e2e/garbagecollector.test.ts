// The garbage collector end to end: a real server, the collector started on
// its controller context, objects written over HTTPS (and by kubectl 1.27):
// background, foreground and orphan propagation, dangling and wrong-uid
// owners, partial ownership, custom resources as owners, cluster-scoped
// owners, invalid cross-scope references (OwnerRefInvalidNamespace), and
// 3,000 pods of a deleted ReplicaSet (timed, reported, not asserted).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { startGarbageCollector, type GarbageCollectorController } from '../../src/controllers/garbagecollector/index.js';
import { ControllerClient } from '../../src/controllers/client.js';

const CM = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
const SECRETS = (ns: string) => `/api/v1/namespaces/${ns}/secrets`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

interface Ref { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean; controller?: boolean }

const refTo = (o: { apiVersion?: string; kind?: string; metadata: { name: string; uid: string } }, extra: Partial<Ref> = {}): Ref =>
  ({ apiVersion: o.apiVersion ?? 'v1', kind: o.kind ?? 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid, ...extra });

async function created(t: TestServer, path: string, body: unknown) {
  const r = await t.req('POST', path, body);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

const configMap = (t: TestServer, ns: string, name: string, owners: Ref[] = [], finalizers?: string[]) =>
  created(t, CM(ns), { metadata: { name, ...(owners.length ? { ownerReferences: owners } : {}), ...(finalizers ? { finalizers } : {}) }, data: { k: 'v' } });

const gone = (t: TestServer, path: string) => eventually(async () => (await t.req('GET', path)).status === 404);

/** Starts the collector on the test server's controller context (retries quickly, monitors resynced every second). */
async function startCollector(t: TestServer): Promise<GarbageCollectorController> {
  const gc = startGarbageCollector(t.server.controllerContext, { retryMs: 100, syncPeriodMs: 1000 });
  await gc.start();
  return gc;
}

function flows(name: string, start: () => Promise<TestServer>) {
  describe(`garbage collector: ${name}`, () => {
    let t: TestServer;
    let gc: GarbageCollectorController;
    before(async () => {
      t = await start();
      gc = await startCollector(t);
      for (const ns of ['gc', 'other']) assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    });
    after(async () => {
      gc?.stop();
      await t?.stop();
    });

    it('background: the dependents (a ConfigMap and a Secret) of a deleted ConfigMap are deleted', async () => {
      const owner = await configMap(t, 'gc', 'bg-owner');
      await configMap(t, 'gc', 'bg-dep', [refTo(owner)]);
      await created(t, SECRETS('gc'), { metadata: { name: 'bg-secret', ownerReferences: [refTo(owner)] }, stringData: { a: 'b' } });
      const unrelated = await configMap(t, 'gc', 'bg-unrelated');
      assert.equal((await t.req('DELETE', `${CM('gc')}/bg-owner`)).status, 200);
      await gone(t, `${CM('gc')}/bg-dep`);
      await gone(t, `${SECRETS('gc')}/bg-secret`);
      assert.equal((await t.req('GET', `${CM('gc')}/bg-unrelated`)).body.metadata.uid, unrelated.metadata.uid);
    });

    it('foreground: the owner keeps foregroundDeletion while a blocking dependent exists, and goes with it', async () => {
      const owner = await configMap(t, 'gc', 'fg-owner');
      // the dependent holds its own finalizer, so it stays (Terminating) until the test lets it go
      await configMap(t, 'gc', 'fg-dep', [refTo(owner, { blockOwnerDeletion: true })], ['example.com/hold']);
      await configMap(t, 'gc', 'fg-free', [refTo(owner)]);
      const del = await t.req('DELETE', `${CM('gc')}/fg-owner`, { propagationPolicy: 'Foreground' });
      assert.equal(del.status, 200, del.text);
      // the dependent is deleted (it has a deletionTimestamp), the non-blocking one is gone
      await eventually(async () => Boolean((await t.req('GET', `${CM('gc')}/fg-dep`)).body.metadata?.deletionTimestamp));
      await gone(t, `${CM('gc')}/fg-free`);
      const waiting = await t.req('GET', `${CM('gc')}/fg-owner`);
      assert.equal(waiting.status, 200, 'the owner waits for its blocking dependent');
      assert.ok(waiting.body.metadata.deletionTimestamp);
      assert.deepEqual(waiting.body.metadata.finalizers, ['foregroundDeletion']);
      // release the dependent: it goes, then the owner's finalizer is removed and the owner goes
      const dep = (await t.req('GET', `${CM('gc')}/fg-dep`)).body;
      const put = await t.req('PUT', `${CM('gc')}/fg-dep`, { ...dep, metadata: { ...dep.metadata, finalizers: [] } });
      assert.equal(put.status, 200, put.text);
      await gone(t, `${CM('gc')}/fg-dep`);
      await gone(t, `${CM('gc')}/fg-owner`);
    });

    it('foreground through two levels: a dependent with dependents is deleted in foreground too', async () => {
      const top = await configMap(t, 'gc', 'fg2-top');
      const mid = await configMap(t, 'gc', 'fg2-mid', [refTo(top, { blockOwnerDeletion: true })]);
      await configMap(t, 'gc', 'fg2-leaf', [refTo(mid, { blockOwnerDeletion: true })], ['example.com/hold']);
      assert.equal((await t.req('DELETE', `${CM('gc')}/fg2-top`, { propagationPolicy: 'Foreground' })).status, 200);
      await eventually(async () => ((await t.req('GET', `${CM('gc')}/fg2-mid`)).body.metadata?.finalizers ?? []).includes('foregroundDeletion'));
      assert.equal((await t.req('GET', `${CM('gc')}/fg2-top`)).status, 200, 'the top waits for the middle');
      // the middle's dependents are deleted after its finalizer is set (the collector's next pass)
      await eventually(async () => Boolean((await t.req('GET', `${CM('gc')}/fg2-leaf`)).body.metadata?.deletionTimestamp));
      const leaf = (await t.req('GET', `${CM('gc')}/fg2-leaf`)).body;
      assert.ok(leaf.metadata.deletionTimestamp, 'the leaf is being deleted');
      assert.equal((await t.req('PUT', `${CM('gc')}/fg2-leaf`, { ...leaf, metadata: { ...leaf.metadata, finalizers: [] } })).status, 200);
      await gone(t, `${CM('gc')}/fg2-mid`);
      await gone(t, `${CM('gc')}/fg2-top`);
    });

    it('orphan: the owner goes, its dependents stay without the reference (other references kept)', async () => {
      const owner = await configMap(t, 'gc', 'or-owner');
      const other = await configMap(t, 'gc', 'or-other');
      await configMap(t, 'gc', 'or-dep1', [refTo(owner, { controller: true, blockOwnerDeletion: true })]);
      await configMap(t, 'gc', 'or-dep2', [refTo(owner), refTo(other)]);
      assert.equal((await t.req('DELETE', `${CM('gc')}/or-owner`, { propagationPolicy: 'Orphan' })).status, 200);
      await gone(t, `${CM('gc')}/or-owner`);
      const d1 = await t.req('GET', `${CM('gc')}/or-dep1`);
      assert.equal(d1.status, 200);
      assert.equal(d1.body.metadata.ownerReferences, undefined);
      const d2 = await t.req('GET', `${CM('gc')}/or-dep2`);
      assert.deepEqual(d2.body.metadata.ownerReferences.map((r: Ref) => r.name), ['or-other']);
    });

    it('a dangling owner (never existed, or the name now has another uid) is collected; the namesake is not', async () => {
      const namesake = await configMap(t, 'gc', 'dg-owner');
      await configMap(t, 'gc', 'dg-wrong-uid', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'dg-owner', uid: '00000000-0000-0000-0000-000000000001' }]);
      await configMap(t, 'gc', 'dg-missing', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'dg-nobody', uid: '00000000-0000-0000-0000-000000000002' }]);
      await gone(t, `${CM('gc')}/dg-wrong-uid`);
      await gone(t, `${CM('gc')}/dg-missing`);
      assert.equal((await t.req('GET', `${CM('gc')}/dg-owner`)).body.metadata.uid, namesake.metadata.uid);
    });

    it('some owners gone, some alive: the dead references are removed, the object kept', async () => {
      const alive = await configMap(t, 'gc', 'pt-alive');
      const doomed = await configMap(t, 'gc', 'pt-doomed');
      await configMap(t, 'gc', 'pt-dep', [refTo(alive), refTo(doomed)]);
      assert.equal((await t.req('DELETE', `${CM('gc')}/pt-doomed`)).status, 200);
      await eventually(async () => (await t.req('GET', `${CM('gc')}/pt-dep`)).body.metadata.ownerReferences?.length === 1);
      const dep = await t.req('GET', `${CM('gc')}/pt-dep`);
      assert.equal(dep.status, 200);
      assert.deepEqual(dep.body.metadata.ownerReferences, [refTo(alive)]);
    });

    it('an owner named in the svc.io spelling of its group is the same owner (kept while it lives, collected after)', async () => {
      const owner = await created(t, '/apis/rbac.authorization.k8s.io/v1/namespaces/gc/roles', { metadata: { name: 'sp-role' }, rules: [] });
      await configMap(t, 'gc', 'sp-dep', [refTo({ ...owner, apiVersion: 'rbac.authorization.svc.io/v1' })]);
      await configMap(t, 'gc', 'sp-dep2', [refTo(owner)]);
      await gc.resyncMonitors();
      assert.equal((await t.req('GET', `${CM('gc')}/sp-dep`)).status, 200);
      assert.equal((await t.req('DELETE', '/apis/rbac.authorization.k8s.io/v1/namespaces/gc/roles/sp-role')).status, 200);
      await gone(t, `${CM('gc')}/sp-dep`);
      await gone(t, `${CM('gc')}/sp-dep2`);
    });

    it('a cluster-scoped owner (ClusterRole) of namespaced dependents: they go with it', async () => {
      const role = await created(t, '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'gc-owner-role' }, rules: [] });
      await configMap(t, 'gc', 'cs-dep', [refTo(role)]);
      await configMap(t, 'other', 'cs-dep', [refTo(role)]);
      assert.equal((await t.req('DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles/gc-owner-role')).status, 200);
      await gone(t, `${CM('gc')}/cs-dep`);
      await gone(t, `${CM('other')}/cs-dep`);
    });
  });
}

flows('sqlite', () => startTestServer());
const etcd = BACKENDS.find((b) => b.name === 'etcd')!;
if (etcd.skip) describe('garbage collector: etcd', { skip: etcd.skip }, () => it('runs on etcd'));
else flows('etcd', () => etcd.start());

describe('garbage collector: scopes, custom resources, kubectl', () => {
  let t: TestServer;
  let gc: GarbageCollectorController;
  /** How many times the collector finished looking at each uid. */
  const looked = new Map<string, number>();
  const looks = (uid: string) => looked.get(uid) ?? 0;
  before(async () => {
    t = await startTestServer();
    gc = startGarbageCollector(t.server.controllerContext, { retryMs: 100, syncPeriodMs: 1000 });
    const worker = gc.collector.attemptToDeleteWorker.bind(gc.collector);
    gc.collector.attemptToDeleteWorker = async (n) => {
      try {
        return await worker(n);
      } finally {
        looked.set(n.identity.uid, looks(n.identity.uid) + 1);
      }
    };
    await gc.start();
    for (const ns of ['a', 'b']) assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
  });
  after(async () => {
    gc?.stop();
    await t?.stop();
  });

  const events = async (ns: string, reason: string) =>
    (await t.req('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=reason%3D${reason}`)).body.items as { message: string; type: string; involvedObject: Ref & { namespace?: string }; source: { component: string } }[];

  it('a cluster-scoped dependent naming a namespaced owner: OwnerRefInvalidNamespace, and it is kept', async () => {
    const owner = await configMap(t, 'a', 'ns-owner');
    const dep = await created(t, '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'gc-bad-child', ownerReferences: [refTo(owner)] }, rules: [] });
    let found: Awaited<ReturnType<typeof events>> = [];
    await eventually(async () => (found = await events('default', 'OwnerRefInvalidNamespace')).length > 0);
    assert.equal(found[0]!.type, 'Warning');
    assert.equal(found[0]!.message, `ownerRef [v1/ConfigMap, namespace: , name: ns-owner, uid: ${owner.metadata.uid}] does not exist in namespace ""`);
    assert.equal(found[0]!.source.component, 'garbage-collector-controller');
    assert.deepEqual({ ...found[0]!.involvedObject, resourceVersion: undefined }, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'gc-bad-child', uid: dep.metadata.uid, resourceVersion: undefined,
    });
    // never deleted, not even once its namespaced "owner" is gone (and the collector looked at it again)
    const before = looks(dep.metadata.uid);
    assert.equal((await t.req('DELETE', `${CM('a')}/ns-owner`)).status, 200);
    await eventually(async () => looks(dep.metadata.uid) > before);
    const still = await t.req('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/gc-bad-child');
    assert.equal(still.status, 200);
    assert.equal(still.body.metadata.deletionTimestamp, undefined);
  });

  it('a namespaced dependent naming an owner in another namespace: the event, and the owner counts as absent', async () => {
    const owner = await configMap(t, 'a', 'xns-owner');
    await configMap(t, 'b', 'xns-dep', [refTo(owner)]);
    let found: Awaited<ReturnType<typeof events>> = [];
    await eventually(async () => (found = await events('b', 'OwnerRefInvalidNamespace')).length > 0);
    assert.equal(found[0]!.message, `ownerRef [v1/ConfigMap, namespace: b, name: xns-owner, uid: ${owner.metadata.uid}] does not exist in namespace "b"`);
    assert.equal(found[0]!.involvedObject.namespace, 'b');
    await gone(t, `${CM('b')}/xns-dep`);
    assert.equal((await t.req('GET', `${CM('a')}/xns-owner`)).status, 200, 'the owner in the other namespace is untouched');
  });

  it('a custom resource owns built-ins: deleting it deletes them (and a custom resource owned by a ConfigMap goes too)', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.gc.example.com' },
      spec: {
        group: 'gc.example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    await created(t, CRDS, crd);
    const path = '/apis/gc.example.com/v1/namespaces/a/gadgets';
    await eventually(async () => (await t.req('GET', path)).status === 200);
    const gadget = await created(t, path, { apiVersion: 'gc.example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } });
    await configMap(t, 'a', 'gadget-cm', [refTo(gadget)]);
    await created(t, SECRETS('a'), { metadata: { name: 'gadget-secret', ownerReferences: [refTo(gadget, { blockOwnerDeletion: true })] } });
    const cmOwner = await configMap(t, 'a', 'gadget-owner');
    await created(t, path, { apiVersion: 'gc.example.com/v1', kind: 'Gadget', metadata: { name: 'g2', ownerReferences: [refTo(cmOwner)] } });
    await gc.resyncMonitors();
    assert.equal((await t.req('DELETE', `${path}/g1`, { propagationPolicy: 'Foreground' })).status, 200);
    await gone(t, `${CM('a')}/gadget-cm`);
    await gone(t, `${SECRETS('a')}/gadget-secret`);
    await gone(t, `${path}/g1`);
    assert.equal((await t.req('DELETE', `${CM('a')}/gadget-owner`)).status, 200);
    await gone(t, `${path}/g2`);
  });

  it('a CRD that goes and comes back: its monitor follows, and the new resources are collected', async () => {
    const crd = (plural: string, kind: string) => ({
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.cycle.example.com` },
      spec: {
        group: 'cycle.example.com', scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    const path = '/apis/cycle.example.com/v1/namespaces/a/sprockets';
    for (const round of [1, 2]) {
      await created(t, CRDS, crd('sprockets', 'Sprocket'));
      await eventually(async () => (await t.req('GET', path)).status === 200);
      await eventually(async () => gc.monitoredResources().includes('cycle.example.com/sprockets'));
      const owner = await created(t, path, { apiVersion: 'cycle.example.com/v1', kind: 'Sprocket', metadata: { name: `s${round}` } });
      await configMap(t, 'a', `sprocket-dep-${round}`, [refTo(owner)]);
      assert.equal((await t.req('DELETE', `${path}/s${round}`)).status, 200);
      await gone(t, `${CM('a')}/sprocket-dep-${round}`);
      // the CRD goes (its custom resources first): the monitor is dropped
      assert.equal((await t.req('DELETE', `${CRDS}/sprockets.cycle.example.com`)).status, 200);
      await gone(t, `${CRDS}/sprockets.cycle.example.com`);
      await eventually(async () => !gc.monitoredResources().includes('cycle.example.com/sprockets'));
    }
  });

  const kubectl = kubectlFor(() => t);
  after(() => kubectl.cleanup());

  it('kubectl 1.27 delete --cascade=background|foreground|orphan', { skip: kubectlMissing }, async () => {
    for (const cascade of ['background', 'foreground', 'orphan']) {
      const owner = await configMap(t, 'a', `k-${cascade}`);
      await configMap(t, 'a', `k-${cascade}-dep`, [refTo(owner, { blockOwnerDeletion: true })]);
      const r = await kubectl('delete', 'configmap', `k-${cascade}`, '-n', 'a', `--cascade=${cascade}`);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out.trim(), `configmap "k-${cascade}" deleted`);
      await gone(t, `${CM('a')}/k-${cascade}`);
      if (cascade === 'orphan') {
        const dep = await t.req('GET', `${CM('a')}/k-${cascade}-dep`);
        assert.equal(dep.status, 200);
        assert.equal(dep.body.metadata.ownerReferences, undefined);
      } else {
        await gone(t, `${CM('a')}/k-${cascade}-dep`);
      }
    }
  });
});

describe('garbage collector: objects left dangling before it starts', () => {
  let t: TestServer;
  let gc: GarbageCollectorController | undefined;
  before(async () => (t = await startTestServer()));
  after(async () => {
    gc?.stop();
    await t?.stop();
  });

  it('collects them from its first lists; what still has an owner stays', async () => {
    const owner = await configMap(t, 'default', 'early-owner');
    const kept = await configMap(t, 'default', 'early-kept');
    await configMap(t, 'default', 'early-dep', [refTo(owner)]);
    await configMap(t, 'default', 'early-kept-dep', [refTo(kept)]);
    assert.equal((await t.req('DELETE', `${CM('default')}/early-owner`)).status, 200);
    assert.equal((await t.req('GET', `${CM('default')}/early-dep`)).status, 200, 'nothing collects before the collector runs');
    gc = await startCollector(t);
    await gone(t, `${CM('default')}/early-dep`);
    assert.equal((await t.req('GET', `${CM('default')}/early-kept-dep`)).status, 200);
  });
});

describe('garbage collector: 3,000 pods of a deleted ReplicaSet', () => {
  let t: TestServer;
  let gc: GarbageCollectorController;
  before(async () => {
    t = await startTestServer();
    gc = await startCollector(t);
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'scale' } })).status, 201);
  });
  after(async () => {
    gc?.stop();
    await t?.stop();
  });

  it('every pod gets its deletion started after the ReplicaSet is deleted', async (ctx) => {
    const N = 3000;
    const context = t.server.controllerContext;
    const admin = new ControllerClient(context.registry, context.authorizer, { name: 'gc-test-admin', groups: ['system:masters', 'system:authenticated'] });
    const podsT = { group: '', version: 'v1', resource: 'pods' };
    const rs = await admin.create({ group: 'apps', version: 'v1', resource: 'replicasets' }, 'scale', {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid!, controller: true, blockOwnerDeletion: true };
    for (let i = 0; i < N; i += 200) {
      await Promise.all(Array.from({ length: Math.min(200, N - i) }, (_, j) => admin.create(podsT, 'scale', {
        apiVersion: 'v1', kind: 'Pod',
        metadata: { name: `web-${i + j}`, labels: { app: 'web' }, ownerReferences: [owner] },
        // bound to a node, so a deletion is graceful (Terminating) as in the reference run, not immediate
        spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] },
      })));
    }
    const pods = context.informers.informer('', 'pods');
    await eventually(async () => pods.list('scale').length === N, 60_000);
    const started = Date.now();
    await admin.delete({ group: 'apps', version: 'v1', resource: 'replicasets' }, 'scale', 'web', { propagationPolicy: 'Background' });
    await eventually(async () => pods.list('scale').every((p) => p.metadata.deletionTimestamp), 120_000);
    ctx.diagnostic(`garbage collection of ${N} pods: ${Date.now() - started} ms`);
    const listed = await t.req('GET', '/api/v1/namespaces/scale/pods');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.items.length, N, 'the pods are Terminating (no kubelet here), not gone');
    assert.ok(listed.body.items.every((p: { metadata: { deletionTimestamp?: string } }) => p.metadata.deletionTimestamp));
  });
});
