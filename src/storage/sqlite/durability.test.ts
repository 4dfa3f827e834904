// SQLite specifics: crash durability (SIGKILL in a write storm), restart,
// automatic compaction, exclusive ownership and clear start-up failures.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { SqliteStore } from './store.js';
import { tempDir } from '../../testing/tempdir.js';

const here = dirname(fileURLToPath(import.meta.url));
const tempDb = () => join(tempDir('svc-sqlite-'), 'state.db');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sqlite durability', () => {
  it('loses no acknowledged write when killed with SIGKILL mid-storm', async () => {
    const path = tempDb();
    const child = spawn(process.execPath, [join(here, 'crashwriter.js'), path], { stdio: ['ignore', 'pipe', 'inherit'] });
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

  it('a corrupt file fails start-up with a message naming the cause', () => {
    const path = tempDb();
    writeFileSync(path, 'this is not a database, just some bytes '.repeat(200));
    assert.throws(() => SqliteStore.open({ path }), /cannot open SQLite store at .*state\.db: file is not a database/);
  });
});
