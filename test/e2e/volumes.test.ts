// Persistent volumes end to end: the PersistentVolume binder and the default
// local-path provisioner started on a server with the scheduler and
// simulated nodes. A claim of the default class (local-path,
// WaitForFirstConsumer) waits for its pod; the scheduler picks the node,
// marks the claim, the provisioner makes a hostPath volume pinned to that
// node, the binder binds the two, and only then is the pod bound. Static
// volumes bind Immediate claims; deleting claims releases volumes by their
// reclaim policy; kubectl shows it. The main flow on etcd too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HARNESS_CONTROLLERS, eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { startLocalPathProvisioner, startPersistentVolumeBinder } from '../../src/controllers/volume/index.js';
import type { Controller } from '../../src/controllers/context.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = 'vols';

const claim = (name: string, o: { cls?: string | null; size?: string; volumeName?: string; modes?: string[] } = {}): Obj => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
  spec: {
    accessModes: o.modes ?? ['ReadWriteOnce'], resources: { requests: { storage: o.size ?? '1Gi' } },
    ...(o.cls !== null && o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.volumeName ? { volumeName: o.volumeName } : {}),
  },
});
const volume = (name: string, o: { size?: string; policy?: string; cls?: string } = {}): Obj => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name },
  spec: {
    capacity: { storage: o.size ?? '2Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: o.policy ?? 'Retain',
    storageClassName: o.cls ?? '', hostPath: { path: `/srv/${name}` },
  },
});
const podUsing = (name: string, claimName: string): Obj => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
});

