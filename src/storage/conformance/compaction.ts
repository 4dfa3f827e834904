// Conformance: compaction and the Compacted errors of reads and watches.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Collector, type StoreFactory, rejectsWith, str, text, suite, uniquePrefix } from './harness.js';

export function runCompactionTests(f: StoreFactory): void {
  suite(f, 'compaction', (s) => {

    it('reads and watches below the compacted revision fail with Compacted; at it they work', async () => {
      const p = uniquePrefix('compact');
      const a1 = await s.create(p + 'a', text('a1'));
      await s.create(p + 'gone', text('g'));
      const a2 = await s.update(p + 'a', text('a2'));
      await s.delete(p + 'gone');
      const at = await s.currentRevision();
      const a3 = await s.update(p + 'a', text('a3'));
      await s.compact(at);
      assert.ok((await s.compactedRevision()) >= at);

      const err = await rejectsWith(s.get(p + 'a', { revision: a1.modRevision }), 'Compacted');
      assert.ok(err.revision! >= at, 'the error carries the compacted revision');
      await rejectsWith(s.range(p, { revision: a2.modRevision }), 'Compacted');
      await rejectsWith(s.watch({ prefix: p, fromRevision: a1.modRevision }, new Collector().sink), 'Compacted');

      const still = await s.range(p, { revision: at });
      assert.deepEqual(still.items.map((kv) => [kv.key.slice(p.length), str(kv.value)]), [['a', 'a2']]);
      const c = new Collector();
      c.handle = await s.watch({ prefix: p, fromRevision: at }, c.sink);
      await c.waitFor(1);
      c.handle.close();
      assert.equal(c.events[0]!.revision, a3.modRevision);
      assert.ok(c.events[0]!.type === 'update' && str(c.events[0].prev.value) === 'a2');
      assert.equal(str((await s.get(p + 'a'))!.value), 'a3');
    });

    it('compacting again at or below the compacted revision is a no-op; beyond the current one fails', async () => {
      const p = uniquePrefix('compact-again');
      await s.create(p + 'x', text('1'));
      const rev = await s.currentRevision();
      await s.compact(rev);
      await s.compact(rev);
      await s.compact(rev - 1);
      await rejectsWith(s.compact(rev + 1000), 'FutureRevision');
      assert.equal(str((await s.get(p + 'x'))!.value), '1');
    });

    it('writes keep working while a large compaction runs', async () => {
      const p = uniquePrefix('compact-big');
      for (let i = 0; i < 300; i++) await s.update(p + (i % 10), text(String(i))).catch(() => s.create(p + (i % 10), text(String(i))));
      const rev = await s.currentRevision();
      const [, created] = await Promise.all([s.compact(rev), s.create(p + 'during', text('d'))]);
      assert.ok(created.modRevision > rev);
      const r = await s.range(p);
      assert.equal(r.items.length, 11);
      assert.equal(str(r.items.find((kv) => kv.key === p + '9')!.value), '299');
    });
  });
}
