// GenericStore.peekCurrentList: a consistent list known without a turn of the
// event loop, only where the watch cache is as current as storage (a backend
// that notifies at commit); admission's ResourceQuota asks it on every write.
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

describe('GenericStore.peekCurrentList', () => {
  const storages: SqliteStore[] = [];
  const cachers: Cacher[] = [];
  const open = (name: string, cache: 'synchronous' | 'lagging' | 'none') => {
    const storage = SqliteStore.open({ path: join(tempDir(`svc-peek-${name}-`), 'state.db') });
    storages.push(storage);
    const prefix = collectionPrefix({ ...ID, namespaced: true }, '');
    const cacher = cache === 'none' ? undefined : new Cacher(storage, prefix, { synchronous: cache === 'synchronous' });
    if (cacher) cachers.push(cacher);
    return new GenericStore(ID, strategyFor(ID, true, true), storage, new Admission(), cacher);
  };
  after(async () => {
    for (const c of cachers) c.stop();
    for (const s of storages) await s.close();
  });

  it('answers what listShared answers, at once, once the synchronous cache remembers the list', async () => {
    const store = open('sync', 'synchronous');
    assert.equal(store.peekCurrentList('ns'), undefined, 'nothing listed yet');
    assert.deepEqual(await store.listShared('ns'), []);
    assert.deepEqual(store.peekCurrentList('ns'), []);
    await store.create('ns', quota('q'), { dryRun: false });
    // the create changed the namespace's keys: the remembered list is not answered any more
    assert.equal(store.peekCurrentList('ns'), undefined);
    assert.deepEqual((await store.listShared('ns')).map((q) => q.metadata.name), ['q']);
    assert.deepEqual(store.peekCurrentList('ns')?.map((q) => q.metadata.name), ['q']);
    assert.equal(store.peekCurrentList('other'), undefined, 'another namespace was never listed');
  });

  it('answers nothing where the cache may lag storage, or there is none', async () => {
    for (const cache of ['lagging', 'none'] as const) {
      const store = open(cache, cache);
      assert.deepEqual(await store.listShared('ns'), []);
      assert.equal(store.peekCurrentList('ns'), undefined, cache);
    }
  });
});
