// StorageObjectInUseProtection end to end: new claims and volumes get their
// finalizer, and deleting one completes once nothing uses it (the protection
// controller), also inside a namespace being deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';

async function eventually(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('storage object in-use protection', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({});
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'sp' } })).status, 201);
  });
  after(async () => t?.stop());

  const pvc = (name: string) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });

  it('a claim keeps its finalizer while a scheduled pod uses it, and goes once the pod is gone', async () => {
    const created = await t.req('POST', '/api/v1/namespaces/sp/persistentvolumeclaims', pvc('data'));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.metadata.finalizers, ['svc.io/pvc-protection']);
    const podBody = { metadata: { name: 'user' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'x:1' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } };
    assert.equal((await t.req('POST', '/api/v1/namespaces/sp/pods', podBody)).status, 201);
    const deleting = await t.req('DELETE', '/api/v1/namespaces/sp/persistentvolumeclaims/data');
    assert.equal(deleting.status, 200, deleting.text);
    assert.ok(deleting.body.metadata.deletionTimestamp);
    // Still there while the pod holds it: the controller has seen the delete and left the finalizer.
    const held = await t.req('GET', '/api/v1/namespaces/sp/persistentvolumeclaims/data');
    assert.equal(held.status, 200);
    assert.deepEqual(held.body.metadata.finalizers, ['svc.io/pvc-protection']);
    assert.equal((await t.req('DELETE', '/api/v1/namespaces/sp/pods/user?gracePeriodSeconds=0')).status, 200);
    await eventually('the claim is deleted', async () => (await t.req('GET', '/api/v1/namespaces/sp/persistentvolumeclaims/data')).status === 404);
  });

  it('an unbound volume is deleted at once (after its finalizer is removed)', async () => {
    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'sp-pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } } };
    const created = await t.req('POST', '/api/v1/persistentvolumes', pv);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.metadata.finalizers, ['svc.io/pv-protection']);
    assert.equal((await t.req('DELETE', '/api/v1/persistentvolumes/sp-pv')).status, 200);
    await eventually('the volume is deleted', async () => (await t.req('GET', '/api/v1/persistentvolumes/sp-pv')).status === 404);
  });

  it('a namespace holding an unused claim finishes deleting', async () => {
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'sp-gone' } })).status, 201);
    assert.equal((await t.req('POST', '/api/v1/namespaces/sp-gone/persistentvolumeclaims', pvc('left'))).status, 201);
    assert.equal((await t.req('DELETE', '/api/v1/namespaces/sp-gone')).status, 200);
    await eventually('the namespace is deleted', async () => (await t.req('GET', '/api/v1/namespaces/sp-gone')).status === 404, 30_000);
  });
});
