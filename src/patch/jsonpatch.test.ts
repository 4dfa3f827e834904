// jsonpatch.ts beyond the corpus (jsonpatch.corpus.test.ts): purity, the
// operation objects programmatic callers pass, and the Status of each failure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError, patchErrorToStatus } from './errors.js';
import type { JsonValue } from './json.js';
import { applyJsonPatch, decodeJsonPatch, runJsonPatch } from './jsonpatch.js';

const apply = (doc: string, patch: string): JsonValue => applyJsonPatch(JSON.parse(doc) as JsonValue, decodeJsonPatch(patch).operations);

describe('applying JSON patches', () => {
  it('never mutates its input', () => {
    const doc = { a: [1, 2], b: { c: 'x' } };
    const before = JSON.stringify(doc);
    const ops = [{ op: 'add', path: '/a/0', value: 0 }, { op: 'remove', path: '/b/c' }, { op: 'move', from: '/a', path: '/d' }];
    const opsBefore = JSON.stringify(ops);
    assert.deepEqual(applyJsonPatch(doc, ops), { b: {}, d: [0, 1, 2] });
    assert.equal(JSON.stringify(doc), before);
    assert.equal(JSON.stringify(ops), opsBefore);
  });

  it('a failed operation leaves the input untouched', () => {
    const doc = { data: { a: '11' } };
    assert.throws(() => applyJsonPatch(doc, [{ op: 'replace', path: '/data/a', value: '12' }, { op: 'test', path: '/data/a', value: '999' }]), PatchError);
    assert.deepEqual(doc, { data: { a: '11' } });
  });

  it('keeps the document order of members and puts new ones last (the value; the Go text is sorted)', () => {
    const r = runJsonPatch({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', labels: { b: '1' } }, data: { z: '1' } }, decodeJsonPatch('[{"op":"add","path":"/metadata/labels/a","value":"2"}]').operations);
    assert.equal(JSON.stringify(r.value), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","labels":{"b":"1","a":"2"}},"data":{"z":"1"}}');
    assert.equal(r.goJSON(), '{"apiVersion":"v1","data":{"z":"1"},"kind":"ConfigMap","metadata":{"labels":{"a":"2","b":"1"},"name":"c"}}');
  });

  it('the "__proto__" member does not change the prototype', () => {
    const out = apply('{}', '[{"op":"add","path":"/__proto__","value":{"polluted":true}}]') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual(Object.keys(out), ['__proto__']);
  });

  it('takes operations written as objects (values are encoded as Go would)', () => {
    assert.deepEqual(applyJsonPatch({ a: 'x<y' }, [{ op: 'test', path: '/a', value: 'x<y' }, { op: 'add', path: '/b', value: [1, { c: null }] }]), { a: 'x<y', b: [1, { c: null }] });
  });

  it('a document that is not an object or array does not apply', () => {
    assert.throws(() => applyJsonPatch('x', []), (e: unknown) => e instanceof PatchError && e.message === 'json: cannot unmarshal string into Go value of type jsonpatch.partialDoc');
  });
});

describe('Status for JSON patch failures', () => {
  it('an apply failure is 422 Invalid with the generic message and empty details (patch-03-json)', () => {
    let err: unknown;
    try {
      apply('{"data":{"a":"11"}}', '[{"op":"test","path":"/data/a","value":"999"}]');
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof PatchError);
    assert.deepEqual(patchErrorToStatus(err).status, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422,
    });
  });
  it('a malformed body is 400 BadRequest with the decoder text', () => {
    const s = patchErrorToStatus(new PatchError('malformed', 'error decoding patch: unexpected end of JSON input')).status;
    assert.deepEqual([s.code, s.reason, s.message], [400, 'BadRequest', 'error decoding patch: unexpected end of JSON input']);
  });
  it('too many operations is 413 RequestEntityTooLarge', () => {
    const s = patchErrorToStatus(new PatchError('tooManyOperations', 'The allowed maximum operations in a JSON patch is 10000, got 10001')).status;
    assert.deepEqual([s.code, s.reason, s.message], [413, 'RequestEntityTooLarge', 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001']);
  });
});
