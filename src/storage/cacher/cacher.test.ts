// The watch cache over an in-memory SQLite store: fan-out by prefix (every
// event once, in order, for every watcher, across history and live events),
// the ordered key index behind lists and pages, and unchangedSince, which
// decides when a page of a list may be read from the cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStore } from '../sqlite/store.js';
import type { KeyValue, WatchEvent } from '../interface.js';
import { Cacher } from './cacher.js';

const P = '/registry/things/';
const v = (s: string) => Buffer.from(s);
const keyOf = (e: WatchEvent) => (e.type === 'delete' ? e.key : e.kv.key);

async function open(): Promise<{ store: SqliteStore; cache: Cacher }> {
  const store = SqliteStore.open({ path: ':memory:' });
  const cache = new Cacher(store, P, { synchronous: true });
  await cache.start();
  return { store, cache };
}

function collector() {
  const got: string[] = [];
  const revisions: number[] = [];
  return {
    got,
    revisions,
    sink: {
      onEvents: (events: readonly WatchEvent[]) => {
        for (const e of events) {
          got.push(`${e.type} ${keyOf(e)}`);
          revisions.push(e.revision);
        }
      },
      onError: (err: Error) => got.push(`error ${err.message}`),
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('every watcher gets its prefix\'s events once, in order, from history and live', async () => {
  const { store, cache } = await open();
  await store.create(`${P}a/1`, v('1'));
  const start = await store.currentRevision();
  await store.create(`${P}b/1`, v('1'));
  await store.update(`${P}a/1`, v('2'));
  const all = collector();
  const a = collector();
  const a2 = collector();
  const b = collector();
  const fromHistory = collector();
  await cache.watch(P, start, all.sink);
  await cache.watch(`${P}a/`, start, a.sink);
  await cache.watch(`${P}a/`, await store.currentRevision(), a2.sink);
  await cache.watch(`${P}b/`, start, b.sink);
  // Concurrent writers: one batch of several events (group commit), then more.
  await Promise.all([store.create(`${P}a/2`, v('1')), store.create(`${P}b/2`, v('1')), store.delete(`${P}a/1`), store.create(`${P}c/1`, v('1'))]);
  await store.update(`${P}b/2`, v('2'));
  await cache.watch(P, start, fromHistory.sink); // all of it from the history window
  await tick();
  const live = ['create /registry/things/a/2', 'create /registry/things/b/2', 'delete /registry/things/a/1', 'create /registry/things/c/1', 'update /registry/things/b/2'];
  assert.deepEqual(all.got, ['create /registry/things/b/1', 'update /registry/things/a/1', ...live]);
  assert.deepEqual(fromHistory.got, all.got);
  assert.deepEqual(a.got, ['update /registry/things/a/1', 'create /registry/things/a/2', 'delete /registry/things/a/1']);
  assert.deepEqual(a2.got, ['create /registry/things/a/2', 'delete /registry/things/a/1']);
  assert.deepEqual(b.got, ['create /registry/things/b/1', 'create /registry/things/b/2', 'update /registry/things/b/2']);
  for (const c of [all, a, a2, b]) assert.deepEqual(c.revisions, [...c.revisions].sort((x, y) => x - y));
  assert.equal(cache.watcherCount, 5);
  cache.stop();
  await store.close();
});

test('a watcher that throws is dropped; the others go on', async () => {
  const { store, cache } = await open();
  const good = collector();
  const error = console.error;
  console.error = () => {};
  try {
    await cache.watch(P, await store.currentRevision(), { onEvents: () => { throw new Error('boom'); }, onError: () => {} });
    await cache.watch(P, await store.currentRevision(), good.sink);
    await store.create(`${P}x`, v('1'));
    await store.create(`${P}y`, v('1'));
  } finally {
    console.error = error;
  }
  assert.deepEqual(good.got, [`create ${P}x`, `create ${P}y`]);
  assert.equal(cache.watcherCount, 1);
  cache.stop();
  await store.close();
});

test('lists and pages read the keys in order through creates, deletes and re-creates', async () => {
  const { store, cache } = await open();
  const names = ['n/b', 'n/a', 'm/z', 'n/c', 'n/aa', 'o/a'];
  for (const n of names) await store.create(`${P}${n}`, v(n));
  await store.delete(`${P}n/c`);
  await store.create(`${P}n/c`, v('again'));
  await store.delete(`${P}n/aa`);
  await store.create(`${P}n/ab`, v('x'));
  const keys = (kvs: Iterable<KeyValue>) => [...kvs].map((kv) => kv.key.slice(P.length));
  assert.deepEqual(keys(cache.list(P).items), ['m/z', 'n/a', 'n/ab', 'n/b', 'n/c', 'o/a']);
  assert.deepEqual(keys(cache.list(`${P}n/`).items), ['n/a', 'n/ab', 'n/b', 'n/c']);
  assert.equal(cache.list(`${P}n/`).items[3]!.value.toString(), 'again');
  assert.deepEqual(keys(cache.after(`${P}n/`, undefined)), ['n/a', 'n/ab', 'n/b', 'n/c']);
  assert.deepEqual(keys(cache.after(`${P}n/`, `${P}n/ab`)), ['n/b', 'n/c']);
  assert.deepEqual(keys(cache.after(`${P}n/`, `${P}n/c`)), []);
  assert.deepEqual(keys(cache.after(`${P}n/`, `${P}m/zz`)), ['n/a', 'n/ab', 'n/b', 'n/c'], 'a start before the prefix starts at the prefix');
  assert.equal(cache.countAfter(`${P}n/`, `${P}n/a`), 3);
  assert.equal(cache.countAfter(`${P}n/`, `${P}n/c`), 0);
  assert.equal(cache.countAfter(P, `${P}n/b`), 2);
  // The same keys storage ranges over.
  assert.deepEqual(keys((await store.range(P)).items), keys(cache.list(P).items));
  cache.stop();
  await store.close();
});


test('the key index stays in order when lists come between changes and creates outnumber a fold', async () => {
  const { store, cache } = await open();
  const keys = (kvs: Iterable<KeyValue>) => [...kvs].map((kv) => kv.key);
  const check = async (what: string) => assert.deepEqual(keys(cache.list(P).items), keys((await store.range(P)).items), what);
  // 5,000 creates in a shuffled order (more than one fold's worth), in batches, a list after some.
  let seed = 7;
  const names = Array.from({ length: 5000 }, (_, i) => `ns/pod-${i}`);
  for (let i = names.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [names[i], names[j]] = [names[j]!, names[i]!];
  }
  for (let i = 0; i < names.length; i += 500) {
    await Promise.all(names.slice(i, i + 500).map((n) => store.create(`${P}${n}`, v(n))));
    if (i % 1000 === 0) await check(`after ${i + 500} creates`);
  }
  await check('after every create');
  // Deletes, a re-create of a deleted key, and new keys between two folds.
  await store.delete(`${P}ns/pod-10`);
  await store.delete(`${P}ns/pod-11`);
  await store.create(`${P}ns/pod-10`, v('again'));
  await store.create(`${P}ns/a-first`, v('new'));
  await check('after deletes and a re-create');
  await store.delete(`${P}ns/a-first`);
  await check('after deleting a key created since the last list');
  assert.equal(cache.list(P).items.length, 4999);
  cache.stop();
  await store.close();
});
test('unchangedSince: whether a prefix changed after a revision within the window', async () => {
  const store = SqliteStore.open({ path: ':memory:' });
  await store.create(`${P}a/0`, v('0'));
  const cache = new Cacher(store, P, { synchronous: true, maxEvents: 3 });
  await cache.start();
  const r0 = await store.currentRevision();
  await store.create(`${P}a/1`, v('1'));
  const r1 = await store.currentRevision();
  await store.create(`${P}b/1`, v('1'));
  const r2 = await store.currentRevision();
  const cases: [string, string, number, boolean][] = [
    ['a changed after r0', `${P}a/`, r0, false],
    ['a unchanged after r1 (only b changed)', `${P}a/`, r1, true],
    ['b changed after r1', `${P}b/`, r1, false],
    ['nothing changed after r2', P, r2, true],
    ['a future revision', P, r2 + 10, true],
  ];
  for (const [name, prefix, rev, want] of cases) assert.equal(cache.unchangedSince(prefix, rev), want, name);
  // Three more events push the first ones out of the window (maxEvents 3): r0 is no longer known.
  for (let i = 0; i < 3; i++) await store.create(`${P}c/${i}`, v('c'));
  assert.equal(cache.unchangedSince(`${P}z/`, r0), false, 'older than the window');
  assert.equal(cache.unchangedSince(`${P}a/`, r2), true);
  cache.stop();
  await store.close();
});
