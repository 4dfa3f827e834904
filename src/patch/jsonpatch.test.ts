// RFC 6902 appendix A, the evanphx/Kubernetes behaviours jsonpatch.ts keeps, the
// error texts, and the Status each failure becomes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError, patchErrorToStatus } from './errors.js';
import type { JsonValue } from './json.js';
import { applyJsonPatch, decodeJsonPatch } from './jsonpatch.js';

const apply = (doc: string, patch: string): JsonValue => applyJsonPatch(JSON.parse(doc) as JsonValue, decodeJsonPatch(patch));

function rejects(f: () => unknown, kind: PatchError['kind'], message: string): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof PatchError, String(e));
    assert.equal(e.kind, kind);
    assert.equal(e.message, message);
    return true;
  });
}

describe('RFC 6902 appendix A', () => {
  const ok: [string, string, string, string][] = [
    ['A.1 add an object member', '{"foo":"bar"}', '[{"op":"add","path":"/baz","value":"qux"}]', '{"baz":"qux","foo":"bar"}'],
    ['A.2 add an array element', '{"foo":["bar","baz"]}', '[{"op":"add","path":"/foo/1","value":"qux"}]', '{"foo":["bar","qux","baz"]}'],
    ['A.3 remove an object member', '{"baz":"qux","foo":"bar"}', '[{"op":"remove","path":"/baz"}]', '{"foo":"bar"}'],
    ['A.4 remove an array element', '{"foo":["bar","qux","baz"]}', '[{"op":"remove","path":"/foo/1"}]', '{"foo":["bar","baz"]}'],
    ['A.5 replace a value', '{"baz":"qux","foo":"bar"}', '[{"op":"replace","path":"/baz","value":"boo"}]', '{"baz":"boo","foo":"bar"}'],
    ['A.6 move a value', '{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}', '[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]', '{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}'],
    ['A.7 move an array element', '{"foo":["all","grass","cows","eat"]}', '[{"op":"move","from":"/foo/1","path":"/foo/3"}]', '{"foo":["all","cows","eat","grass"]}'],
    ['A.8 test a value: success', '{"baz":"qux","foo":["a",2,"c"]}', '[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]', '{"baz":"qux","foo":["a",2,"c"]}'],
    ['A.10 add a nested member object', '{"foo":"bar"}', '[{"op":"add","path":"/child","value":{"grandchild":{}}}]', '{"foo":"bar","child":{"grandchild":{}}}'],
    ['A.11 ignore unrecognized elements', '{"foo":"bar"}', '[{"op":"add","path":"/baz","value":"qux","xyz":123}]', '{"foo":"bar","baz":"qux"}'],
    ['A.14 ~ escape ordering', '{"/":9,"~1":10}', '[{"op":"test","path":"/~01","value":10}]', '{"/":9,"~1":10}'],
    ['A.16 add an array value', '{"foo":["bar"]}', '[{"op":"add","path":"/foo/-","value":["abc","def"]}]', '{"foo":["bar",["abc","def"]]}'],
  ];
  for (const [name, doc, patch, want] of ok) it(name, () => assert.deepEqual(apply(doc, patch), JSON.parse(want)));

  const bad: [string, string, string, string][] = [
    ['A.9 test a value: error', '{"baz":"qux"}', '[{"op":"test","path":"/baz","value":"bar"}]', 'testing value /baz failed: test failed'],
    ['A.12 add to a nonexistent target', '{"foo":"bar"}', '[{"op":"add","path":"/baz/bat","value":"qux"}]', 'add operation does not apply: doc is missing path: "/baz/bat": missing value'],
    ['A.13 duplicate op member (the last one wins)', '{"foo":"bar"}', '[{"op":"add","path":"/baz","value":"qux","op":"remove"}]', "error in remove for path: '/baz': Unable to remove nonexistent key: baz: missing value"],
    ['A.15 comparing strings and numbers', '{"/":9,"~1":10}', '[{"op":"test","path":"/~01","value":"10"}]', 'testing value /~01 failed: test failed'],
  ];
  for (const [name, doc, patch, msg] of bad) it(name, () => rejects(() => apply(doc, patch), 'notApplicable', msg));
});

