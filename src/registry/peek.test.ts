// GenericStore.getSharedNow and listSharedNow: what getShared and listShared
// answer, known without a turn of the event loop — only where the watch cache
// is loaded and serves the read mode (a consistent read only where the cache
// is as current as storage, a backend that notifies at commit). Admission's
// plugins read this way on every write.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { join } from 'node:path';
import { GenericStore } from './store.js';
import { strategyFor } from './strategies/index.js';
import { Admission } from './admission.js';
import { Cacher } from '../storage/cacher/cacher.js';
import { collectionPrefix } from './keys.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import { tempDir } from '../testing/tempdir.js';

const ID = { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota' };
const quota = (name: string) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard: { pods: '1' } } });
const ANY = { kind: 'any' } as const;
const names = (l: readonly { metadata: { name?: string } }[] | undefined) => l?.map((o) => o.metadata.name);

describe('GenericStore.getSharedNow / listSharedNow', () => {
  const storages: SqliteStore[] = [];
  const cachers: Cacher[] = [];
  const open = (name: string, cache: 'synchronous' | 'lagging' | 'none') => {
    const storage = SqliteStore.open({ path: join(tempDir(`svc-peek-${name}-`), 'state.db') });
    storages.push(storage);
    const prefix = collectionPrefix({ ...ID, namespaced: true }, '');
    const cacher = cache === 'none' ? undefined : new Cacher(storage, prefix, { synchronous: cache === 'synchronous' });
    if (cacher) cachers.push(cacher);
    return { store: new GenericStore(ID, strategyFor(ID, true, true), storage, new Admission(), cacher), cacher };
  };
  after(async () => {
    for (const c of cachers) c.stop();
    for (const s of storages) await s.close();
  });

  it('a cache that notifies at commit answers consistent reads at once, the same as the reads that wait', async () => {
    const { store, cacher } = open('sync', 'synchronous');
    await store.create('ns', quota('a'), { dryRun: false });
    assert.equal(store.listSharedNow('ns'), undefined, 'not loaded yet');
    assert.equal(store.getSharedNow('ns', 'a'), undefined, 'not loaded yet');
    await cacher!.start();
    assert.deepEqual(names(store.listSharedNow('ns')), ['a']);
    assert.equal(store.getSharedNow('ns', 'a'), await store.getShared('ns', 'a'), 'the same shared object');
    assert.equal(store.getSharedNow('ns', 'missing'), undefined, 'absent: ask getShared (its NotFound)');
    await store.create('ns', quota('b'), { dryRun: false });
    // the create is seen at once, by the list too
    assert.deepEqual(names(store.listSharedNow('ns')), ['a', 'b']);
    assert.deepEqual(names(store.listSharedNow('ns')), names(await store.listShared('ns')));
    assert.deepEqual(store.listSharedNow('other'), []);
    assert.equal(store.getSharedNow('ns', 'b')?.metadata.name, 'b');
    // reads at a given revision wait for it: never answered at once
    assert.equal(store.getSharedNow('ns', 'a', { kind: 'notOlderThan', revision: 1 }), undefined);
    assert.equal(store.listSharedNow('ns', { kind: 'exact', revision: 1 }), undefined);
    cacher!.stop();
    assert.equal(store.listSharedNow('ns'), undefined, 'a stopped cache answers nothing');
  });

  it('a cache that may lag storage answers only reads that accept it (any); without a cache, nothing', async () => {
    const { store, cacher } = open('lagging', 'lagging');
    await store.create('ns', quota('a'), { dryRun: false });
    await cacher!.start();
    assert.equal(store.listSharedNow('ns'), undefined);
    assert.equal(store.getSharedNow('ns', 'a'), undefined);
    assert.deepEqual(names(store.listSharedNow('ns', ANY)), ['a']);
    assert.equal(store.getSharedNow('ns', 'a', ANY)?.metadata.name, 'a');
    const none = open('none', 'none').store;
    await none.create('ns', quota('a'), { dryRun: false });
    assert.equal(none.listSharedNow('ns', ANY), undefined);
    assert.equal(none.getSharedNow('ns', 'a', ANY), undefined);
  });
});
