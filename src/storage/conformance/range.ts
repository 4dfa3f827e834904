// Conformance: ranges at past revisions and consistent paging while writes continue.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type StoreFactory, str, text, suite, uniquePrefix } from './harness.js';

export function runRangeTests(f: StoreFactory): void {
  suite(f, 'range', (s) => {

    it('returns keys under the prefix in byte order, and nothing else', async () => {
      const p = uniquePrefix('order');
      for (const k of ['b', 'a', 'c/x', 'c', 'B']) await s.create(p + k, text(k));
      await s.create(p.slice(0, -1) + 'x', text('outside')); // shares the prefix minus its slash
      const r = await s.range(p);
      assert.deepEqual(r.items.map((kv) => kv.key.slice(p.length)), ['B', 'a', 'b', 'c', 'c/x']);
      assert.equal(r.more, false);
      assert.equal(r.remaining, 0);
      assert.equal(r.revision, await s.currentRevision());
    });

    it('serves a past revision as it was', async () => {
      const p = uniquePrefix('past');
      await s.create(p + 'a', text('a1'));
      await s.create(p + 'b', text('b1'));
      const rev = await s.currentRevision();
      await s.update(p + 'a', text('a2'));
      await s.delete(p + 'b');
      await s.create(p + 'c', text('c1'));
      const past = await s.range(p, { revision: rev });
      assert.equal(past.revision, rev);
      assert.deepEqual(past.items.map((kv) => [kv.key.slice(p.length), str(kv.value)]), [['a', 'a1'], ['b', 'b1']]);
      const now = await s.range(p);
      assert.deepEqual(now.items.map((kv) => [kv.key.slice(p.length), str(kv.value)]), [['a', 'a2'], ['c', 'c1']]);
      assert.equal(await s.get(p + 'c', { revision: rev }), null);
    });

    it('pages with startAfter at one revision see one snapshot while writes continue', async () => {
      const p = uniquePrefix('paging');
      const n = 250;
      for (let i = 0; i < n; i++) await s.create(p + String(i).padStart(4, '0'), text('v0'));
      const first = await s.range(p, { limit: 40 });
      const rev = first.revision;
      assert.equal(first.items.length, 40);
      assert.equal(first.more, true);
      assert.equal(first.remaining, n - 40);
      let stop = false;
      const writer = (async () => {
        let i = 0;
        while (!stop) {
          const k = p + String(i % n).padStart(4, '0');
          if (i % 7 === 0) await s.delete(k).catch(() => undefined);
          else await s.update(k, text('changed')).catch(() => s.create(k, text('changed')));
          await s.create(p + 'zz-new-' + i, text('new'));
          i++;
        }
      })();
      const seen = [...first.items];
      let page = first;
      while (page.more) {
        page = await s.range(p, { limit: 40, revision: rev, startAfter: page.items[page.items.length - 1]!.key });
        assert.equal(page.revision, rev);
        assert.equal(page.remaining, page.more ? n - seen.length - page.items.length : 0);
        seen.push(...page.items);
        await new Promise((r) => setTimeout(r, 5));
      }
      stop = true;
      await writer;
      assert.equal(seen.length, n);
      assert.ok(seen.every((kv) => str(kv.value) === 'v0' && kv.modRevision <= rev), 'no page saw a later write');
      assert.deepEqual(seen.map((kv) => kv.key), [...seen.map((kv) => kv.key)].sort());
      const now = await s.range(p);
      assert.ok(now.revision > rev, 'the writer did write meanwhile');
    });

    it('a limit larger than the range returns everything with more=false', async () => {
      const p = uniquePrefix('biglimit');
      for (let i = 0; i < 5; i++) await s.create(p + i, text('x'));
      const r = await s.range(p, { limit: 10 });
      assert.equal(r.items.length, 5);
      assert.equal(r.more, false);
      const exact = await s.range(p, { limit: 5 });
      assert.equal(exact.items.length, 5);
      assert.equal(exact.more, false);
    });
  });
}