describe('Kubernetes (evanphx v4) behaviour', () => {
  const ok: [string, string, string, string][] = [
    ['escaped keys (~1) as kubectl sends label keys', '{"metadata":{"labels":{}}}', '[{"op":"add","path":"/metadata/labels/example.com~1team","value":"blue"}]', '{"metadata":{"labels":{"example.com/team":"blue"}}}'],
    ['copy then move (patch-03-json)', '{"data":{"a":"11","c":"3"}}', '[{"op":"copy","from":"/data/a","path":"/data/a2"},{"op":"move","from":"/data/c","path":"/data/c2"}]', '{"data":{"a":"11","a2":"11","c2":"3"}}'],
    ['add replaces an existing member', '{"a":1}', '[{"op":"add","path":"/a","value":2}]', '{"a":2}'],
    ['add at the end index appends', '{"a":[1]}', '[{"op":"add","path":"/a/1","value":2}]', '{"a":[1,2]}'],
    ['negative index on add counts from the end', '{"a":[1,2]}', '[{"op":"add","path":"/a/-1","value":3}]', '{"a":[1,2,3]}'],
    ['negative index on remove', '{"a":[1,2,3]}', '[{"op":"remove","path":"/a/-1"}]', '{"a":[1,2]}'],
    ['leading zeros are an index', '{"a":[1,2,3]}', '[{"op":"replace","path":"/a/01","value":9}]', '{"a":[1,9,3]}'],
    ['a missing value member adds null', '{}', '[{"op":"add","path":"/a"}]', '{"a":null}'],
    ['test of a missing member against null passes', '{}', '[{"op":"test","path":"/a","value":null}]', '{}'],
    ['test of an existing null against null passes', '{"a":null}', '[{"op":"test","path":"/a"}]', '{"a":null}'],
    ['test compares objects structurally', '{"a":{"x":1,"y":[1,{"z":2}]}}', '[{"op":"test","path":"/a","value":{"y":[1,{"z":2}],"x":1}}]', '{"a":{"x":1,"y":[1,{"z":2}]}}'],
    ['the value added is a copy (later ops do not alias it)', '{}', '[{"op":"add","path":"/a","value":{"k":1}},{"op":"copy","from":"/a","path":"/b"},{"op":"replace","path":"/b/k","value":2}]', '{"a":{"k":1},"b":{"k":2}}'],
    ['a "__proto__" member is data', '{}', '[{"op":"add","path":"/__proto__","value":{"polluted":true}}]', '{"__proto__":{"polluted":true}}'],
    ['a null body is no operations', '{"a":1}', 'null', '{"a":1}'],
  ];
  for (const [name, doc, patch, want] of ok) it(name, () => assert.deepEqual(apply(doc, patch), JSON.parse(want)));

  it('the "__proto__" member does not change the prototype', () => {
    const out = apply('{}', '[{"op":"add","path":"/__proto__","value":{"polluted":true}}]') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  it('never mutates its input', () => {
    const doc = { a: [1, 2], b: { c: 'x' } };
    const before = JSON.stringify(doc);
    const ops = [{ op: 'add', path: '/a/0', value: 0 }, { op: 'remove', path: '/b/c' }, { op: 'move', from: '/a', path: '/d' }];
    const opsBefore = JSON.stringify(ops);
    applyJsonPatch(doc, ops);
    assert.equal(JSON.stringify(doc), before);
    assert.equal(JSON.stringify(ops), opsBefore);
  });

  const bad: [string, string, string, string][] = [
    ['remove a missing member', '{"data":{"a":"1"}}', '[{"op":"remove","path":"/data/nope"}]', "error in remove for path: '/data/nope': Unable to remove nonexistent key: nope: missing value"],
    ['remove under a missing parent', '{}', '[{"op":"remove","path":"/a/b"}]', 'remove operation does not apply: doc is missing path: "/a/b": missing value'],
    ['replace a missing member', '{"a":{}}', '[{"op":"replace","path":"/a/b","value":1}]', 'replace operation does not apply: doc is missing key: /a/b: missing value'],
    ['replace under a missing parent', '{}', '[{"op":"replace","path":"/a/b","value":1}]', 'replace operation does not apply: doc is missing path: /a/b: missing value'],
    ['replace past the end of an array', '{"a":[1]}', '[{"op":"replace","path":"/a/1","value":1}]', 'replace operation does not apply: doc is missing key: /a/1: missing value'],
    ['add past the end of an array', '{"a":[1]}', '[{"op":"add","path":"/a/3","value":1}]', "error in add for path: '/a/3': Unable to access invalid index: 3: invalid index referenced"],
    ['add at a non-numeric array index', '{"a":[1]}', '[{"op":"add","path":"/a/x","value":1}]', `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`],
    ['remove past the end of an array', '{"a":[1]}', '[{"op":"remove","path":"/a/1"}]', "error in remove for path: '/a/1': Unable to access invalid index: 1: invalid index referenced"],
    ['the root pointer addresses nothing', '{}', '[{"op":"add","path":"","value":{}}]', 'add operation does not apply: doc is missing path: "": missing value'],
    ['a pointer without a leading slash', '{"a":1}', '[{"op":"remove","path":"a"}]', 'remove operation does not apply: doc is missing path: "a": missing value'],
    ['traversing through a scalar', '{"a":1}', '[{"op":"add","path":"/a/b","value":1}]', 'add operation does not apply: doc is missing path: "/a/b": missing value'],
    ['traversing through null', '{"a":null}', '[{"op":"add","path":"/a/b","value":1}]', 'add operation does not apply: doc is missing path: "/a/b": missing value'],
    ['move from a missing member', '{}', '[{"op":"move","from":"/a","path":"/b"}]', "error in move for path: 'a': unable to get nonexistent key: a: missing value"],
    ['move into its own child', '{"a":{"b":1}}', '[{"op":"move","from":"/a","path":"/a/c"}]', 'move operation does not apply: doc is missing destination path: /a/c: missing value'],
    ['copy from a missing member', '{}', '[{"op":"copy","from":"/a","path":"/b"}]', "error in copy for from: '/a': unable to get nonexistent key: a: missing value"],
    ['copy to a missing parent', '{"a":1}', '[{"op":"copy","from":"/a","path":"/x/y"}]', 'copy operation does not apply: doc is missing destination path: /x/y: missing value'],
    ['test of a missing member against a value', '{}', '[{"op":"test","path":"/a","value":1}]', 'testing value /a failed: test failed'],
    ['test under a missing parent', '{}', '[{"op":"test","path":"/a/b","value":1}]', 'test operation does not apply: is missing path: /a/b: missing value'],
    ['test past the end of an array', '{"a":[]}', '[{"op":"test","path":"/a/0","value":1}]', "error in test for path: '/a/0': Unable to access invalid index: 0: invalid index referenced"],
    ['an unknown op', '{}', '[{"op":"frob","path":"/a"}]', 'Unexpected kind: frob'],
    ['a missing op', '{}', '[{"path":"/a"}]', 'Unexpected kind: unknown'],
    ['a null operation', '{}', '[null]', 'Unexpected kind: unknown'],
    ['a missing path', '{}', '[{"op":"add","value":1}]', 'add operation failed to decode path: missing value'],
    ['a missing from', '{}', '[{"op":"move","path":"/a"}]', 'move operation failed to decode from: missing value'],
  ];
  for (const [name, doc, patch, msg] of bad) it(name, () => rejects(() => apply(doc, patch), 'notApplicable', msg));

  it('a failed operation leaves nothing half-applied (the input is untouched)', () => {
    const doc = { data: { a: '11' } };
    rejects(() => applyJsonPatch(doc, [{ op: 'replace', path: '/data/a', value: '12' }, { op: 'test', path: '/data/a', value: '999' }]), 'notApplicable', 'testing value /data/a failed: test failed');
    assert.deepEqual(doc, { data: { a: '11' } });
  });

  it('copy is limited by the accumulated size it adds', () => {
    const doc = { a: 'x'.repeat(10) }; // 12 bytes of JSON per copy
    assert.deepEqual(applyJsonPatch(doc, [{ op: 'copy', from: '/a', path: '/b' }, { op: 'copy', from: '/a', path: '/c' }], { maxCopyBytes: 24 }), { a: doc.a, b: doc.a, c: doc.a });
    rejects(() => applyJsonPatch(doc, [{ op: 'copy', from: '/a', path: '/b' }, { op: 'copy', from: '/a', path: '/c' }], { maxCopyBytes: 23 }), 'notApplicable', 'Unable to complete the copy, the accumulated size increase of copy is 24, exceeding the limit 23');
  });
});

describe('decoding a JSON patch body', () => {
  const bad: [string, string][] = [
    ['[{"op": "add"', 'error decoding patch: unexpected end of JSON input'],
    ['', 'error decoding patch: unexpected end of JSON input'],
    ['[x]', "error decoding patch: invalid character 'x' looking for beginning of value"],
    ['{"op":"add","path":"/a","value":1}', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
    ['["add"]', 'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp'],
    ['[{"op":1,"path":"/a"}]', 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string'],
    ['[{"op":"add","path":["a"]}]', 'error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.path of type string'],
  ];
  for (const [body, msg] of bad) it(`400: ${body || '(empty)'}`, () => rejects(() => decodeJsonPatch(body), 'malformed', msg));

  it('10000 operations are allowed, 10001 are not (413)', () => {
    const op = '{"op":"test","path":"/a","value":1}';
    assert.equal(decodeJsonPatch(`[${Array(10000).fill(op).join(',')}]`).length, 10000);
    rejects(() => decodeJsonPatch(`[${Array(10001).fill(op).join(',')}]`), 'tooManyOperations', 'The allowed maximum operations in a JSON patch is 10000, got 10001');
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
