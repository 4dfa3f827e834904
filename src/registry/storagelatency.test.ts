// The store charges a request's storage calls to its latency trackers (kube's
// etcd layer in apiserver.latency.k8s.io/etcd): writes through the write
// context, reads and lists through their options; reads served by the watch
// cache touch no storage and charge nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { GenericStore } from './store.js';
import { strategyFor } from './strategies/index.js';
import { Admission } from './admission.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import { tempDir } from '../testing/tempdir.js';
import type { LatencyTrackers } from '../metrics/latencytrackers.js';

const CM = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' };

describe('GenericStore: storage time charged to the request', () => {
  let storage: SqliteStore;
  let store: GenericStore;
  before(() => {
    storage = SqliteStore.open({ path: join(tempDir('svc-storagelatency-'), 'state.db') });
    store = new GenericStore(CM, strategyFor(CM, true), storage, new Admission());
  });
  after(() => storage.close());

  const verbs: [string, (t: LatencyTrackers) => Promise<unknown>][] = [
    ['create', (t) => store.create('ns', { metadata: { name: 'a', namespace: 'ns' }, data: { k: 'v' } }, { dryRun: false, latency: t })],
    ['get', (t) => store.get('ns', 'a', { kind: 'mostRecent' }, t)],
    ['getJSON', (t) => store.getJSON('ns', 'a', { kind: 'mostRecent' }, 'v1', undefined, t)],
    ['update', (t) => store.guaranteedUpdate('ns', 'a', (cur) => ({ ...cur, data: { k: 'w' } }), { dryRun: false, latency: t })],
    ['list', (t) => store.list('ns', { latency: t })],
    ['scan', async (t) => { for await (const _ of store.scan('ns', { kind: 'mostRecent' }, undefined, { latency: t })) { /* drain */ } }],
    ['delete', (t) => store.delete('ns', 'a', { dryRun: false, latency: t })],
  ];
  for (const [verb, run] of verbs) {
    it(`${verb} charges its storage calls`, async () => {
      const t: LatencyTrackers = {};
      await run(t);
      assert.ok(t.storageMs !== undefined && t.storageMs > 0, `storageMs ${t.storageMs}`);
      assert.equal(t.mutatingWebhookMs, undefined);
    });
  }

  it('a dry-run create charges only its read of the name', async () => {
    const t: LatencyTrackers = {};
    await store.create('ns', { metadata: { name: 'dry', namespace: 'ns' } }, { dryRun: true, latency: t });
    assert.ok(t.storageMs !== undefined && t.storageMs > 0, 'the read of the name');
    await assert.rejects(store.get('ns', 'dry'), (e: { status?: { code?: number } }) => e.status?.code === 404);
  });
});
