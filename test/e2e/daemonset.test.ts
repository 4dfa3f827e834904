// The daemon-set controller end to end on simulated nodes, with the
// scheduler, the node lifecycle controller (it lifts the nodes' registration
// taint) and the garbage collector running, and kubectl 1.27: a DaemonSet
// lands one pod per node, bound by the scheduler through the node-name
// affinity the controller sets, with the daemon tolerations and labels; a
// tainted node is skipped unless tolerated, a NoExecute taint removes the
// pod; a node added later gets its pod; nodeSelector; a failed pod is
// replaced; creations refused by a quota are retried; an image change rolls the pods (rollout status, history, undo),
// with maxSurge too; OnDelete waits for deletions; the delete cascades.
// The main flow also on etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from './backends.js';
import { eventually, HARNESS_CONTROLLERS, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { startDaemonSetController } from '../../src/controllers/daemonset/index.js';
import { startSimulatedNodes } from '../../src/simnodes/index.js';
import { targetNodeName } from '../../src/controllers/daemonset/podtemplate.js';
import { templateHash } from '../../src/controllers/daemonset/revisions.js';
import type { ApiObject } from '../../src/registry/object.js';
import type { Controller } from '../../src/controllers/context.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = 'daemons';
const NODES = ['sim-node-0', 'sim-node-1', 'sim-node-2'];

function daemonSet(name: string, spec: Obj = {}, podSpec: Obj = {}): Obj {
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'agent:1' }], ...podSpec } },
      ...spec,
    },
  };
}

