// Objects become running workloads (issue 24), end to end as `svc server`
// runs them: every controller of the manager, the scheduler and simulated
// nodes in one server. kubectl 1.27 creates a Deployment; a ReplicaSet and
// its pods appear, are bound by the scheduler to Ready simulated nodes (whose
// registration taint the node lifecycle controller lifted) and run; Events
// say so; scaling, a Job to completion, a Service's endpoints, then the
// Deployment's delete cascades through the garbage collector and the nodes
// finish the pods. On SQLite and etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = 'apps';

for (const backend of BACKENDS) {
  describe(`workloads on simulated nodes (${backend.name})`, { skip: backend.skip ?? kubectlMissing }, () => {
    let t: TestServer;
    const kubectl = kubectlFor(() => t);
    const pods = async (selector: string): Promise<Obj[]> => (await t.req('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=${encodeURIComponent(selector)}`)).body.items;
    before(async () => {
      t = await backend.start({ controllerManager: { controllers: ['*'], scheduler: true, simulatedNodes: 3 } });
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    });
    after(async () => {
      kubectl.cleanup();
      await t?.stop();
    });

    it('simulated nodes register, and are Ready and schedulable once the node lifecycle controller lifts the registration taint', async () => {
      await eventually(async () => {
        const nodes = (await t.req('GET', '/api/v1/nodes')).body.items as Obj[];
        return nodes.length === 3 && nodes.every((n) => !(n.spec.taints ?? []).length && n.status.conditions.some((c: Obj) => c.type === 'Ready' && c.status === 'True'));
      }, 20_000);
    });

    it('kubectl create deployment: a ReplicaSet, three pods bound by the scheduler and running, Events from each actor', async () => {
      const made = await kubectl('create', 'deployment', 'web', '--image=nginx', '--replicas=3', '-n', NS);
      assert.equal(made.code, 0, made.err);
      await eventually(async () => {
        const ps = await pods('app=web');
        return ps.length === 3 && ps.every((p) => p.spec.nodeName && p.status.phase === 'Running' && p.status.conditions.some((c: Obj) => c.type === 'Ready' && c.status === 'True'));
      }, 30_000);
      const rollout = await kubectl('rollout', 'status', 'deployment/web', '-n', NS, '--timeout=30s');
      assert.equal(rollout.code, 0, rollout.err + rollout.out);
      const ps = await pods('app=web');
      const rs = ps[0]!.metadata.ownerReferences[0];
      assert.equal(rs.kind, 'ReplicaSet');
      assert.ok(ps.every((p) => p.metadata.ownerReferences[0].uid === rs.uid));
      const events = (await t.req('GET', `/api/v1/namespaces/${NS}/events`)).body.items as Obj[];
      const by = (component: string, reason: string) => events.filter((e) => (e.source?.component || e.reportingComponent) === component && e.reason === reason);
      assert.equal(by('deployment-controller', 'ScalingReplicaSet').length >= 1, true, JSON.stringify(events.map((e) => [e.source?.component, e.reason])));
      assert.equal(by('replicaset-controller', 'SuccessfulCreate').length, 3);
      assert.equal(by('default-scheduler', 'Scheduled').length, 3);
      const describe = await kubectl('describe', 'pod', ps[0]!.metadata.name, '-n', NS);
      assert.match(describe.out, new RegExp(`Successfully assigned ${NS}/${ps[0]!.metadata.name} to sim-node-\\d`));
    });

    it('kubectl scale up and down; a Service gets the pods\' addresses', async () => {
      assert.equal((await kubectl('scale', 'deployment/web', '--replicas=5', '-n', NS)).code, 0);
      await eventually(async () => (await pods('app=web')).filter((p) => p.status.phase === 'Running').length === 5, 30_000);
      const exposed = await kubectl('expose', 'deployment/web', '--port=80', '-n', NS);
      assert.equal(exposed.code, 0, exposed.err);
      await eventually(async () => {
        const ep = await t.req('GET', `/api/v1/namespaces/${NS}/endpoints/web`);
        return ep.status === 200 && (ep.body.subsets?.[0]?.addresses ?? []).length === 5;
      }, 20_000);
      assert.equal((await kubectl('scale', 'deployment/web', '--replicas=2', '-n', NS)).code, 0);
      await eventually(async () => (await pods('app=web')).filter((p) => !p.metadata.deletionTimestamp).length === 2, 30_000);
      await eventually(async () => ((await t.req('GET', `/api/v1/namespaces/${NS}/endpoints/web`)).body.subsets?.[0]?.addresses ?? []).length === 2, 20_000);
    });

    it('a Job runs to completion on the simulated nodes', async () => {
      const made = await kubectl('create', 'job', 'once', '--image=busybox', '-n', NS, '--', 'true');
      assert.equal(made.code, 0, made.err);
      const waited = await kubectl('wait', '--for=condition=complete', 'job/once', '-n', NS, '--timeout=30s');
      assert.equal(waited.code, 0, waited.err + waited.out);
    });

    it('deleting the Deployment cascades: the garbage collector deletes the ReplicaSet and its pods, the nodes finish them', async () => {
      const deleted = await kubectl('delete', 'deployment', 'web', '-n', NS);
      assert.equal(deleted.code, 0, deleted.err);
      await eventually(async () => (await pods('app=web')).length === 0 && (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets`)).body.items.length === 0, 30_000);
    });
  });
}
