// StatefulSets end to end (issue 24): the control plane with the scheduler and
// simulated nodes, the StatefulSet controller started on the server's
// controller context. kubectl 1.27 creates a StatefulSet with a
// volumeClaimTemplate (a WaitForFirstConsumer class of the local-path
// provisioner: each claim is provisioned on its pod's node and bound by the
// PersistentVolume binder before the scheduler binds the pod); pods
// appear one at a time in ordinal order, each after its predecessor is
// Running and Ready, with their claims; scaling down deletes from the highest
// ordinal; a rolling update honours the partition; rollout status, history
// and undo work; a failed pod is recreated; deleting the set with
// whenDeleted: Delete removes its claims through the garbage collector.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { startStatefulSetController } from '../../src/controllers/statefulset/index.js';
import { History, hashControllerRevision, newControllerRevision } from '../../src/controllers/history/index.js';
import { startTestServer } from './harness.js';
import type { Controller } from '../../src/controllers/context.js';
import type { ApiObject } from '../../src/registry/object.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = 'db';

const STS = (image: string) => `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
  namespace: ${NS}
spec:
  serviceName: web
  replicas: 3
  selector:
    matchLabels: {app: web}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: ${image}
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      storageClassName: late
      resources:
        requests: {storage: 1Gi}
`;

