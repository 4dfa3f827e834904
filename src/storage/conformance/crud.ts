// Conformance: create, get, update, delete and their typed errors.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MAX_VALUE_BYTES } from '../limits.js';
import { type StoreFactory, rejectsWith, str, text, suite, uniquePrefix } from './harness.js';

export function runCrudTests(f: StoreFactory): void {
  suite(f, 'CRUD', (s) => {

    it('creates, reads, updates and deletes with strictly increasing revisions', async () => {
      const p = uniquePrefix('crud');
      const r0 = await s.currentRevision();
      const a = await s.create(p + 'a', text('one'));
      assert.ok(a.modRevision > r0);
      assert.equal(a.createRevision, a.modRevision);
      assert.equal(await s.currentRevision(), a.modRevision);
      const got = await s.get(p + 'a');
      assert.equal(str(got!.value), 'one');
      assert.equal(got!.modRevision, a.modRevision);

      const b = await s.update(p + 'a', text('two'), { expectedModRevision: a.modRevision });
      assert.ok(b.modRevision > a.modRevision);
      assert.equal(b.createRevision, a.createRevision, 'updates keep the create revision');
      const c = await s.update(p + 'a', text('three'));
      assert.ok(c.modRevision > b.modRevision);

      const d = await s.delete(p + 'a', { expectedModRevision: c.modRevision });
      assert.ok(d.revision > c.modRevision);
      assert.equal(str(d.prev.value), 'three');
      assert.equal(d.prev.modRevision, c.modRevision);
      assert.equal(await s.get(p + 'a'), null);
      assert.equal(str((await s.get(p + 'a', { revision: b.modRevision }))!.value), 'two', 'past revisions stay readable');

      const again = await s.create(p + 'a', text('reborn'));
      assert.equal(again.createRevision, again.modRevision, 'a re-created key has a new create revision');
      assert.ok(again.createRevision > d.revision);
    });

    it('reports KeyExists, KeyNotFound and Conflict with the current value', async () => {
      const p = uniquePrefix('errors');
      const a = await s.create(p + 'a', text('v1'));
      await rejectsWith(s.create(p + 'a', text('dup')), 'KeyExists');
      await rejectsWith(s.update(p + 'missing', text('x')), 'KeyNotFound');
      await rejectsWith(s.update(p + 'missing', text('x'), { expectedModRevision: 5 }), 'KeyNotFound');
      await rejectsWith(s.delete(p + 'missing'), 'KeyNotFound');
      const b = await s.update(p + 'a', text('v2'));
      const conflict = await rejectsWith(s.update(p + 'a', text('stale'), { expectedModRevision: a.modRevision }), 'Conflict');
      assert.equal(conflict.current!.modRevision, b.modRevision);
      assert.equal(str(conflict.current!.value), 'v2');
      await rejectsWith(s.delete(p + 'a', { expectedModRevision: a.modRevision }), 'Conflict');
      assert.equal(str((await s.get(p + 'a'))!.value), 'v2', 'a failed write changes nothing');
      const rev = await s.currentRevision();
      await rejectsWith(s.create(p + 'a', text('dup')), 'KeyExists');
      assert.equal(await s.currentRevision(), rev, 'a failed write takes no revision');
    });

    it('rejects values over 1.5 MiB and keeps nothing', async () => {
      const p = uniquePrefix('large');
      await rejectsWith(s.create(p + 'big', new Uint8Array(MAX_VALUE_BYTES + 1)), 'ValueTooLarge');
      assert.equal(await s.get(p + 'big'), null);
      const ok = await s.create(p + 'ok', new Uint8Array(1024 * 1024).fill(7));
      await rejectsWith(s.update(p + 'ok', new Uint8Array(MAX_VALUE_BYTES + 1)), 'ValueTooLarge');
      const got = await s.get(p + 'ok');
      assert.equal(got!.value.byteLength, 1024 * 1024);
      assert.equal(got!.modRevision, ok.modRevision);
    });

    it('reports FutureRevision for reads beyond the current revision', async () => {
      const p = uniquePrefix('future');
      await s.create(p + 'a', text('x'));
      const rev = await s.currentRevision();
      const err = await rejectsWith(s.get(p + 'a', { revision: rev + 1000 }), 'FutureRevision');
      assert.ok(err.revision! >= rev);
      await rejectsWith(s.range(p, { revision: rev + 1000 }), 'FutureRevision');
    });
  });
}
