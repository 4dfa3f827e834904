// Runs the JSON patch corpus (jsonpatch.corpus.ts) against jsonpatch.ts: every
// row's patched document byte for byte as evanphx/json-patch v4.12.0 writes it
// (and the same value), its error text, or its panic; and the decoding rows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from './errors.js';
import type { JsonValue } from './json.js';
import { decodeJsonPatch, MAX_JSON_PATCH_COPY_BYTES, runJsonPatch } from './jsonpatch.js';
import { CORPUS, DECODE_ROWS } from './jsonpatch.corpus.js';

function throwsPatchError(f: () => unknown, kind: PatchError['kind'], message?: string): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof PatchError, String(e));
    assert.equal(e.kind, kind, e.message);
    if (message !== undefined) assert.equal(e.message, message);
    return true;
  });
}

describe('JSON patch corpus (evanphx/json-patch v4.12.0)', () => {
  it('has a row for every operation and outcome', () => {
    for (const op of ['add', 'remove', 'replace', 'move', 'copy', 'test']) {
      const rows = CORPUS.filter((r) => r.patch.includes(`"op":"${op}"`));
      assert.ok(rows.some((r) => r.want !== undefined), `${op} succeeds somewhere`);
      assert.ok(rows.some((r) => r.error !== undefined), `${op} fails somewhere`);
    }
    assert.ok(CORPUS.length >= 60);
  });

  for (const row of CORPUS) {
    it(row.name, () => {
      const ops = decodeJsonPatch(row.patch, 'Ignore').operations;
      const run = () => runJsonPatch(JSON.parse(row.doc) as JsonValue, ops, { maxCopyBytes: row.maxCopyBytes ?? MAX_JSON_PATCH_COPY_BYTES });
      if (row.want !== undefined) {
        const r = run();
        assert.equal(r.goJSON(), row.want);
        assert.deepEqual(r.value, JSON.parse(row.want));
      } else if (row.panic) {
        throwsPatchError(run, 'panic');
      } else {
        throwsPatchError(run, 'notApplicable', row.error);
      }
    });
  }
});

describe('JSON patch bodies as the API server decodes them', () => {
  for (const row of DECODE_ROWS) {
    it(`${row.name} (${row.validation})`, () => {
      const decode = () => decodeJsonPatch(row.body, row.validation);
      if (row.error !== undefined) return throwsPatchError(decode, row.tooMany ? 'tooManyOperations' : 'malformed', row.error);
      assert.deepEqual(decode().strict, row.strict);
    });
  }
});
