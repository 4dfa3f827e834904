// Conformance: watches from past revisions, event shapes, ordering under
// concurrent writers, and prefix isolation.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Collector, type StoreFactory, keyOf, sleep, str, text, suite, uniquePrefix } from './harness.js';

export function runWatchTests(f: StoreFactory): void {
  suite(f, 'watch', (s) => {

    it('delivers every change after a past revision, with previous values', async () => {
      const p = uniquePrefix('watch-past');
      await s.create(p + 'before', text('x'));
      const from = await s.currentRevision();
      const a = await s.create(p + 'a', text('a1'));
      const a2 = await s.update(p + 'a', text('a2'));
      const d = await s.delete(p + 'a');
      const c = new Collector();
      c.handle = await s.watch({ prefix: p, fromRevision: from }, c.sink);
      await c.waitFor(3);
      const live = await s.create(p + 'b', text('b1'));
      await c.waitFor(4);
      c.handle.close();
      assert.equal(c.error, undefined);
      const [e1, e2, e3, e4] = c.events;
      assert.deepEqual([e1!.type, e2!.type, e3!.type, e4!.type], ['create', 'update', 'delete', 'create']);
      assert.deepEqual(c.events.map((e) => e.revision), [a.modRevision, a2.modRevision, d.revision, live.modRevision]);
      assert.ok(e2!.type === 'update' && str(e2.prev.value) === 'a1' && str(e2.kv.value) === 'a2');
      assert.equal(e2!.type === 'update' && e2.prev.modRevision, a.modRevision);
      assert.ok(e3!.type === 'delete' && str(e3.prev.value) === 'a2' && e3.prev.modRevision === a2.modRevision);
      assert.equal(e3!.type === 'delete' && e3.key, p + 'a');
    });

    it('starting at the current revision delivers only later changes', async () => {
      const p = uniquePrefix('watch-now');
      await s.create(p + 'old', text('x'));
      const c = new Collector();
      c.handle = await s.watch({ prefix: p, fromRevision: await s.currentRevision() }, c.sink);
      await s.create(p + 'new', text('y'));
      await c.waitFor(1);
      await sleep(50);
      c.handle.close();
      assert.deepEqual(c.events.map(keyOf), [p + 'new']);
    });

    it('keeps revision order with no gaps or duplicates under concurrent writers, and isolates prefixes', async () => {
      const p = uniquePrefix('watch-order');
      const other = uniquePrefix('watch-other');
      const from = await s.currentRevision();
      const c = new Collector();
      c.handle = await s.watch({ prefix: p, fromRevision: from }, c.sink);
      const writers = 8;
      const perWriter = 40;
      const revs: number[] = [];
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < perWriter; i++) {
            const kv = await s.create(`${p}w${w}-${i}`, text('x'));
            revs.push(kv.modRevision);
            if (i % 5 === 0) await s.create(`${other}w${w}-${i}`, text('noise'));
            if (i % 4 === 0) revs.push((await s.update(`${p}w${w}-${i}`, text('y'))).modRevision);
          }
        }),
      );
      await c.waitFor(revs.length);
      await sleep(50);
      c.handle.close();
      const got = c.events.map((e) => e.revision);
      assert.deepEqual(got, [...revs].sort((x, y) => x - y), 'every write of the prefix, once, in revision order');
      assert.ok(c.events.every((e) => keyOf(e).startsWith(p)));
    });

    it('a late watcher catching up from history joins live events seamlessly', async () => {
      const p = uniquePrefix('watch-catchup');
      const from = await s.currentRevision();
      for (let i = 0; i < 1500; i++) await s.create(`${p}${i}`, text('x')); // more than one history chunk
      const c = new Collector();
      c.handle = await s.watch({ prefix: p, fromRevision: from }, c.sink);
      const tail = Array.from({ length: 100 }, (_, i) => s.create(`${p}tail-${i}`, text('t')));
      await Promise.all(tail);
      await c.waitFor(1600);
      await sleep(50);
      c.handle.close();
      const revs = c.events.map((e) => e.revision);
      assert.equal(revs.length, 1600);
      for (let i = 1; i < revs.length; i++) assert.ok(revs[i]! > revs[i - 1]!, `revision order at ${i}`);
    });

    it('several watches on one prefix from different revisions each get exactly their events', async () => {
      const p = uniquePrefix('watch-many');
      const r0 = await s.currentRevision();
      const a = new Collector();
      a.handle = await s.watch({ prefix: p, fromRevision: r0 }, a.sink);
      const first = await s.create(p + '1', text('x'));
      await a.waitFor(1);
      const b = new Collector();
      b.handle = await s.watch({ prefix: p, fromRevision: first.modRevision }, b.sink);
      const c = new Collector();
      c.handle = await s.watch({ prefix: p, fromRevision: r0 }, c.sink);
      const second = await s.create(p + '2', text('y'));
      const third = await s.update(p + '1', text('z'));
      await Promise.all([a.waitFor(3), b.waitFor(2), c.waitFor(3)]);
      b.handle.close();
      const fourth = await s.delete(p + '2');
      await Promise.all([a.waitFor(4), c.waitFor(4)]);
      await sleep(50);
      a.handle.close();
      c.handle.close();
      const revs = (x: Collector) => x.events.map((e) => e.revision);
      assert.deepEqual(revs(a), [first.modRevision, second.modRevision, third.modRevision, fourth.revision]);
      assert.deepEqual(revs(b), [second.modRevision, third.modRevision]);
      assert.deepEqual(revs(c), revs(a));
    });

    it('a closed watch receives nothing more', async () => {
      const p = uniquePrefix('watch-close');
      const c = new Collector();
      c.handle = await s.watch({ prefix: p, fromRevision: await s.currentRevision() }, c.sink);
      await s.create(p + 'a', text('x'));
      await c.waitFor(1);
      c.handle.close();
      c.handle.close();
      await s.create(p + 'b', text('x'));
      await sleep(100);
      assert.equal(c.events.length, 1);
    });
  });
}