const ready = (p: ApiObject | Obj | undefined) =>
  !!p && (p as Obj).status?.phase === 'Running' && ((p as Obj).status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True');

for (const backend of BACKENDS) {
  describe(`StatefulSet controller on simulated nodes (${backend.name})`, { skip: backend.skip ?? kubectlMissing }, () => {
    let t: TestServer;
    let ctl: Controller;
    const kubectl = kubectlFor(() => t);
    /** Pods seen created, in order, with whether every lower ordinal was Running and Ready at that moment. */
    const created: { name: string; predecessorsReady: boolean }[] = [];
    /** Pods of web in the order they were first seen terminating or gone. */
    const deleted: string[] = [];
    const pods = async (): Promise<Obj[]> => (await t.req('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dweb`)).body.items;
    const live = async () => (await pods()).filter((p) => !p.metadata.deletionTimestamp);
    const sts = async (): Promise<Obj> => (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/statefulsets/web`)).body;
    const claims = async (): Promise<Obj[]> => (await t.req('GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims`)).body.items;
    const events = async (): Promise<Obj[]> => ((await t.req('GET', `/api/v1/namespaces/${NS}/events`)).body.items as Obj[])
      .filter((e) => e.source?.component === 'statefulset-controller');

    before(async () => {
      // every controller but the StatefulSet one, which the test starts itself (its events and timing observed)
      t = await backend.start({ controllerManager: { controllers: ['-statefulset', '*'], scheduler: true, simulatedNodes: 3 } });
      const ctx = t.server.controllerContext;
      const informer = ctx.informers.informer('', 'pods');
      const ordinal = (name: string) => Number(name.slice('web-'.length));
      const note = (p: ApiObject) => {
        if (p.metadata.namespace !== NS || !p.metadata.name?.startsWith('web-')) return;
        const o = ordinal(p.metadata.name);
        const lower = Array.from({ length: o }, (_, i) => informer.get(NS, `web-${i}`));
        created.push({ name: p.metadata.name, predecessorsReady: lower.every((q) => ready(q) && !q!.metadata.deletionTimestamp) });
      };
      const seenGoing = new Set<string>();
      const gone = (p: ApiObject) => {
        if (p.metadata.namespace !== NS || !p.metadata.name?.startsWith('web-') || seenGoing.has(p.metadata.uid!)) return;
        seenGoing.add(p.metadata.uid!);
        deleted.push(p.metadata.name);
      };
      informer.addHandler({ onAdd: note, onUpdate: (_o, p) => void (p.metadata.deletionTimestamp && gone(p)), onDelete: gone });
      await informer.start();
      ctl = startStatefulSetController(ctx);
      await ctl.start();
      // claims of the template are provisioned and bound before their pods are (VolumeBinding's PreBind waits):
      // the manager's binder and local-path provisioner serve class `late`
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
      const sc = await t.req('POST', '/apis/storage.k8s.io/v1/storageclasses', {
        metadata: { name: 'late' }, provisioner: 'svc.io/local-path', volumeBindingMode: 'WaitForFirstConsumer',
      });
      assert.equal(sc.status, 201, sc.text);
      const svc = await t.req('POST', `/api/v1/namespaces/${NS}/services`, {
        metadata: { name: 'web' }, spec: { clusterIP: 'None', selector: { app: 'web' }, ports: [{ port: 80 }] },
      });
      assert.equal(svc.status, 201, svc.text);
    });
    after(async () => {
      await ctl?.stop();
      kubectl.cleanup();
      await t?.stop();
    });

    it('kubectl apply: pods web-0..2 created in order, each once its predecessors are Running and Ready, with claims, identity and revision', async () => {
      const applied = await kubectl.with({ stdin: STS('nginx:1.25') }, 'apply', '-f', '-');
      assert.equal(applied.code, 0, applied.err);
      const rollout = await kubectl('rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.err + rollout.out);
      // kubectl 1.27 reports a defaulted partition (0) as a partitioned roll out
      assert.match(rollout.out, /partitioned roll out complete: 3 new pods have been updated/);
      assert.deepEqual(created.map((c) => c.name), ['web-0', 'web-1', 'web-2']);
      assert.ok(created.every((c) => c.predecessorsReady), JSON.stringify(created));

      const set = await sts();
      assert.equal(set.status.replicas, 3);
      assert.equal(set.status.readyReplicas, 3);
      assert.equal(set.status.availableReplicas, 3);
      assert.equal(set.status.currentReplicas, 3);
      assert.equal(set.status.updatedReplicas, 3);
      assert.equal(set.status.observedGeneration, set.metadata.generation);
      assert.equal(set.status.currentRevision, set.status.updateRevision);
      const revs = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items as Obj[];
      assert.equal(revs.length, 1);
      assert.equal(revs[0]!.metadata.name, set.status.updateRevision);
      assert.equal(revs[0]!.revision, 1);
      assert.equal(revs[0]!.metadata.ownerReferences[0].uid, set.metadata.uid);
      assert.equal(revs[0]!.data.spec.template.$patch, 'replace');

      for (const p of await pods()) {
        const n = p.metadata.name;
        assert.equal(p.metadata.labels['statefulset.kubernetes.io/pod-name'], n);
        assert.equal(p.metadata.labels['controller-revision-hash'], set.status.updateRevision);
        assert.equal(p.metadata.labels['apps.kubernetes.io/pod-index'], undefined, 'v1.27 has no pod-index label');
        assert.equal(p.spec.hostname, n);
        assert.equal(p.spec.subdomain, 'web');
        assert.equal(p.metadata.ownerReferences[0].uid, set.metadata.uid);
        assert.deepEqual(p.spec.volumes.find((v: Obj) => v.name === 'data').persistentVolumeClaim, { claimName: `data-${n}` });
        assert.ok(p.spec.nodeName, `${n} scheduled`);
      }
      const cs = await claims();
      assert.deepEqual(cs.map((c) => c.metadata.name).sort(), ['data-web-0', 'data-web-1', 'data-web-2']);
      for (const c of cs) {
        assert.deepEqual(c.metadata.labels, { app: 'web' });
        // whenDeleted: Delete → the set owns the claim (not as controller)
        assert.deepEqual(c.metadata.ownerReferences.map((r: Obj) => [r.kind, r.name, r.uid, r.controller]), [['StatefulSet', 'web', set.metadata.uid, undefined]]);
      }
      const es = await events();
      const messages = es.map((e) => e.message);
      for (const n of ['web-0', 'web-1', 'web-2']) {
        assert.ok(messages.includes(`create Claim data-${n} Pod ${n} in StatefulSet web success`), JSON.stringify(messages));
        assert.ok(messages.includes(`create Pod ${n} in StatefulSet web successful`), JSON.stringify(messages));
      }
      assert.ok(es.filter((e) => e.reason === 'SuccessfulCreate').every((e) => e.involvedObject.kind === 'StatefulSet' && e.involvedObject.name === 'web'));
    });

    it('kubectl scale down to 1: web-2 is deleted before web-1; claims are retained (whenScaled: Retain)', async () => {
      deleted.length = 0;
      assert.equal((await kubectl('scale', 'statefulset/web', '--replicas=1', '-n', NS)).code, 0);
      await eventually(async () => (await pods()).length === 1, 60_000);
      assert.deepEqual(deleted.slice(0, 2), ['web-2', 'web-1']);
      const messages = (await events()).map((e) => e.message);
      assert.ok(messages.includes('delete Pod web-2 in StatefulSet web successful'));
      assert.ok(messages.includes('delete Pod web-1 in StatefulSet web successful'));
      assert.equal((await claims()).length, 3);
      await eventually(async () => (await sts()).status.replicas === 1, 20_000);
    });

    it('scale back to 3: the pods come back on their claims', async () => {
      created.length = 0;
      assert.equal((await kubectl('scale', 'statefulset/web', '--replicas=3', '-n', NS)).code, 0);
      const rollout = await kubectl('rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.err + rollout.out);
      assert.deepEqual(created.map((c) => c.name), ['web-1', 'web-2']);
      assert.equal((await claims()).length, 3);
    });

    it('rolling update with partition 2 updates only web-2; partition 0 then updates the rest from the highest ordinal down', async () => {
      const before = await sts();
      const oldRevision = before.status.currentRevision;
      const patched = await kubectl('patch', 'statefulset/web', '-n', NS, '-p',
        JSON.stringify({ spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } } }));
      assert.equal(patched.code, 0, patched.err);
      const partitioned = await kubectl('rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=60s');
      assert.equal(partitioned.code, 0, partitioned.err + partitioned.out);
      assert.match(partitioned.out, /partitioned roll out complete: 1 new pods have been updated/);
      const set = await sts();
      assert.notEqual(set.status.updateRevision, oldRevision);
      assert.equal(set.status.currentRevision, oldRevision);
      assert.equal(set.status.updatedReplicas, 1);
      const byName = new Map((await live()).map((p) => [p.metadata.name, p]));
      assert.equal(byName.get('web-2')!.spec.containers[0].image, 'nginx:1.26');
      assert.equal(byName.get('web-2')!.metadata.labels['controller-revision-hash'], set.status.updateRevision);
      assert.equal(byName.get('web-1')!.spec.containers[0].image, 'nginx:1.25');
      assert.equal(byName.get('web-0')!.metadata.labels['controller-revision-hash'], oldRevision);

      deleted.length = 0;
      assert.equal((await kubectl('patch', 'statefulset/web', '-n', NS, '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}')).code, 0);
      const rollout = await kubectl('rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.err + rollout.out);
      assert.deepEqual(deleted, ['web-1', 'web-0']);
      await eventually(async () => {
        const s = await sts();
        return s.status.currentRevision === s.status.updateRevision && s.status.updateRevision === set.status.updateRevision && s.status.currentReplicas === 3;
      }, 20_000);
      assert.ok((await live()).every((p) => p.spec.containers[0].image === 'nginx:1.26'));
    });

    it('kubectl rollout history and undo: back to the first template, its revision renumbered', async () => {
      const history = await kubectl('rollout', 'history', 'statefulset/web', '-n', NS);
      assert.equal(history.code, 0, history.err);
      assert.match(history.out, /^1\s/m);
      assert.match(history.out, /^2\s/m);
      const undo = await kubectl('rollout', 'undo', 'statefulset/web', '-n', NS);
      assert.equal(undo.code, 0, undo.err + undo.out);
      assert.match(undo.out, /rolled back/);
      const rollout = await kubectl('rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=60s');
      assert.equal(rollout.code, 0, rollout.err + rollout.out);
      await eventually(async () => (await live()).length === 3 && (await live()).every((p) => p.spec.containers[0].image === 'nginx:1.25' && ready(p)), 30_000);
      const revs = ((await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items as Obj[]).map((r) => r.revision).sort();
      assert.deepEqual(revs, [2, 3]);
    });

    it('a failed pod is recreated (RecreatingFailedPod)', async () => {
      let old: Obj = {};
      // the simulated node may write the pod's status between our read and our write: read again on a 409
      await eventually(async () => {
        old = (await t.req('GET', `/api/v1/namespaces/${NS}/pods/web-1`)).body;
        const failed = await t.req('PUT', `/api/v1/namespaces/${NS}/pods/web-1/status`, { ...old, status: { ...old.status, phase: 'Failed' } });
        assert.ok(failed.status === 200 || failed.status === 409, failed.text);
        return failed.status === 200;
      });
      await eventually(async () => {
        const p = (await live()).find((q) => q.metadata.name === 'web-1');
        return !!p && p.metadata.uid !== old.metadata.uid && ready(p);
      }, 30_000);
      const es = (await events()).filter((e) => e.reason === 'RecreatingFailedPod');
      assert.equal(es.length, 1);
      assert.equal(es[0]!.count, 1, 'the pod is deleted once, then waited for');
      assert.equal(es[0]?.type, 'Warning');
      assert.equal(es[0]?.message, `StatefulSet ${NS}/web is recreating failed Pod web-1`);
    });

    it('a revision name taken by other data: the collision count is raised and the revision named by the new hash', async () => {
      const made = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/statefulsets`, {
        metadata: { name: 'col' }, spec: { replicas: 0, serviceName: 'col', selector: { matchLabels: { app: 'col' } }, template: { metadata: { labels: { app: 'col' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      });
      assert.equal(made.status, 201, made.text);
      let first = '';
      await eventually(async () => {
        first = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/statefulsets/col`)).body.status?.updateRevision ?? '';
        return first !== '';
      }, 20_000);
      assert.equal((await t.req('DELETE', `/apis/apps/v1/namespaces/${NS}/controllerrevisions/${first}`)).status, 200);
      const squatter = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`, { metadata: { name: first }, data: { other: true }, revision: 1 });
      assert.equal(squatter.status, 201, squatter.text);
      // any change of the set makes it sync again
      assert.equal((await kubectl('annotate', 'statefulset/col', 'poke=1', '-n', NS)).code, 0);
      let status: Obj = {};
      await eventually(async () => {
        status = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/statefulsets/col`)).body.status ?? {};
        return status.collisionCount === 1;
      }, 20_000);
      assert.notEqual(status.updateRevision, first);
      const rev = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions/${status.updateRevision}`)).body;
      assert.equal(rev.metadata.ownerReferences[0].name, 'col');
      assert.equal(rev.data.spec.template.$patch, 'replace');
      assert.equal((await t.req('DELETE', `/apis/apps/v1/namespaces/${NS}/statefulsets/col`)).status, 200);
      assert.equal((await t.req('DELETE', `/apis/apps/v1/namespaces/${NS}/controllerrevisions/${first}`)).status, 200);
    });

    it('an orphan ControllerRevision matching the selector is adopted and numbered before the new one', async () => {
      const orphan = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`, {
        metadata: { name: 'adopt-old', labels: { app: 'adopt' } }, data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'adopt' } } } } }, revision: 1,
      });
      assert.equal(orphan.status, 201, orphan.text);
      const made = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/statefulsets`, {
        metadata: { name: 'adopt' }, spec: { replicas: 0, serviceName: 'adopt', selector: { matchLabels: { app: 'adopt' } }, template: { metadata: { labels: { app: 'adopt' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
      });
      assert.equal(made.status, 201, made.text);
      let revs: Obj[] = [];
      await eventually(async () => {
        revs = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions?labelSelector=app%3Dadopt`)).body.items;
        return revs.length === 2 && revs.every((r) => r.metadata.ownerReferences?.[0]?.uid === made.body.metadata.uid);
      }, 20_000);
      const adopted = revs.find((r) => r.metadata.name === 'adopt-old')!;
      assert.deepEqual(adopted.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'adopt', uid: made.body.metadata.uid, controller: true, blockOwnerDeletion: true }]);
      const fresh = revs.find((r) => r.metadata.name !== 'adopt-old')!;
      assert.equal(fresh.revision, 2);
      await eventually(async () => (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/statefulsets/adopt`)).body.status?.updateRevision === fresh.metadata.name, 20_000);
      assert.equal((await t.req('DELETE', `/apis/apps/v1/namespaces/${NS}/statefulsets/adopt`)).status, 200);
    });

    it('revisionHistoryLimit: old revisions beyond the limit are deleted, oldest first', async () => {
      const base = `/apis/apps/v1/namespaces/${NS}/statefulsets`;
      const made = await t.req('POST', base, {
        metadata: { name: 'trunc' }, spec: { replicas: 0, revisionHistoryLimit: 1, serviceName: 'trunc', selector: { matchLabels: { app: 'trunc' } }, template: { metadata: { labels: { app: 'trunc' } }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } },
      });
      assert.equal(made.status, 201, made.text);
      const revisions = async () => ((await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions?labelSelector=app%3Dtrunc`)).body.items as Obj[]);
      for (const n of [2, 3, 4]) {
        await eventually(async () => (await revisions()).some((r) => r.revision === n - 1), 20_000);
        const patched = await t.req('PATCH', `${base}/trunc`, { spec: { template: { spec: { containers: [{ name: 'c', image: `busybox:${n}` }] } } } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } });
        assert.equal(patched.status, 200, patched.text);
      }
      await eventually(async () => {
        const rs = await revisions();
        return rs.length === 2 && rs.map((r) => r.revision).sort().join() === '3,4';
      }, 20_000);
      const newest = (await revisions()).find((r) => r.revision === 4)!;
      await eventually(async () => (await t.req('GET', `${base}/trunc`)).body.status?.updateRevision === newest.metadata.name, 20_000);
      assert.equal((await t.req('DELETE', `${base}/trunc`)).status, 200);
    });

    it('Parallel: every pod is created without waiting for the others to be Ready, and all condemned go at once', async () => {
      const made = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/statefulsets`, {
        metadata: { name: 'par' },
        spec: {
          replicas: 3, serviceName: 'par', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'par' } },
          // the containers exit 1 at once: the pods crash-loop and are never Ready
          template: { metadata: { labels: { app: 'par' }, annotations: { 'simulated.svc.io/exit-code': '1' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
        },
      });
      assert.equal(made.status, 201, made.text);
      const par = async () => ((await t.req('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dpar`)).body.items as Obj[]);
      await eventually(async () => (await par()).filter((p) => p.spec.nodeName).length === 3, 30_000);
      assert.ok((await par()).every((p) => !ready(p)));
      assert.equal((await t.req('PATCH', `/apis/apps/v1/namespaces/${NS}/statefulsets/par`, { spec: { replicas: 0 } }, { headers: { 'content-type': 'application/merge-patch+json' } })).status, 200);
      await eventually(async () => (await par()).length === 0, 30_000);
      assert.equal((await t.req('DELETE', `/apis/apps/v1/namespaces/${NS}/statefulsets/par`)).status, 200);
    });

    it('OnDelete: a template change replaces no pod until one is deleted; kubectl rollout status refuses the strategy', async () => {
      const before = await sts();
      const uids = new Map((await live()).map((p) => [p.metadata.name, p.metadata.uid]));
      const patched = await kubectl('patch', 'statefulset/web', '-n', NS, '-p',
        JSON.stringify({ spec: { updateStrategy: { type: 'OnDelete', rollingUpdate: null }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } }));
      assert.equal(patched.code, 0, patched.err);
      let set: Obj = {};
      await eventually(async () => {
        set = await sts();
        return set.status.observedGeneration === set.metadata.generation && set.status.updateRevision !== before.status.updateRevision;
      }, 20_000);
      assert.equal(set.status.updatedReplicas, undefined, 'zero is omitted, as Go writes it');
      assert.deepEqual(new Map((await live()).map((p) => [p.metadata.name, p.metadata.uid])), uids);
      const status = await kubectl('rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=5s');
      assert.notEqual(status.code, 0);
      assert.match(status.err, /rollout status is only available for RollingUpdate strategy type/);

      assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/pods/web-0`)).status, 200);
      await eventually(async () => {
        const p = (await live()).find((q) => q.metadata.name === 'web-0');
        return !!p && p.metadata.uid !== uids.get('web-0') && ready(p);
      }, 30_000);
      const byName = new Map((await live()).map((p) => [p.metadata.name, p]));
      assert.equal(byName.get('web-0')!.spec.containers[0].image, 'nginx:1.27');
      assert.equal(byName.get('web-0')!.metadata.labels['controller-revision-hash'], set.status.updateRevision);
      assert.equal(byName.get('web-1')!.metadata.uid, uids.get('web-1'));
      await eventually(async () => (await sts()).status.updatedReplicas === 1, 20_000);
    });

    it('deleting the StatefulSet (whenDeleted: Delete): the garbage collector removes its pods, revisions and claims', async () => {
      const deletedSet = await kubectl('delete', 'statefulset', 'web', '-n', NS);
      assert.equal(deletedSet.code, 0, deletedSet.err);
      try {
        await eventually(async () => (await pods()).length === 0 && (await claims()).length === 0
          && (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items.length === 0, 60_000);
      } catch (err) {
        const state = { pods: (await pods()).map((p) => [p.metadata.name, p.metadata.deletionTimestamp, p.metadata.finalizers, p.status.phase]), claims: (await claims()).map((c) => [c.metadata.name, c.metadata.deletionTimestamp, c.metadata.finalizers, c.metadata.ownerReferences]) };
        throw new Error(`${(err as Error).message}: ${JSON.stringify(state)}`);
      }
    });
  });
}

describe('ControllerRevision history through the API (the shared History)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());

  it('create (collision retry), renumber, adopt, release, delete as statefulset-controller', async () => {
    const ctx = t.server.controllerContext;
    const informer = ctx.informers.informer('apps', 'controllerrevisions');
    await informer.start();
    await informer.waitForSync();
    const history = new History(ctx.client('statefulset-controller'), informer);
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'h' } })).status, 201);
    const parent = (await t.req('POST', '/apis/apps/v1/namespaces/h/statefulsets', {
      metadata: { name: 'p' }, spec: { replicas: 0, serviceName: 'p', selector: { matchLabels: { app: 'p' } }, template: { metadata: { labels: { app: 'p' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    })).body as ApiObject;
    const ref = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'p', uid: parent.metadata.uid!, controller: true, blockOwnerDeletion: true };
    const data = { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'p' } } } } };
    // a revision with other data already holds the name for count 0
    assert.equal((await t.req('POST', '/apis/apps/v1/namespaces/h/controllerrevisions', { metadata: { name: `p-${hashControllerRevision(data, 0)}` }, data: { x: 1 }, revision: 9 })).status, 201);
    const made = await history.create(parent, newControllerRevision({ parent, ownerRef: ref, templateLabels: { app: 'p' }, data, revision: 1, collisionCount: 0 }), 0);
    assert.equal(made.collisionCount, 1);
    assert.equal(made.revision.metadata.name, `p-${hashControllerRevision(data, 1)}`);
    // the same data again: the existing revision is returned, no new count
    const again = await history.create(parent, newControllerRevision({ parent, ownerRef: ref, data, revision: 1 }), 1);
    assert.equal(again.revision.metadata.uid, made.revision.metadata.uid);
    assert.equal(again.collisionCount, 1);
    assert.equal((await history.updateRevision(made.revision, 5) as { revision?: number }).revision, 5);

    const released = await history.release(parent, made.revision);
    assert.equal(released?.metadata.ownerReferences, undefined);
    await eventually(async () => informer.get('h', made.revision.metadata.name!)?.metadata.ownerReferences === undefined, 10_000);
    assert.deepEqual(history.list(parent, { matchLabels: { app: 'p' } }).map((r) => r.metadata.name), [made.revision.metadata.name]);
    const adopted = await history.adopt(parent, ref, released!);
    assert.deepEqual(adopted.metadata.ownerReferences, [ref]);
    await assert.rejects(history.adopt(parent, ref, adopted), /attempt to adopt revision owned by/);
    await history.delete(adopted);
    assert.equal((await t.req('GET', `/apis/apps/v1/namespaces/h/controllerrevisions/${made.revision.metadata.name}`)).status, 404);
    assert.equal(await history.release(parent, adopted), undefined, 'a revision gone is left alone');
  });
});
