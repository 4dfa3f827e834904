import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { RecentObjects, storedFormOf } from './recent.js';
import { GenericStore } from './store.js';
import { strategyFor } from './strategies/index.js';
import { Admission } from './admission.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import { tempDir } from '../testing/tempdir.js';
import type { ApiObject } from './object.js';
import { prng } from '../testing/prng.js';

const obj = (name: string, rv: number): ApiObject => ({ metadata: { name, resourceVersion: String(rv), labels: { a: 'b' } }, spec: { list: [{ x: 1 }] } });
const kv = (key: string, rev: number, size = 10) => ({ key, value: Buffer.alloc(size, 0x20), createRevision: 1, modRevision: rev });

describe('RecentObjects', () => {
  const rows: [string, (r: RecentObjects) => unknown, unknown][] = [
    ['the remembered version is found', (r) => r.get(kv('/k', 5)), 'found'],
    ['another version of the key is not', (r) => r.get(kv('/k', 6)), undefined],
    ['another key is not', (r) => r.get(kv('/j', 5)), undefined],
    ['a forgotten key is not', (r) => (r.forget('/k'), r.get(kv('/k', 5))), undefined],
  ];
  for (const [what, read, want] of rows) {
    it(what, () => {
      const r = new RecentObjects(1000);
      const o = obj('a', 5);
      r.remember('/k', 5, o, Buffer.from('{}'));
      const got = read(r);
      assert.equal(got === o ? 'found' : got, want);
    });
  }

  it('freezes what it remembers (when asked to, as under test), all the way down, and keeps the stored bytes beside it', () => {
    const r = new RecentObjects(1000, true);
    const o = obj('a', 5);
    const bytes = Buffer.from('{"metadata":{}}');
    r.remember('/k', 5, o, bytes);
    assert.ok(Object.isFrozen(o) && Object.isFrozen(o.metadata.labels) && Object.isFrozen((o.spec as { list: object[] }).list[0]));
    assert.throws(() => ((o.metadata as { name: string }).name = 'b'), TypeError);
    assert.equal(storedFormOf(o), bytes);
    assert.equal(storedFormOf(obj('a', 5)), undefined);
  });

  it('keeps at most its budget of stored bytes, dropping the oldest first', () => {
    const r = new RecentObjects(100);
    for (let i = 0; i < 5; i++) r.remember(`/k${i}`, i + 1, obj(`o${i}`, i + 1), Buffer.alloc(30));
    assert.equal(r.size, 3);
    assert.equal(r.get(kv('/k1', 2)), undefined);
    assert.ok(r.get(kv('/k4', 5)));
    r.remember('/big', 9, obj('big', 9), Buffer.alloc(101));
    assert.equal(r.get(kv('/big', 9)), undefined, 'a value over the whole budget is not kept');
    assert.equal(r.size, 3);
  });

  it('drops in the order remembered through any mix of remembers, re-remembers and forgets (against a plain model)', () => {
    const rand = prng(7).int;
    const budget = 200;
    const r = new RecentObjects(budget);
    // the model: [key, revision, size] oldest first
    let model: [string, number, number][] = [];
    for (let step = 1; step <= 5000; step++) {
      const key = `/k${rand(40)}`;
      model = model.filter(([k]) => k !== key);
      if (rand(4) === 0) {
        r.forget(key);
      } else {
        const size = 1 + rand(60);
        r.remember(key, step, obj(key, step), Buffer.alloc(size));
        model.push([key, step, size]);
        let total = model.reduce((n, [, , s]) => n + s, 0);
        while (total > budget) total -= model.shift()![2];
      }
      assert.equal(r.size, model.length, `step ${step}`);
      for (const [k, rev] of model) assert.ok(r.get(kv(k, rev)), `step ${step}: ${k}@${rev} kept`);
    }
  });
});

