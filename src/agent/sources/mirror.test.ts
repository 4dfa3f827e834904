import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeAgentApi } from '../node/fakeapi.js';
import { MirrorPodClient, MirrorPodError, PODS } from './mirror.js';
import { decodePods } from './manifest.js';
import { stampSeen } from './staticpod.js';

const NODE_UID = '6c1f6d0e-0000-4000-8000-000000000001';
const manifest = (cmd: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: web, labels: {app: web}}\nspec:\n  containers: [{name: c, image: busybox, command: [sh, -c, "${cmd}"]}]\n`;
const staticPod = (cmd = 'sleep 3600') => stampSeen(decodePods(manifest(cmd), { nodeName: 'node-a', source: 'file', origin: '/m/web.yaml' })[0]!, 'file', '2026-01-01T00:00:00Z');

test('the mirror pod: annotations, owner reference, no UID of its own', () => {
  const sp = staticPod();
  const m = new MirrorPodClient(new FakeAgentApi('node-a'), () => NODE_UID).mirrorOf(sp);
  assert.equal(m.metadata.name, 'web-node-a');
  assert.equal(m.metadata.uid, undefined);
  assert.deepEqual(m.metadata.labels, { app: 'web' });
  assert.deepEqual(m.metadata.annotations, {
    'kubernetes.io/config.hash': sp.metadata.uid, 'svc.io/config.hash': sp.metadata.uid,
    'kubernetes.io/config.source': 'file', 'svc.io/config.source': 'file',
    'kubernetes.io/config.seen': '2026-01-01T00:00:00Z', 'svc.io/config.seen': '2026-01-01T00:00:00Z',
    'kubernetes.io/config.mirror': sp.metadata.uid, 'svc.io/config.mirror': sp.metadata.uid,
  });
  assert.deepEqual(m.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: NODE_UID, controller: true }]);
  assert.deepEqual(m.spec, sp.spec);
  assert.throws(() => new MirrorPodClient(new FakeAgentApi('node-a'), () => undefined).mirrorOf(sp), /not registered yet/);
});

test('sync: created, kept, recreated when the static pod changes, orphans deleted', async () => {
  const api = new FakeAgentApi('node-a');
  const mc = new MirrorPodClient(api, () => NODE_UID);
  const v1 = staticPod();
  await mc.sync([v1]);
  const first = await api.get(PODS, 'default', 'web-node-a');
  assert.equal(first.metadata.annotations?.['kubernetes.io/config.mirror'], v1.metadata.uid);

  api.calls.length = 0;
  await mc.sync([v1]);
  assert.equal(api.calls.length, 0, 'an up-to-date mirror is left alone');

  const v2 = staticPod('sleep 5');
  await mc.sync([v2]);
  assert.deepEqual(api.calls.map((c) => `${c.verb} ${c.name}`), ['delete web-node-a', 'create web-node-a']);
  assert.deepEqual(api.calls[0]!.opts, { gracePeriodSeconds: 0, preconditions: { uid: first.metadata.uid } });
  const second = await api.get(PODS, 'default', 'web-node-a');
  assert.notEqual(second.metadata.uid, first.metadata.uid);
  assert.equal(second.metadata.annotations?.['svc.io/config.mirror'], v2.metadata.uid);

  // a mirror another actor is deleting is replaced
  api.calls.length = 0;
  await mc.sync([v2], [{ ...second, metadata: { ...second.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }]);
  assert.deepEqual(api.calls.map((c) => c.verb), ['delete', 'create']);

  // ordinary pods are no mirrors: never touched; the orphaned mirror goes
  api.seed(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'plain', namespace: 'default' }, spec: { nodeName: 'node-a', containers: [] } });
  api.calls.length = 0;
  await mc.sync([]);
  assert.deepEqual(api.calls.map((c) => `${c.verb} ${c.name}`), ['delete web-node-a']);
  assert.deepEqual(api.pods().list().map((p) => p.metadata.name), ['plain']);
});

test('create: an existing mirror of the same hash is fine, anything else is an error', async () => {
  const api = new FakeAgentApi('node-a');
  const mc = new MirrorPodClient(api, () => NODE_UID);
  const sp = staticPod();
  await mc.create(sp);
  await mc.create(sp);
  await assert.rejects(mc.create(staticPod('other')), /pods "web-node-a" already exists/);
  api.failWith = new Error('connection refused');
  await assert.rejects(mc.sync([staticPod('x')]), (e: unknown) => e instanceof MirrorPodError && /mirror pod web-node-a_default: connection refused/.test(e.message));
  api.failWith = undefined;
  assert.equal(await mc.delete('default', 'nothing'), false);
  // a mirror of another UID (recreated meanwhile) is not deleted
  assert.equal(await mc.delete('default', 'web-node-a', 'some-other-uid'), false);
  assert.equal((await api.get(PODS, 'default', 'web-node-a')).metadata.name, 'web-node-a');
});
