// Deleting with a zero grace period writes the deletion first and then
// deletes; another client (a node finishing the pod it sees terminating) may
// delete the object between the two writes. As kube's ignoreNotFound, the
// delete that made the object terminate still succeeds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { GenericStore } from './store.js';
import { strategyFor } from './strategies/index.js';
import { Admission } from './admission.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import { tempDir } from '../testing/tempdir.js';

const POD = { group: '', version: 'v1', resource: 'pods', kind: 'Pod' };
const W = { dryRun: false };

describe('GenericStore: a zero-grace delete racing another deleter', () => {
  let storage: SqliteStore;
  let store: GenericStore;
  /** When set, the next update of this key is followed at once by another client's delete of it. */
  let raceOn: string | undefined;
  before(() => {
    storage = SqliteStore.open({ path: join(tempDir('svc-deletion-'), 'state.db') });
    const update: SqliteStore['update'] = async (key, value, opts) => {
      const written = await storage.update(key, value, opts);
      if (key === raceOn) {
        raceOn = undefined;
        await storage.delete(key);
      }
      return written;
    };
    const racing = new Proxy(storage, {
      get: (target, p) => (p === 'update' ? update : typeof Reflect.get(target, p) === 'function' ? Reflect.get(target, p).bind(target) : Reflect.get(target, p)),
    });
    store = new GenericStore(POD, strategyFor(POD, true, true), racing, new Admission());
  });
  after(() => storage.close());

  for (const bound of [true, false]) {
    it(`answers 200 with the terminating object when the object is gone before its own delete (${bound ? 'bound' : 'unbound'} pod)`, async () => {
      const name = `p-${bound}`;
      const container = { name: 'c', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' };
      const spec = { containers: [container], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', ...(bound ? { nodeName: 'n1' } : {}) };
      await store.create('ns', { metadata: { name, namespace: 'ns' }, spec }, W);
      raceOn = store.key('ns', name);
      const r = await store.delete('ns', name, { gracePeriodSeconds: 0, dryRun: false });
      assert.equal(raceOn, undefined, 'the deletion was written first');
      assert.equal(r.deleted, true);
      assert.equal(r.object.metadata.name, name);
      assert.ok(r.object.metadata.deletionTimestamp);
      assert.equal(r.object.metadata.deletionGracePeriodSeconds, 0);
      await assert.rejects(store.get('ns', name), (e: { status?: { code?: number } }) => e.status?.code === 404);
    });
  }

  it('a delete of an object already gone is still 404', async () => {
    await assert.rejects(store.delete('ns', 'never', { gracePeriodSeconds: 0, dryRun: false }), (e: { status?: { code?: number } }) => e.status?.code === 404);
  });
});
