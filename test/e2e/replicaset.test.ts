// The ReplicaSet and ReplicationController controllers end to end, on a real
// server: pods made from the template with a controller reference and
// Events, scale down by rank, status from pod readiness, adoption of
// matching orphans, release of pods whose labels no longer match, and the
// ReplicaFailure condition when pods cannot be created.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { startReplicaSetController, startReplicationController } from '../../src/controllers/replicaset/index.js';
import type { Controller } from '../../src/controllers/context.js';
import { markReady } from './podstatus.js';

const NS = 'rs';
const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
const rsBody = (name: string, replicas: number, app = name) => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name },
  spec: { replicas, selector: { matchLabels: { app } }, template: template(app) },
});

describe('replicaset controller', () => {
  let t: TestServer;
  const running: Controller[] = [];
  before(async () => {
    t = await startTestServer({});
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    for (const c of [startReplicaSetController(t.server.controllerContext, { retryMs: 100 }), startReplicationController(t.server.controllerContext, { retryMs: 100 })]) {
      running.push(c);
      await c.start();
    }
  });
  after(async () => {
    for (const c of running) await c.stop();
    await t?.stop();
  });

  const podsOf = async (app: string) => (await t.req('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=app%3D${app}`)).body.items as {
    metadata: { name: string; generateName?: string; deletionTimestamp?: string; ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }[] };
  }[];
  const eventsFor = async (name: string) => ((await t.req('GET', `/api/v1/namespaces/${NS}/events`)).body.items as { involvedObject: { name: string }; reason: string; message: string; type: string; source: { component: string } }[])
    .filter((e) => e.involvedObject.name === name);

  it('creates the replicas from the template, owned by the ReplicaSet, with SuccessfulCreate events', async () => {
    const created = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/replicasets`, rsBody('web', 3));
    assert.equal(created.status, 201, created.text);
    await eventually(async () => (await podsOf('web')).length === 3);
    for (const p of await podsOf('web')) {
      assert.equal(p.metadata.generateName, 'web-');
      assert.match(p.metadata.name, /^web-[a-z0-9]{5}$/);
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: created.body.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    await eventually(async () => (await eventsFor('web')).filter((e) => e.reason === 'SuccessfulCreate').length === 3);
    const names = (await podsOf('web')).map((p) => `Created pod: ${p.metadata.name}`).sort();
    const events = (await eventsFor('web')).filter((e) => e.reason === 'SuccessfulCreate');
    assert.deepEqual(events.map((e) => e.message).sort(), names);
    assert.ok(events.every((e) => e.type === 'Normal' && e.source.component === 'replicaset-controller'));
    await eventually(async () => {
      const rs = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/web`)).body;
      return rs.status.replicas === 3 && rs.status.fullyLabeledReplicas === 3 && rs.status.observedGeneration === 1 && rs.status.readyReplicas === undefined;
    });
  });

  it('counts Ready pods as ready and available, then scales down deleting not-ready pods first', async () => {
    const pods = await podsOf('web');
    await markReady(t, NS, pods[0]!.metadata.name);
    await markReady(t, NS, pods[1]!.metadata.name);
    await eventually(async () => {
      const s = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/web`)).body.status;
      return s.readyReplicas === 2 && s.availableReplicas === 2;
    });
    const scaled = await t.req('PATCH', `/apis/apps/v1/namespaces/${NS}/replicasets/web`, { spec: { replicas: 2 } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(scaled.status, 200, scaled.text);
    await eventually(async () => (await podsOf('web')).length === 2);
    const left = (await podsOf('web')).map((p) => p.metadata.name).sort();
    assert.deepEqual(left, [pods[0]!.metadata.name, pods[1]!.metadata.name].sort(), 'the pod that was not ready went first');
    await eventually(async () => (await eventsFor('web')).some((e) => e.reason === 'SuccessfulDelete' && e.message === `Deleted pod: ${pods[2]!.metadata.name}`));
  });

  it('adopts a matching orphan instead of creating a pod, and releases a pod relabelled out of its selector', async () => {
    const orphan = await t.req('POST', `/api/v1/namespaces/${NS}/pods`, { metadata: { name: 'stray', labels: { app: 'adopt' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal(orphan.status, 201, orphan.text);
    const rs = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/replicasets`, rsBody('adopt', 2));
    assert.equal(rs.status, 201, rs.text);
    await eventually(async () => (await podsOf('adopt')).length === 2 && (await podsOf('adopt')).every((p) => p.metadata.ownerReferences?.[0]?.uid === rs.body.metadata.uid));
    assert.ok((await podsOf('adopt')).some((p) => p.metadata.name === 'stray'), 'the orphan was adopted');
    const made = (await podsOf('adopt')).find((p) => p.metadata.name !== 'stray')!;
    // relabel the made pod: released (no owner) and replaced
    const relabel = await t.req('PATCH', `/api/v1/namespaces/${NS}/pods/${made.metadata.name}`, { metadata: { labels: { app: 'elsewhere' } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(relabel.status, 200, relabel.text);
    await eventually(async () => {
      const p = (await t.req('GET', `/api/v1/namespaces/${NS}/pods/${made.metadata.name}`)).body;
      return p.metadata.ownerReferences === undefined;
    });
    await eventually(async () => (await podsOf('adopt')).length === 2);
  });

  it('sets ReplicaFailure with the error while pods cannot be created, with a FailedCreate event', async () => {
    const quota = await t.req('POST', `/api/v1/namespaces/${NS}/resourcequotas`, { metadata: { name: 'pods' }, spec: { hard: { pods: '5' } } });
    assert.equal(quota.status, 201, quota.text);
    await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/resourcequotas/pods`)).body.status?.used?.pods !== undefined);
    const rs = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/replicasets`, rsBody('capped', 3));
    assert.equal(rs.status, 201, rs.text);
    await eventually(async () => {
      const s = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/capped`)).body.status;
      const c = (s.conditions ?? []).find((x: { type: string }) => x.type === 'ReplicaFailure');
      return c?.status === 'True' && c.reason === 'FailedCreate' && /exceeded quota: pods/.test(c.message);
    });
    const failed = (await eventsFor('capped')).filter((e) => e.reason === 'FailedCreate');
    assert.ok(failed.length > 0 && failed.every((e) => e.type === 'Warning' && e.message.startsWith('Error creating: pods "capped-') && /exceeded quota: pods/.test(e.message)), JSON.stringify(failed));
    assert.equal((await t.req('DELETE', `/api/v1/namespaces/${NS}/resourcequotas/pods`)).status, 200);
    await eventually(async () => {
      const s = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/capped`)).body.status;
      return s.replicas === 3 && !(s.conditions ?? []).some((x: { type: string }) => x.type === 'ReplicaFailure');
    }, 20_000);
  });

  it('counts a Ready pod as available only after minReadySeconds (the ReplicaSet is looked at again then)', async () => {
    const body = rsBody('slow', 1);
    (body.spec as Record<string, unknown>).minReadySeconds = 2;
    assert.equal((await t.req('POST', `/apis/apps/v1/namespaces/${NS}/replicasets`, body)).status, 201);
    await eventually(async () => (await podsOf('slow')).length === 1);
    await markReady(t, NS, (await podsOf('slow'))[0]!.metadata.name);
    await eventually(async () => (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/slow`)).body.status.readyReplicas === 1);
    // nothing else changes after the pod turned Ready: only the delayed look makes it available
    await eventually(async () => (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/slow`)).body.status.availableReplicas === 1);
  });

  it('runs ReplicationControllers through the same code, as replication-controller', async () => {
    const rc = await t.req('POST', `/api/v1/namespaces/${NS}/replicationcontrollers`, {
      apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'legacy' }, spec: { replicas: 2, selector: { app: 'legacy' }, template: template('legacy') },
    });
    assert.equal(rc.status, 201, rc.text);
    await eventually(async () => (await podsOf('legacy')).length === 2);
    for (const p of await podsOf('legacy')) {
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: rc.body.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
    await eventually(async () => (await eventsFor('legacy')).filter((e) => e.reason === 'SuccessfulCreate' && e.source.component === 'replication-controller').length === 2);
    await eventually(async () => (await t.req('GET', `/api/v1/namespaces/${NS}/replicationcontrollers/legacy`)).body.status.replicas === 2);
  });
});