for (const backend of BACKENDS) {
  const full = backend.name === 'sqlite';
  describe(`persistent volumes (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    const started: Controller[] = [];
    const kubectl = kubectlFor(() => t);
    const get = async (path: string): Promise<Obj> => (await t.req('GET', path)).body;
    const events = async (name: string): Promise<Obj[]> =>
      (await get(`/api/v1/namespaces/${NS}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`)).items;
    const hasEvent = async (name: string, reason: string, message?: string) => (await events(name)).some((e) => e.reason === reason && (message === undefined || e.message === message));
    const create = async (path: string, body: Obj) => {
      const r = await t.req('POST', path, body);
      assert.equal(r.status, 201, r.text);
      return r.body as Obj;
    };
    const pvc = (name: string) => get(`/api/v1/namespaces/${NS}/persistentvolumeclaims/${name}`);
    const pv = (name: string) => get(`/api/v1/persistentvolumes/${name}`);

    before(async () => {
      t = await backend.start({ controllerManager: { controllers: [...HARNESS_CONTROLLERS, 'nodelifecycle'], scheduler: true, simulatedNodes: 2 } });
      const ctx = t.server.controllerContext;
      started.push(startPersistentVolumeBinder(ctx, { syncPeriodMs: 1000 }), startLocalPathProvisioner(ctx));
      for (const c of started) await c.start();
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
      await eventually(async () => (await get('/api/v1/nodes')).items.filter((n: Obj) => !(n.spec.taints ?? []).length).length === 2, 20_000);
    });
    after(async () => {
      for (const c of started) await c.stop();
      kubectl.cleanup();
      await t?.stop();
    });

    it('sets up the local-path StorageClass as the default class (WaitForFirstConsumer, Delete, provisioner svc.io/local-path)', async () => {
      await eventually(async () => (await t.req('GET', '/apis/storage.k8s.io/v1/storageclasses/local-path')).status === 200);
      const cls = await get('/apis/storage.k8s.io/v1/storageclasses/local-path');
      assert.equal(cls.provisioner, 'svc.io/local-path');
      assert.equal(cls.volumeBindingMode, 'WaitForFirstConsumer');
      assert.equal(cls.reclaimPolicy, 'Delete');
      assert.equal(cls.metadata.annotations['storageclass.kubernetes.io/is-default-class'], 'true');
    });

    it('a claim of the default class waits for its pod; the pod\'s node gets a provisioned hostPath volume, the claim binds, then the pod is bound', async () => {
      const made = await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('data', { size: '3Gi' }));
      assert.equal(made.spec.storageClassName, 'local-path', 'the DefaultStorageClass admission plugin assigned the default class');
      await eventually(() => hasEvent('data', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding'));
      assert.equal((await pvc('data')).status.phase, 'Pending');
      await create(`/api/v1/namespaces/${NS}/pods`, podUsing('app', 'data'));
      await eventually(async () => (await pvc('data')).status.phase === 'Bound' && !!(await get(`/api/v1/namespaces/${NS}/pods/app`)).spec.nodeName, 30_000);
      const c = await pvc('data');
      const pod = await get(`/api/v1/namespaces/${NS}/pods/app`);
      const node = pod.spec.nodeName as string;
      const name = `pvc-${c.metadata.uid}`;
      assert.equal(c.spec.volumeName, name);
      assert.equal(c.metadata.annotations['volume.kubernetes.io/selected-node'], node);
      assert.equal(c.metadata.annotations['volume.kubernetes.io/storage-provisioner'], 'svc.io/local-path');
      assert.equal(c.metadata.annotations['volume.beta.kubernetes.io/storage-provisioner'], 'svc.io/local-path');
      assert.equal(c.metadata.annotations['pv.kubernetes.io/bind-completed'], 'yes');
      assert.equal(c.metadata.annotations['pv.kubernetes.io/bound-by-controller'], 'yes');
      assert.deepEqual(c.status.capacity, { storage: '3Gi' });
      assert.deepEqual(c.status.accessModes, ['ReadWriteOnce']);
      const v = await pv(name);
      assert.equal(v.status.phase, 'Bound');
      assert.equal(v.metadata.annotations['pv.kubernetes.io/provisioned-by'], 'svc.io/local-path');
      assert.deepEqual(v.spec.hostPath, { path: `/var/lib/svc/storage/${name}_${NS}_data`, type: 'DirectoryOrCreate' });
      assert.deepEqual(v.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0], { key: 'kubernetes.io/hostname', operator: 'In', values: [node] });
      assert.equal(v.spec.persistentVolumeReclaimPolicy, 'Delete');
      assert.equal(v.spec.storageClassName, 'local-path');
      assert.equal(v.spec.claimRef.uid, c.metadata.uid);
      assert.ok(await hasEvent('data', 'ExternalProvisioning', 'waiting for a volume to be created, either by external provisioner "svc.io/local-path" or manually created by system administrator'));
      assert.ok(await hasEvent('data', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`));
      await eventually(async () => (await get(`/api/v1/namespaces/${NS}/pods/app`)).status.phase === 'Running', 20_000);
    });

    it('kubectl get pvc and pv show the claim Bound to its volume', { skip: kubectlMissing }, async () => {
      const r = await kubectl('get', 'pvc', 'data', '-n', NS);
      assert.equal(r.code, 0, r.err);
      const row = r.out.split('\n')[1]!.split(/\s+/);
      const c = await pvc('data');
      assert.deepEqual(row.slice(0, 6), ['data', 'Bound', c.spec.volumeName, '3Gi', 'RWO', 'local-path']);
      const v = await kubectl('get', 'pv', c.spec.volumeName);
      assert.equal(v.code, 0, v.err);
      assert.deepEqual(v.out.split('\n')[1]!.split(/\s+/).slice(0, 7), [c.spec.volumeName, '3Gi', 'RWO', 'Delete', 'Bound', `${NS}/data`, 'local-path']);
    });

    it('deleting the pod and then the claim deletes the provisioned volume (reclaim policy Delete)', async () => {
      const name = (await pvc('data')).spec.volumeName as string;
      const gone = await t.req('DELETE', `/api/v1/namespaces/${NS}/pods/app`, { gracePeriodSeconds: 0 });
      assert.equal(gone.status, 200, gone.text);
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/pods/app`)).status === 404, 20_000);
      assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/persistentvolumeclaims/data`)).status, 200);
      await eventually(async () => (await t.req('GET', `/api/v1/persistentvolumes/${name}`)).status === 404, 20_000);
    });

    it('a static volume binds an Immediate claim (smallest fitting); deleting the claim leaves the Retain volume Released', async () => {
      await create('/api/v1/persistentvolumes', volume('static-big', { size: '10Gi' }));
      await create('/api/v1/persistentvolumes', volume('static-fit', { size: '2Gi' }));
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('static', { cls: '' }));
      await eventually(async () => (await pvc('static')).status.phase === 'Bound' && (await pv('static-fit')).status.phase === 'Bound', 20_000);
      const c = await pvc('static');
      const v = await pv('static-fit');
      assert.equal(c.spec.volumeName, 'static-fit');
      assert.deepEqual(c.status.capacity, { storage: '2Gi' });
      assert.equal(v.spec.claimRef.name, 'static');
      assert.equal(v.spec.claimRef.namespace, NS);
      assert.equal(v.spec.claimRef.uid, c.metadata.uid);
      assert.equal(v.metadata.annotations['pv.kubernetes.io/bound-by-controller'], 'yes');
      assert.equal((await pv('static-big')).status.phase, 'Available');
      assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/persistentvolumeclaims/static`)).status, 200);
      await eventually(async () => (await pv('static-fit')).status.phase === 'Released', 20_000);
      assert.equal((await pv('static-fit')).spec.claimRef.uid, c.metadata.uid, 'a Released volume keeps its claimRef');
    });

    if (!full) return;

    it('a volume pre-bound to a claim (spec.claimRef) goes to it and not to another claim', async () => {
      const pre = volume('reserved', { size: '1Gi' });
      pre.spec.claimRef = { namespace: NS, name: 'wants-reserved' };
      await create('/api/v1/persistentvolumes', pre);
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('other', { cls: '', size: '1Gi' }));
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('wants-reserved', { cls: '', size: '1Gi' }));
      await eventually(async () => (await pvc('wants-reserved')).status.phase === 'Bound', 20_000);
      assert.equal((await pvc('wants-reserved')).spec.volumeName, 'reserved');
      assert.equal((await pv('reserved')).metadata.annotations?.['pv.kubernetes.io/bound-by-controller'], undefined, 'the user bound the volume');
      await eventually(async () => (await pvc('other')).spec.volumeName === 'static-big', 20_000);
    });

    it('a claim naming a volume too small for it stays Pending with VolumeMismatch', async () => {
      await create('/api/v1/persistentvolumes', volume('tiny', { size: '100Mi' }));
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('too-big', { cls: '', size: '1Gi', volumeName: 'tiny' }));
      await eventually(() => hasEvent('too-big', 'VolumeMismatch', 'Cannot bind to requested volume "tiny": requested PV is too small'));
      assert.equal((await pvc('too-big')).status.phase, 'Pending');
      assert.equal((await pv('tiny')).status.phase, 'Available');
    });

    it('a claim without a class and without a fitting volume: FailedBinding', async () => {
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('nothing', { cls: '', size: '500Gi' }));
      await eventually(() => hasEvent('nothing', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set'));
      assert.equal((await pvc('nothing')).status.phase, 'Pending');
    });

    it('released volumes: Delete deletes a static one; Recycle fails with kube\'s message', async () => {
      await create('/api/v1/persistentvolumes', volume('del', { size: '50Gi', policy: 'Delete' }));
      await create('/api/v1/persistentvolumes', volume('rec', { size: '60Gi', policy: 'Recycle' }));
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('c-del', { cls: '', size: '50Gi' }));
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('c-rec', { cls: '', size: '60Gi' }));
      await eventually(async () => (await pvc('c-del')).spec.volumeName === 'del' && (await pvc('c-rec')).spec.volumeName === 'rec' && (await pv('rec')).status.phase === 'Bound', 20_000);
      for (const n of ['c-del', 'c-rec']) assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/persistentvolumeclaims/${n}`)).status, 200);
      await eventually(async () => (await t.req('GET', '/api/v1/persistentvolumes/del')).status === 404, 20_000);
      await eventually(async () => (await pv('rec')).status.phase === 'Failed', 20_000);
      assert.equal((await pv('rec')).status.message, 'No recycler plugin found for the volume!');
      // the event follows the status write
      await eventually(async () => ((await get(`/api/v1/namespaces/default/events?fieldSelector=${encodeURIComponent('involvedObject.name=rec')}`)).items as Obj[])
        .some((e) => e.reason === 'VolumeFailedRecycle' && e.type === 'Warning' && e.message === 'No recycler plugin found for the volume!'));
    });

    it('the pod is bound only once its claim is: with an external provisioner that has not answered yet, the pod waits in PreBind', async () => {
      await create('/apis/storage.k8s.io/v1/storageclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'external' }, provisioner: 'example.com/slow', volumeBindingMode: 'WaitForFirstConsumer' });
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('slow', { cls: 'external' }));
      await create(`/api/v1/namespaces/${NS}/pods`, podUsing('waiter', 'slow'));
      await eventually(() => hasEvent('slow', 'ExternalProvisioning', 'waiting for a volume to be created, either by external provisioner "example.com/slow" or manually created by system administrator'), 20_000);
      const c = await pvc('slow');
      const node = c.metadata.annotations['volume.kubernetes.io/selected-node'] as string;
      assert.ok(node, 'the scheduler chose a node for the claim');
      assert.equal(c.metadata.annotations['volume.kubernetes.io/storage-provisioner'], 'example.com/slow');
      assert.equal((await get(`/api/v1/namespaces/${NS}/pods/waiter`)).spec.nodeName, undefined, 'not bound while the claim is not');
      // the "external provisioner" answers: a volume on that node, pre-bound to the claim
      const v = volume('slow-pv', { size: '1Gi', cls: 'external' });
      v.spec.claimRef = { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: NS, name: 'slow', uid: c.metadata.uid };
      v.spec.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } };
      v.metadata.annotations = { 'pv.kubernetes.io/provisioned-by': 'example.com/slow' };
      await create('/api/v1/persistentvolumes', v);
      await eventually(async () => (await get(`/api/v1/namespaces/${NS}/pods/waiter`)).spec.nodeName === node, 20_000);
      assert.equal((await pvc('slow')).status.phase, 'Bound');
      assert.equal((await pvc('slow')).spec.volumeName, 'slow-pv');
    });

    it('a claim placed on a node that does not exist: ProvisioningFailed, and the selected-node annotation removed for the scheduler to try again', async () => {
      const c = claim('nowhere', { cls: 'local-path' });
      c.metadata.annotations = { 'volume.kubernetes.io/selected-node': 'no-such-node' };
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, c);
      await eventually(() => hasEvent('nowhere', 'ProvisioningFailed', 'failed to provision volume with StorageClass "local-path": nodes "no-such-node" not found'), 20_000);
      await eventually(async () => (await pvc('nowhere')).metadata.annotations?.['volume.kubernetes.io/selected-node'] === undefined, 20_000);
      await eventually(() => hasEvent('nowhere', 'WaitForFirstConsumer'), 20_000);
      assert.equal((await pvc('nowhere')).status.phase, 'Pending');
    });

    it('the StorageClass is made once: deleted by the admin, a new provisioner start leaves it deleted', async () => {
      assert.equal((await t.req('DELETE', '/apis/storage.k8s.io/v1/storageclasses/local-path')).status, 200);
      const again = startLocalPathProvisioner(t.server.controllerContext, { provisioner: 'svc.io/local-path' });
      started.push(again);
      await again.start();
      assert.equal((await t.req('GET', '/apis/storage.k8s.io/v1/storageclasses/local-path')).status, 404);
      assert.equal((await get('/api/v1/namespaces/svc-system/configmaps/local-path-provisioner')).data.storageClass, 'local-path');
    });

    it('with the record deleted it is made again, and not as the default when another class is', async () => {
      await create('/apis/storage.k8s.io/v1/storageclasses', { metadata: { name: 'admins-default', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/x' });
      assert.equal((await t.req('DELETE', '/api/v1/namespaces/svc-system/configmaps/local-path-provisioner')).status, 200);
      const again = startLocalPathProvisioner(t.server.controllerContext);
      started.push(again);
      await again.start();
      const cls = await get('/apis/storage.k8s.io/v1/storageclasses/local-path');
      assert.equal(cls.provisioner, 'svc.io/local-path');
      assert.equal(cls.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'], undefined);
    });

    it('a bound claim whose volume is deleted is Lost (ClaimLost)', async () => {
      await create('/api/v1/persistentvolumes', volume('doomed', { size: '70Gi' }));
      await create(`/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('loser', { cls: '', size: '70Gi' }));
      await eventually(async () => (await pvc('loser')).status.phase === 'Bound', 20_000);
      // past the pv-protection finalizer, as an admin forcing it
      const patched = await t.req('PATCH', '/api/v1/persistentvolumes/doomed', { metadata: { finalizers: null } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await t.req('DELETE', '/api/v1/persistentvolumes/doomed')).status, 200);
      await eventually(async () => (await pvc('loser')).status.phase === 'Lost', 20_000);
      await eventually(() => hasEvent('loser', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!'));
      const c = await pvc('loser');
      assert.equal(c.status.capacity, undefined);
      assert.equal(c.status.accessModes, undefined);
    });
  });
}
