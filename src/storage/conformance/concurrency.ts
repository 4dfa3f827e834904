// Conformance: conditional-update races (no lost updates).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KeyValue } from '../interface.js';
import { isStorageError } from '../errors.js';
import { type StoreFactory, str, text, suite, uniquePrefix } from './harness.js';

export function runConcurrencyTests(f: StoreFactory): void {
  suite(f, 'concurrency', (s) => {

    it('64 concurrent conditional updaters lose no update', async () => {
      const p = uniquePrefix('race');
      const keys = ['k0', 'k1', 'k2', 'k3'].map((k) => p + k);
      for (const k of keys) await s.create(k, text('0'));
      const perWriter = 10;
      let conflicts = 0;
      const increment = async (key: string) => {
        let cur: KeyValue = (await s.get(key))!;
        for (;;) {
          try {
            await s.update(key, text(String(Number(str(cur.value)) + 1)), { expectedModRevision: cur.modRevision });
            return;
          } catch (err) {
            if (!isStorageError(err, 'Conflict')) throw err;
            conflicts++;
            cur = err.current!;
          }
        }
      };
      const expected = new Map(keys.map((k) => [k, 0]));
      await Promise.all(
        Array.from({ length: 64 }, async (_, w) => {
          for (let i = 0; i < perWriter; i++) {
            const key = keys[(w + i) % keys.length]!;
            expected.set(key, expected.get(key)! + 1);
            await increment(key);
          }
        }),
      );
      for (const k of keys) assert.equal(Number(str((await s.get(k))!.value)), expected.get(k), `final count of ${k}`);
      assert.ok(conflicts > 0, 'the race produced conflicts (otherwise it tested nothing)');
    });

    it('concurrent creates of one key: exactly one wins', async () => {
      const p = uniquePrefix('create-race');
      const results = await Promise.allSettled(Array.from({ length: 32 }, (_, i) => s.create(p + 'only', text(String(i)))));
      const won = results.filter((r) => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(isStorageError(r.reason, 'KeyExists'));
    });

    it('every successful write gets its own revision', async () => {
      const p = uniquePrefix('revs');
      const kvs = await Promise.all(Array.from({ length: 100 }, (_, i) => s.create(p + i, text('x'))));
      const revs = new Set(kvs.map((kv) => kv.modRevision));
      assert.equal(revs.size, 100);
    });
  });
}