for (const backend of BACKENDS) {
  const full = backend.name === 'sqlite';
  describe(`daemon-set controller on simulated nodes (${backend.name})`, { skip: backend.skip || kubectlMissing }, () => {
    let t: TestServer;
    const kubectl = kubectlFor(() => t);
    const running: Controller[] = [];
    const k = async (...args: string[]) => {
      const r = await kubectl('-n', NS, ...args);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.err}${r.out}`);
      return r.out;
    };
    const podsOf = async (name: string): Promise<Obj[]> =>
      ((await t.req('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3D${name}`)).body.items as Obj[]).filter((p) => !p.metadata.deletionTimestamp);
    const nodesOf = async (name: string) => (await podsOf(name)).map((p) => p.spec.nodeName as string).sort();
    const runningOn = async (name: string, nodes: string[]) => {
      const ps = await podsOf(name);
      return ps.length === nodes.length && ps.every((p) => p.status.phase === 'Running') && deepSorted(ps.map((p) => p.spec.nodeName)) === deepSorted(nodes);
    };
    const deepSorted = (xs: string[]) => JSON.stringify([...xs].sort());
    const ds = async (name: string) => (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/daemonsets/${name}`)).body as Obj;
    const create = async (obj: Obj) => {
      const r = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/daemonsets`, obj);
      assert.equal(r.status, 201, r.text);
      return r.body as Obj;
    };
    const events = async (name: string) => ((await t.req('GET', `/api/v1/namespaces/${NS}/events`)).body.items as Obj[])
      .filter((e) => e.involvedObject.kind === 'DaemonSet' && e.involvedObject.name === name);
    const patchNode = async (node: string, patch: Obj) => {
      const r = await t.req('PATCH', `/api/v1/nodes/${node}`, patch, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(r.status, 200, r.text);
    };

    /**
     * Follows a DaemonSet's pods through the server's pod watch (a shared
     * informer) and records, after each event, how many pods not being
     * deleted there are and on how many nodes: the rollout's steps in order.
     */
    const track = (name: string) => {
      const live = new Map<string, string>();
      const steps: { pods: number; nodes: number }[] = [];
      const mine = (p: ApiObject) => p.metadata.labels?.app === name;
      const note = () => steps.push({ pods: live.size, nodes: new Set(live.values()).size });
      const seen = (p: ApiObject) => {
        if (!mine(p)) return;
        if (p.metadata.deletionTimestamp) live.delete(p.metadata.uid!);
        else live.set(p.metadata.uid!, targetNodeName(p) ?? '');
        note();
      };
      const stop = t.server.controllerContext.informers.informer('', 'pods').addHandler({
        onAdd: seen, onUpdate: (_old, p) => seen(p),
        onDelete: (p) => {
          if (!mine(p)) return;
          live.delete(p.metadata.uid!);
          note();
        },
      });
      steps.length = 0; // the pods already there were replayed as adds: the starting point, not steps
      return { steps, stop };
    };

    before(async () => {
      t = await backend.start({ controllerManager: { controllers: [...HARNESS_CONTROLLERS, 'nodelifecycle', 'garbagecollector'], scheduler: true, simulatedNodes: 3 } });
      assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
      const c = startDaemonSetController(t.server.controllerContext, { retryMs: 100 });
      running.push(c);
      await c.start();
      await eventually(async () => {
        const nodes = (await t.req('GET', '/api/v1/nodes')).body.items as Obj[];
        return nodes.length === 3 && nodes.every((n) => !(n.spec.taints ?? []).length);
      }, 30_000);
    });
    after(async () => {
      for (const c of running) await c.stop();
      kubectl.cleanup();
      await t?.stop();
    });

    it('a DaemonSet lands one pod per node: bound by the scheduler, Running, with the daemon tolerations, labels and node affinity; status and Events', async () => {
      const made = await create(daemonSet('agent'));
      await eventually(() => runningOn('agent', NODES), 30_000);
      const pods = await podsOf('agent');
      const hash = pods[0]!.metadata.labels['controller-revision-hash'];
      assert.ok(hash, 'controller-revision-hash label');
      for (const p of pods) {
        assert.equal(p.metadata.labels['pod-template-generation'], '1');
        assert.equal(p.metadata.labels['controller-revision-hash'], hash);
        assert.equal(p.metadata.generateName, 'agent-');
        assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: made.metadata.uid, controller: true, blockOwnerDeletion: true }]);
        assert.deepEqual(p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
          [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] }]);
        const tol = (key: string, effect: string) => p.spec.tolerations.filter((x: Obj) => x.key === key && x.effect === effect && x.operator === 'Exists');
        for (const prefix of ['node.kubernetes.io/', 'node.svc.io/']) {
          const notReady = tol(`${prefix}not-ready`, 'NoExecute');
          assert.equal(notReady.length, 1, JSON.stringify(p.spec.tolerations));
          assert.equal(notReady[0].tolerationSeconds, undefined, 'no tolerationSeconds: never evicted from a not-ready node');
          for (const key of ['unreachable']) assert.equal(tol(prefix + key, 'NoExecute').length, 1);
          for (const key of ['disk-pressure', 'memory-pressure', 'pid-pressure', 'unschedulable']) assert.equal(tol(prefix + key, 'NoSchedule').length, 1);
          assert.equal(tol(`${prefix}network-unavailable`, 'NoSchedule').length, 0, 'only for hostNetwork pods');
        }
      }
      await eventually(async () => {
        const s = (await ds('agent')).status;
        return s.desiredNumberScheduled === 3 && s.currentNumberScheduled === 3 && s.numberReady === 3 && s.numberAvailable === 3
          && s.updatedNumberScheduled === 3 && s.numberMisscheduled === 0 && (s.numberUnavailable ?? 0) === 0 && s.observedGeneration === 1;
      });
      const evs = await events('agent');
      const created = evs.filter((e) => e.reason === 'SuccessfulCreate' && e.source.component === 'daemonset-controller');
      assert.equal(created.length, 3);
      for (const e of created) assert.match(e.message, /^Created pod: agent-[a-z0-9]{5}$/);
      const revs = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items as Obj[];
      const mine = revs.filter((r) => r.metadata.ownerReferences?.[0]?.uid === made.metadata.uid);
      assert.equal(mine.length, 1);
      assert.equal(mine[0].metadata.name, `agent-${hash}`);
      assert.equal(mine[0].revision, 1);
      assert.equal(mine[0].data.spec.template.$patch, 'replace');
      const get = await k('get', 'ds', 'agent');
      assert.match(get, /agent\s+3\s+3\s+3\s+3\s+3\s+<none>/);
      const described = await k('describe', 'ds', 'agent');
      assert.match(described, /Desired Number of Nodes Scheduled: 3/);
      assert.match(described, /Pods Status:\s+3 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed/);
      assert.match(described, /Normal\s+SuccessfulCreate\s+\S+\s+daemonset-controller\s+Created pod: agent-/);
    });

    it('an image change rolls the pods one node at a time; rollout status finishes; history and undo', async () => {
      const tracked = track('agent');
      await k('set', 'image', 'ds/agent', 'c=agent:2');
      const status = await k('rollout', 'status', 'ds/agent', '--timeout=60s');
      assert.match(status, /daemon set "agent" successfully rolled out/);
      await eventually(async () => {
        const ps = await podsOf('agent');
        return ps.length === 3 && ps.every((p) => p.spec.containers[0].image === 'agent:2' && p.metadata.labels['pod-template-generation'] === '2' && p.status.phase === 'Running');
      }, 30_000);
      tracked.stop();
      // maxUnavailable 1 of 3 nodes: never more than one node without a pod, never two pods on a node
      assert.ok(tracked.steps.length > 6, JSON.stringify(tracked.steps));
      assert.ok(tracked.steps.every((x) => x.nodes >= 2 && x.pods === x.nodes), JSON.stringify(tracked.steps));
      assert.ok(tracked.steps.some((x) => x.nodes === 2), 'a node was emptied for its new pod');
      const history = await k('rollout', 'history', 'ds/agent');
      assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
      const rev1 = await k('rollout', 'history', 'ds/agent', '--revision=1');
      assert.match(rev1, /Image:\s+agent:1/);
      const undo = await k('rollout', 'undo', 'ds/agent');
      assert.match(undo, /daemonset.apps\/agent rolled back/);
      await k('rollout', 'status', 'ds/agent', '--timeout=60s');
      await eventually(async () => {
        const ps = await podsOf('agent');
        return ps.length === 3 && ps.every((p) => p.spec.containers[0].image === 'agent:1' && p.status.phase === 'Running');
      }, 30_000);
      // the rollback renumbered revision 1 as 3
      const history2 = await k('rollout', 'history', 'ds/agent');
      assert.match(history2, /\n2\s+<none>\n3\s+<none>/);
      // kubectl compares the revision's data byte for byte with the patch it makes of the live DaemonSet
      const same = await k('rollout', 'undo', 'ds/agent', '--to-revision=3');
      assert.match(same, /skipped rollback \(current template already matches revision 3\)/);
      const deletes = (await events('agent')).filter((e) => e.reason === 'SuccessfulDelete');
      assert.ok(deletes.length >= 6, JSON.stringify(deletes.map((e) => e.message)));
    });

    it('deleting the DaemonSet cascades to its pods and revisions', async () => {
      const made = await ds('agent');
      await k('delete', 'ds', 'agent');
      await eventually(async () => {
        const pods = ((await t.req('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3Dagent`)).body.items as Obj[]);
        const revs = ((await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items as Obj[]).filter((r) => r.metadata.ownerReferences?.[0]?.uid === made.metadata.uid);
        return pods.length === 0 && revs.length === 0;
      }, 30_000);
    });

    if (!full) return;

    it('a NoSchedule-tainted node is skipped unless tolerated; the pod comes once the taint goes; an untolerated NoExecute taint removes it', async () => {
      await patchNode('sim-node-2', { spec: { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] } });
      await create(daemonSet('plain'));
      await create(daemonSet('tolerant', {}, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' }] }));
      await eventually(() => runningOn('plain', ['sim-node-0', 'sim-node-1']), 30_000);
      await eventually(() => runningOn('tolerant', NODES), 30_000);
      await eventually(async () => (await ds('plain')).status.desiredNumberScheduled === 2 && (await ds('tolerant')).status.desiredNumberScheduled === 3);
      await patchNode('sim-node-2', { spec: { taints: null } });
      await eventually(() => runningOn('plain', NODES), 30_000);
      await patchNode('sim-node-1', { spec: { taints: [{ key: 'evict', value: 'yes', effect: 'NoExecute' }] } });
      await eventually(async () => deepSorted(await nodesOf('plain')) === deepSorted(['sim-node-0', 'sim-node-2']) && deepSorted(await nodesOf('tolerant')) === deepSorted(['sim-node-0', 'sim-node-2']), 30_000);
      await patchNode('sim-node-1', { spec: { taints: null } });
      await eventually(async () => (await runningOn('plain', NODES)) && (await runningOn('tolerant', NODES)), 30_000);
      for (const name of ['plain', 'tolerant']) await k('delete', 'ds', name);
    });

    it('nodeSelector: only matching nodes; a node labelled later gets a pod, one unlabelled loses it', async () => {
      await create(daemonSet('picky', {}, { nodeSelector: { role: 'edge' } }));
      await patchNode('sim-node-0', { metadata: { labels: { role: 'edge' } } });
      await eventually(() => runningOn('picky', ['sim-node-0']), 30_000);
      await patchNode('sim-node-1', { metadata: { labels: { role: 'edge' } } });
      await eventually(() => runningOn('picky', ['sim-node-0', 'sim-node-1']), 30_000);
      await patchNode('sim-node-0', { metadata: { labels: { role: null } } });
      await eventually(() => runningOn('picky', ['sim-node-1']), 30_000);
      await eventually(async () => {
        const s = (await ds('picky')).status;
        return s.desiredNumberScheduled === 1 && s.numberMisscheduled === 0 && s.currentNumberScheduled === 1;
      });
      await k('delete', 'ds', 'picky');
    });

    it('a node added later gets a pod', async () => {
      await create(daemonSet('everywhere'));
      await eventually(() => runningOn('everywhere', NODES), 30_000);
      const extra = startSimulatedNodes(t.server.controllerContext, { count: 1, firstIndex: 3 });
      running.push(extra);
      await extra.start();
      await eventually(() => runningOn('everywhere', [...NODES, 'sim-node-3']), 40_000);
      await eventually(async () => (await ds('everywhere')).status.numberAvailable === 4);
      await extra.stop();
      const del = await t.req('DELETE', '/api/v1/nodes/sim-node-3');
      assert.equal(del.status, 200, del.text);
      // as kube's, the controller does not watch node deletions: the pod
      // garbage collector removes the orphaned pod (after its 40 s quarantine;
      // here by hand), and that delete brings the DaemonSet's status up to date
      const orphan = (await podsOf('everywhere')).find((p) => p.spec.nodeName === 'sim-node-3')!;
      const gone = await t.req('DELETE', `/api/v1/namespaces/${NS}/pods/${orphan.metadata.name}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
      assert.equal(gone.status, 200, gone.text);
      await eventually(async () => {
        const s = (await ds('everywhere')).status;
        return s.desiredNumberScheduled === 3 && s.currentNumberScheduled === 3 && (await runningOn('everywhere', NODES));
      }, 30_000);
    });

    it('a failed daemon pod is deleted (FailedDaemonPod) and replaced', async () => {
      const [victim] = await podsOf('everywhere');
      const pod = (await t.req('GET', `/api/v1/namespaces/${NS}/pods/${victim!.metadata.name}`)).body as Obj;
      pod.status = { ...pod.status, phase: 'Failed', reason: 'Evicted' };
      const put = await t.req('PUT', `/api/v1/namespaces/${NS}/pods/${victim!.metadata.name}/status`, pod);
      assert.equal(put.status, 200, put.text);
      await eventually(async () => {
        const ps = await podsOf('everywhere');
        return ps.length === 3 && !ps.some((p) => p.metadata.uid === victim!.metadata.uid) && ps.every((p) => p.status.phase === 'Running');
      }, 30_000);
      const failed = (await events('everywhere')).filter((e) => e.reason === 'FailedDaemonPod');
      assert.equal(failed[0]?.type, 'Warning');
      assert.equal(failed[0]?.message, `Found failed daemon pod ${NS}/${victim!.metadata.name} on node ${victim!.spec.nodeName}, will try to kill it`);
      await k('delete', 'ds', 'everywhere');
    });

    it('maxSurge: a new pod starts beside each old one, which goes once the new one is available', async () => {
      await create(daemonSet('surge', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
      await eventually(() => runningOn('surge', NODES), 30_000);
      const tracked = track('surge');
      await k('set', 'image', 'ds/surge', 'c=agent:2');
      await k('rollout', 'status', 'ds/surge', '--timeout=60s');
      await eventually(async () => {
        const ps = await podsOf('surge');
        return ps.length === 3 && ps.every((p) => p.spec.containers[0].image === 'agent:2' && p.status.phase === 'Running');
      }, 30_000);
      tracked.stop();
      // maxSurge 1, maxUnavailable 0: every node keeps a pod throughout; at most one extra pod at a time
      assert.ok(tracked.steps.every((x) => x.nodes === 3 && x.pods <= 4), JSON.stringify(tracked.steps));
      assert.ok(tracked.steps.some((x) => x.pods === 4), 'a new pod started beside an old one');
      const s = (await ds('surge')).status;
      assert.equal(s.updatedNumberScheduled, 3);
      assert.equal(s.numberAvailable, 3);
      await k('delete', 'ds', 'surge');
    });

    it('pods refused by admission (a pod quota): FailedCreate, the rest made later once the quota allows', async () => {
      const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods' }, spec: { hard: { pods: '2' } } };
      assert.equal((await t.req('POST', `/api/v1/namespaces/${NS}/resourcequotas`, quota)).status, 201);
      await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/resourcequotas/pods`)).body.status?.hard?.pods === '2');
      await create(daemonSet('capped'));
      await eventually(async () => (await podsOf('capped')).length === 2 && (await events('capped')).some((e) => e.reason === 'FailedCreate'), 30_000);
      const failed = (await events('capped')).find((e) => e.reason === 'FailedCreate')!;
      assert.equal(failed.type, 'Warning');
      assert.match(failed.message, /^Error creating: pods "capped-[a-z0-9]{5}" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2$/);
      await eventually(async () => {
        const s = (await ds('capped')).status;
        return s.desiredNumberScheduled === 3 && s.currentNumberScheduled === 2;
      });
      const raise = await t.req('PATCH', `/api/v1/namespaces/${NS}/resourcequotas/pods`, { spec: { hard: { pods: '10' } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(raise.status, 200, raise.text);
      await eventually(() => runningOn('capped', NODES), 30_000);
      await k('delete', 'ds', 'capped');
      assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/resourcequotas/pods`)).status, 200);
    });

    it('a revision name taken by other data is a hash collision: status.collisionCount rises and the revision is named with it', async () => {
      await create(daemonSet('clash'));
      await eventually(() => runningOn('clash', NODES), 30_000);
      const live = await ds('clash');
      const next = structuredClone(live);
      next.spec.template.spec.containers[0].image = 'agent:2';
      const squatted = `clash-${templateHash(next as ApiObject)}`;
      const squatter = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: squatted, labels: { other: 'x' } }, data: { unrelated: true }, revision: 1 };
      assert.equal((await t.req('POST', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`, squatter)).status, 201);
      await k('set', 'image', 'ds/clash', 'c=agent:2');
      await k('rollout', 'status', 'ds/clash', '--timeout=60s');
      const after = await ds('clash');
      assert.equal(after.status.collisionCount, 1);
      const hashes = new Set((await podsOf('clash')).map((p) => p.metadata.labels['controller-revision-hash']));
      assert.equal(hashes.size, 1);
      const [hash] = [...hashes];
      assert.equal(hash, templateHash(after as ApiObject));
      const revs = ((await t.req('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items as Obj[]).map((r) => r.metadata.name).sort();
      assert.ok(revs.includes(`clash-${hash}`) && revs.includes(squatted), JSON.stringify(revs));
      await k('delete', 'ds', 'clash');
      assert.equal((await t.req('DELETE', `/apis/apps/v1/namespaces/${NS}/controllerrevisions/${squatted}`)).status, 200);
    });

    it('OnDelete: a template change waits until a pod is deleted by hand', async () => {
      await create(daemonSet('manual', { updateStrategy: { type: 'OnDelete' } }));
      await eventually(() => runningOn('manual', NODES), 30_000);
      await k('set', 'image', 'ds/manual', 'c=agent:2');
      await eventually(async () => (await ds('manual')).status.observedGeneration === 2);
      const ps = await podsOf('manual');
      assert.ok(ps.every((p) => p.spec.containers[0].image === 'agent:1'));
      assert.equal((await ds('manual')).status.updatedNumberScheduled ?? 0, 0, 'omitted when 0');
      await k('delete', 'pod', ps[0]!.metadata.name);
      await eventually(async () => {
        const now = await podsOf('manual');
        return now.length === 3 && now.filter((p) => p.spec.containers[0].image === 'agent:2' && p.status.phase === 'Running').length === 1;
      }, 30_000);
      await eventually(async () => (await ds('manual')).status.updatedNumberScheduled === 1);
      const status = await kubectl('-n', NS, 'rollout', 'status', 'ds/manual', '--timeout=1s');
      assert.notEqual(status.code, 0);
      assert.match(status.err, /rollout status is only available for RollingUpdate strategy type/);
      await k('delete', 'ds', 'manual');
    });
  });
}