describe('GenericStore: written objects', () => {
  let storage: SqliteStore;
  let store: GenericStore;
  const W = { dryRun: false };
  before(() => {
    storage = SqliteStore.open({ path: join(tempDir('svc-recent-'), 'state.db') });
    store = new GenericStore({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, strategyFor({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, true, false), storage, new Admission());
  });
  after(() => storage.close());

  const served = (o: ApiObject) => JSON.parse(store.writtenJSON(o, 'v1')!.toString());
  const asGot = (o: ApiObject) => ({ kind: 'ConfigMap', apiVersion: 'v1', ...JSON.parse(JSON.stringify(o)) });

  it('answers a create, an update and a no-op update with the JSON it stored, spliced', async () => {
    const created = await store.create('ns', { metadata: { name: 'c', namespace: 'ns' }, data: { a: '1' } }, W);
    assert.deepEqual(served(created), asGot(await store.get('ns', 'c')));
    const updated = await store.guaranteedUpdate('ns', 'c', (cur) => ({ ...cur, data: { a: '2' } }), W);
    assert.equal(updated.metadata.resourceVersion, (await store.get('ns', 'c')).metadata.resourceVersion);
    assert.deepEqual(served(updated), asGot(await store.get('ns', 'c')));
    const same = await store.guaranteedUpdate('ns', 'c', (cur) => cur, W);
    assert.equal(same.metadata.resourceVersion, updated.metadata.resourceVersion, 'nothing written');
    assert.deepEqual(served(same), asGot(updated));
  });

  it('the next write starts from the object it wrote, not a fresh decode', async () => {
    const created = await store.create('ns', { metadata: { name: 'd', namespace: 'ns' }, data: { a: '1' } }, W);
    let seen: ApiObject | undefined;
    await store.upsert('ns', 'd', (cur) => ((seen = cur), { ...cur!, metadata: { ...cur!.metadata }, data: { a: '2' } }), W);
    assert.equal(seen, created);
  });

  it('forgets the object of a write nobody decoded once the write is done (the watch cache keeps the bytes)', async () => {
    const writing = (store as unknown as { shared: { writing: WeakMap<Uint8Array, ApiObject> } }).shared.writing;
    const values: Uint8Array[] = [];
    const watch = await store.watchStorage('ns', await storage.currentRevision(), { onEvents: (es) => { for (const e of es) if (e.type !== 'delete') values.push(e.kv.value); }, onError: () => {} });
    try {
      await store.create('ns', { metadata: { name: 'quiet', namespace: 'ns' }, data: {} }, W);
      assert.equal(values.length, 1);
      assert.equal(writing.has(values[0]!), false);
    } finally {
      watch.close();
    }
  });

  it('a create changes an input it is told the request owns, and a copy of any other', async () => {
    for (const [what, ownsInput, same] of [['owned', true, true], ['not owned', false, false]] as const) {
      const input: ApiObject = { metadata: { name: `o-${ownsInput}`, namespace: 'ns' }, data: { a: '1' } };
      const created = await store.create('ns', input, { ...W, ownsInput });
      assert.equal(created === input, same, what);
      assert.equal(input.metadata.uid !== undefined, same, `${what}: the input's metadata`);
    }
  });

  it('no stored form for a dry run or an object it did not write', async () => {
    const dry = await store.create('ns', { metadata: { name: 'e', namespace: 'ns' }, data: {} }, { dryRun: true });
    assert.equal(store.writtenJSON(dry, 'v1'), null);
    assert.equal(store.writtenJSON(await store.get('ns', 'c'), 'v1'), null);
  });

  it('a watcher decoding a write\'s event shares the object the write returned (no second decode), with its resourceVersion', async () => {
    const seen: ApiObject[] = [];
    const values: Uint8Array[] = [];
    const writing = (store as unknown as { writing: WeakMap<Uint8Array, ApiObject> }).writing;
    const rev = Number((await store.get('ns', 'c')).metadata.resourceVersion);
    const watch = await store.watchStorage('ns', rev, {
      onEvents: (es) => {
        for (const e of es) if (e.type !== 'delete') (values.push(e.kv.value), seen.push(store.decodeShared(e.kv)));
      },
      onError: () => {},
    });
    try {
      const rows: [string, () => Promise<ApiObject>][] = [
        ['create', () => store.create('ns', { metadata: { name: 'w', namespace: 'ns' }, data: { a: '1' } }, W)],
        ['update', () => store.guaranteedUpdate('ns', 'w', (cur) => ({ ...cur, metadata: { ...cur.metadata }, data: { a: '2' } }), W)],
        ['storage update', () => store.storageUpdate('ns', 'w', (cur) => ({ ...cur, data: { a: '3' } }), { dryRun: false })],
      ];
      for (const [what, write] of rows) {
        const wrote = await write();
        const shared = seen.at(-1);
        assert.equal(shared, wrote, what);
        assert.ok(Object.isFrozen(shared) && Object.isFrozen(shared.metadata), what);
        assert.deepEqual(shared, await store.get('ns', 'w'), `${what}: as the stored bytes decode`);

      }
    } finally {
      watch.close();
    }
  });
});
