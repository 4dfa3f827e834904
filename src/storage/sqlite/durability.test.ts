// SQLite specifics: crash durability (SIGKILL in a write storm), restart,
// automatic compaction, exclusive ownership and clear start-up failures.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { SqliteStore } from './store.js';
import { tempDir } from '../../testing/tempdir.js';

const here = dirname(fileURLToPath(import.meta.url));
const tempDb = () => join(tempDir('svc-sqlite-'), 'state.db');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sqlite durability', () => {
  for (const mode of ['small batches on the event loop', 'every batch on the writer thread']) it(`loses no acknowledged write when killed with SIGKILL mid-storm (${mode})`, async () => {
    const path = tempDb();
    const child = spawn(process.execPath, [join(here, 'crashwriter.js'), path, ...(mode.includes('thread') ? ['thread'] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acked = new Map<string, number>();
    let buf = '';
    let lines = 0;
    const killedAfter = new Promise<void>((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        buf += d.toString();
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const [, key, rev] = buf.slice(0, i).split(' ');
          buf = buf.slice(i + 1);
          acked.set(key!, Math.max(acked.get(key!) ?? 0, Number(rev)));
          if (++lines === 3000) {
            child.kill('SIGKILL');
            resolve();
          }
        }
      });
    });
    await killedAfter;
    await new Promise((r) => child.on('exit', r));
    assert.ok(acked.size > 1000);

    const store = SqliteStore.open({ path });
    try {
      let maxRev = 0;
      for (const [key, rev] of acked) {
        const kv = await store.get(key);
        assert.ok(kv, `acknowledged key ${key} survived`);
        assert.ok(kv.modRevision >= rev, `${key} is at least at its acknowledged revision`);
        maxRev = Math.max(maxRev, rev);
      }
      assert.ok((await store.currentRevision()) >= maxRev);
      const next = await store.create('/after-crash', Buffer.from('x'));
      assert.ok(next.modRevision > maxRev, 'revisions keep increasing after the crash');
    } finally {
      await store.close();
    }
  });

  it('reopens with data, revision and compaction state intact', async () => {
    const path = tempDb();
    let s = SqliteStore.open({ path });
    await s.create('/k/a', Buffer.from('1'));
    await s.update('/k/a', Buffer.from('2'));
    await s.create('/k/b', Buffer.from('3'));
    await s.delete('/k/b');
    const rev = await s.currentRevision();
    await s.compact(rev - 1);
    await s.close();
    s = SqliteStore.open({ path });
    try {
      assert.equal(await s.currentRevision(), rev);
      assert.equal(await s.compactedRevision(), rev - 1);
      assert.deepEqual((await s.range('/k/')).items.map((kv) => Buffer.from(kv.value).toString()), ['2']);
      // The revision of a deleted last row is never reused.
      const c = await s.create('/k/c', Buffer.from('4'));
      assert.equal(c.modRevision, rev + 1);
    } finally {
      await s.close();
    }
  });

  it('compacts automatically, keeping the configured history', async () => {
    const s = SqliteStore.open({ path: ':memory:', compaction: { retentionMs: 150, intervalMs: 30 } });
    try {
      for (let i = 0; i < 50; i++) await s.update('/auto/x', Buffer.from(String(i))).catch(() => s.create('/auto/x', Buffer.from('0')));
      const early = await s.currentRevision();
      for (let i = 0; i < 40 && (await s.compactedRevision()) === 0; i++) await sleep(30);
      assert.ok((await s.compactedRevision()) > 0, 'automatic compaction ran');
      assert.ok((await s.compactedRevision()) <= early);
      const recent = await s.currentRevision();
      assert.ok(await s.get('/auto/x', { revision: recent }));
    } finally {
      await s.close();
    }
  });

  it('a second process on the same file fails with a clear message', async () => {
    const path = tempDb();
    const s = SqliteStore.open({ path }); // holds the file from open on
    try {
      const out = await new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', `import { SqliteStore } from ${JSON.stringify(join(here, 'store.js'))}; try { SqliteStore.open({ path: ${JSON.stringify(path)} }); console.log('opened'); } catch (e) { console.log(e.message); }`]);
        let o = '';
        child.stdout.on('data', (d: Buffer) => (o += d.toString()));
        child.on('exit', () => resolve(o));
      });
      assert.match(out, /cannot open SQLite store at .*state\.db: .*(locked|busy).*another server/i);
    } finally {
      await s.close();
    }
  });

  describe('acknowledged only after the write-ahead log is synced', () => {
    type Held = { fd: number; done: (err: Error | null) => void }[];
    /** Runs `body` on a store whose log syncs wait until the test releases (or fails) them; then releases the rest and closes. */
    async function withHeldStore(body: (store: SqliteStore, held: Held) => Promise<void>): Promise<void> {
      const held: Held = [];
      let releasing = false;
      const store = SqliteStore.open({ path: tempDb(), syncLog: (fd, done) => (releasing ? done(null) : held.push({ fd, done })) });
      try {
        await body(store, held);
      } finally {
        releasing = true;
        for (const h of held.splice(0)) h.done(null);
        await store.close();
      }
    }
    const settled = async (p: Promise<unknown>) => Promise.race([p.then(() => 'settled', () => 'settled'), sleep(20).then(() => 'pending')]);
    /** Waits until `n` syncs are held (the commits before them came back from the writer thread). */
    async function untilHeld(held: Held, n: number): Promise<void> {
      for (let i = 0; i < 1000 && held.length < n; i++) await sleep(2);
      assert.equal(held.length, n, `${n} sync(s) held`);
    }

    it('holds the ack, the revision, reads and watch events until the sync finishes', () =>
      withHeldStore(async (store, held) => {
        const events: number[] = [];
        await store.watch({ prefix: '/s/', fromRevision: await store.currentRevision() }, { onEvents: (es) => events.push(...es.map((e) => e.revision)), onError: () => {} });
        const before = await store.currentRevision();
        const write = store.create('/s/a', Buffer.from('1'));
        await untilHeld(held, 1); // the commit started one sync
        assert.equal(await settled(write), 'pending');
        assert.equal(await store.get('/s/a'), null, 'a committed but unsynced write is not read');
        assert.equal((await store.range('/s/')).items.length, 0);
        assert.equal(await store.currentRevision(), before);
        assert.deepEqual(events, []);
        held.shift()!.done(null);
        const kv = await write;
        assert.equal(kv.modRevision, before + 1);
        assert.equal(await store.currentRevision(), kv.modRevision);
        assert.ok(await store.get('/s/a'));
        assert.deepEqual(events, [kv.modRevision]);
      }));

    it('commits made while a sync runs are acknowledged together by the next one', () =>
      withHeldStore(async (store, held) => {
        const first = store.create('/s/1', Buffer.from('1'));
        await untilHeld(held, 1);
        const later = [store.create('/s/2', Buffer.from('2')), store.create('/s/3', Buffer.from('3'))];
        await sleep(20);
        assert.equal(held.length, 1, 'no second sync while the first runs');
        held.shift()!.done(null);
        await first;
        await untilHeld(held, 1); // one sync for both
        assert.equal(await settled(Promise.all(later)), 'pending', 'the first sync started before they committed');
        held.shift()!.done(null);
        assert.deepEqual((await Promise.all(later)).map((kv) => kv.key), ['/s/2', '/s/3']);
      }));

    it('a conflict is also reported only after the sync (a retry then reads the newer version)', () =>
      withHeldStore(async (store, held) => {
        const a = store.create('/s/x', Buffer.from('1'));
        await untilHeld(held, 1);
        held.shift()!.done(null);
        const kv = await a;
        const winner = store.update('/s/x', Buffer.from('2'), { expectedModRevision: kv.modRevision });
        const loser = store.update('/s/x', Buffer.from('3'), { expectedModRevision: kv.modRevision });
        await untilHeld(held, 1);
        assert.equal(await settled(loser), 'pending');
        held.shift()!.done(null);
        await winner;
        await assert.rejects(loser, (err: Error & { code?: string }) => err.code === 'Conflict');
      }));

    it('a failed sync fails its writes and stops the store', () =>
      withHeldStore(async (store, held) => {
        const w = store.create('/s/f', Buffer.from('1'));
        await untilHeld(held, 1);
        held.shift()!.done(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
        await assert.rejects(w, /write-ahead log could not be synced: EIO/);
        await assert.rejects(store.create('/s/g', Buffer.from('2')), /closed/);
        await assert.rejects(store.get('/s/f'), /closed/);
      }));

    it('close waits for the running sync', () =>
      withHeldStore(async (store, held) => {
        const w = store.create('/s/c', Buffer.from('1'));
        await untilHeld(held, 1);
        const closing = store.close();
        assert.equal(await settled(closing), 'pending');
        held.shift()!.done(null);
        await closing;
        assert.ok((await w).modRevision > 0);
      }));

    it('syncs the log file SQLite writes: the same file after a truncating checkpoint', async () => {
      const path = tempDb();
      const s = SqliteStore.open({ path });
      try {
        const inode = statSync(`${path}-wal`).ino;
        for (let i = 0; i < 50; i++) await s.create(`/t/${i}`, Buffer.alloc(4096, 1));
        await s.checkpoint();
        assert.equal(statSync(`${path}-wal`).size, 0, 'the checkpoint truncated the log');
        await s.create('/t/after', Buffer.from('x'));
        assert.equal(statSync(`${path}-wal`).ino, inode);
        assert.ok(statSync(`${path}-wal`).size > 0);
      } finally {
        await s.close();
      }
    });
  });

  it('a writer thread that dies stops the store: later writes fail, and so does its health check', async () => {
    const s = SqliteStore.open({ path: tempDb(), inlineValueBytes: 0 });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      await s.create('/w/a', Buffer.from('1'));
      await (s as unknown as { writer: { worker: { terminate(): Promise<number> } } }).writer.worker.terminate();
      await assert.rejects(s.create('/w/c', Buffer.from('3')), /closed/);
      await assert.rejects(s.currentRevision(), /closed/);
      assert.match(String(errors[0]), /the SQLite writer stopped/);
    } finally {
      console.error = original;
      await s.close();
    }
  });

  it('a corrupt file fails start-up with a message naming the cause', () => {
    const path = tempDb();
    writeFileSync(path, 'this is not a database, just some bytes '.repeat(200));
    assert.throws(() => SqliteStore.open({ path }), /cannot open SQLite store at .*state\.db: file is not a database/);
  });
});

describe('sqlite writer thread and node options', () => {
  // workers refuse --input-type; an explicit option list for them may not hold V8 flags (--expose-gc)
  for (const flags of [['--input-type=module'], ['--expose-gc', '--input-type=module'], ['--expose-gc']]) it(`a store opened by \`node ${flags.join(' ')} …\` writes through its thread`, async () => {
    const path = tempDb();
    // an async function, not top-level await: without --input-type=module, -e runs as CommonJS
    const script = `(async () => {
const { SqliteStore } = await import(${JSON.stringify(pathToFileURL(join(here, 'store.js')).href)});
const store = SqliteStore.open({ path: ${JSON.stringify(path)}, inlineValueBytes: 0 });
const kv = await store.create('/k', Buffer.from('v'.repeat(4096)));
console.log('created', kv.modRevision);
await store.close();
})().catch((err) => { console.error(err); process.exit(1); });`;
    const child = spawn(process.execPath, [...flags, '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    assert.equal(code, 0, out);
    assert.match(out, /^created \d+\n$/);
  });
});
