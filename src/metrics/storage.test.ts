import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runStoreConformance } from '../storage/conformance/index.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import { exposition } from './registry.js';
import { countObjectsFrom, instrumentStore, keyResource } from './storage.js';
import { sampleSum } from '../testing/metricstext.js';

const resourceOf = keyResource((s) => ['apps', 'batch', 'autoscaling', 'policy'].includes(s));

// The decorator changes nothing a store promises: the whole conformance suite through it.
runStoreConformance({ name: 'sqlite (memory) with etcd_request_duration_seconds', open: async () => instrumentStore(await SqliteStore.open({ path: ':memory:' }), resourceOf) });

describe('storage metrics', () => {
  it('the resource of a key: core resources, groups with and without a dot, other keys', () => {
    const rows: [string, string][] = [
      ['/registry/pods/ns/p', 'pods'],
      ['/registry/pods/', 'pods'],
      ['/registry/namespaces/default', 'namespaces'],
      ['/registry/apps/deployments/ns/d', 'deployments.apps'],
      ['/registry/apps/deployments/', 'deployments.apps'],
      ['/registry/rbac.authorization.svc.io/clusterroles/admin', 'clusterroles.rbac.authorization.svc.io'],
      ['/registry/example.com/widgets/ns/w', 'widgets.example.com'],
      ['/registry/ranges/serviceips', 'ranges'],
      ['/registry/apps', 'apps'],
      ['/elsewhere/x', 'other'],
    ];
    for (const [key, want] of rows) assert.equal(resourceOf(key), want, key);
  });

  it('times every read and write by operation and resource', async () => {
    const store = instrumentStore(await SqliteStore.open({ path: ':memory:' }), resourceOf);
    const count = async (operation: string) => sampleSum(await exposition(), 'etcd_request_duration_seconds_count', { operation, type: 'leases.coordination.svc.io' });
    const before = await Promise.all(['get', 'list', 'create', 'update', 'delete'].map(count));
    const key = '/registry/coordination.svc.io/leases/ns/l';
    const kv = await store.create(key, Buffer.from('a'));
    await store.update(key, Buffer.from('b'), { expectedModRevision: kv.modRevision });
    await store.get(key);
    await store.get(key);
    await store.range('/registry/coordination.svc.io/leases/');
    await store.delete(key);
    await assert.rejects(store.delete(key)); // a failed call is timed too
    const after = await Promise.all(['get', 'list', 'create', 'update', 'delete'].map(count));
    assert.deepEqual(after.map((n, i) => n - before[i]!), [2, 1, 1, 1, 2]);
    await store.close();
  });

  it('apiserver_storage_objects reads the counts when scraped', async () => {
    const counts = [{ prefix: '/registry/pods/', count: 3 }, { prefix: '/registry/apps/deployments/', count: 2 }];
    countObjectsFrom({ cachedObjectCounts: () => counts }, resourceOf);
    let text = await exposition();
    assert.equal(sampleSum(text, 'apiserver_storage_objects', { resource: 'pods' }), 3);
    assert.equal(sampleSum(text, 'apiserver_storage_objects', { resource: 'deployments.apps' }), 2);
    counts[0] = { prefix: '/registry/pods/', count: 7 };
    text = await exposition();
    assert.equal(sampleSum(text, 'apiserver_storage_objects', { resource: 'pods' }), 7);
  });
});
