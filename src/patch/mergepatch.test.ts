// RFC 7386 (section 3 and appendix A), createMergePatch, and body decoding.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchError } from './errors.js';
import type { JsonValue } from './json.js';
import { applyMergePatch, createMergePatch, decodeMergePatch } from './mergepatch.js';

const j = (s: string): JsonValue => JSON.parse(s) as JsonValue;

describe('RFC 7386 appendix A', () => {
  const rows: [string, string, string][] = [
    ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
    ['{"a":"b"}', '{"a":null}', '{}'],
    ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
    ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
    ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
    ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
    ['["a","b"]', '["c","d"]', '["c","d"]'],
    ['{"a":"b"}', '["c"]', '["c"]'],
    ['{"a":"foo"}', 'null', 'null'],
    ['{"a":"foo"}', '"bar"', '"bar"'],
    ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
    ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
    ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
  ];
  for (const [target, patch, want] of rows) it(`${target} + ${patch}`, () => assert.deepEqual(applyMergePatch(j(target), j(patch)), j(want)));

  it('section 3 example', () => {
    const target = { title: 'Goodbye!', author: { givenName: 'John', familyName: 'Doe' }, tags: ['example', 'sample'], content: 'This will be unchanged' };
    const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
    assert.deepEqual(applyMergePatch(target, patch), {
      title: 'Hello!', author: { givenName: 'John' }, tags: ['example'], content: 'This will be unchanged', phoneNumber: '+01-123-456-7890',
    });
  });

  it('never mutates target or patch, and shares no structure with them', () => {
    const target = { a: { b: [1] }, keep: { x: 1 } };
    const patch = { a: { c: { d: 1 } } };
    const out = applyMergePatch(target, patch) as { a: { c: { d: number } }; keep: { x: number } };
    out.a.c.d = 2;
    out.keep.x = 2;
    assert.deepEqual(target, { a: { b: [1] }, keep: { x: 1 } });
    assert.deepEqual(patch, { a: { c: { d: 1 } } });
  });

  it('the transcript merge patch (patch-01-merge)', () => {
    assert.deepEqual(applyMergePatch({ data: { a: '1', b: '2' } }, { data: { a: '10', b: null, c: '3' } }), { data: { a: '10', c: '3' } });
  });
});

describe('createMergePatch', () => {
  const rows: [string, string, string][] = [
    ['{"a":1}', '{"a":1}', '{}'],
    ['{"a":1}', '{"a":2}', '{"a":2}'],
    ['{"a":1,"b":2}', '{"a":1}', '{"b":null}'],
    ['{"a":{"x":1,"y":2}}', '{"a":{"x":1,"y":3,"z":4}}', '{"a":{"y":3,"z":4}}'],
    ['{"a":{"x":1}}', '{"a":{}}', '{"a":{"x":null}}'],
    ['{"a":[1,2]}', '{"a":[1,2]}', '{}'],
    ['{"a":[1,2]}', '{"a":[2,1]}', '{"a":[2,1]}'],
    ['{"a":{"x":1}}', '{"a":"s"}', '{"a":"s"}'],
    ['{"a":1}', '[1]', '[1]'],
  ];
  for (const [a, b, want] of rows) {
    it(`${a} → ${b}`, () => {
      const patch = createMergePatch(j(a), j(b));
      assert.deepEqual(patch, j(want));
      assert.deepEqual(applyMergePatch(j(a), patch), j(b));
    });
  }
});

describe('decoding a merge patch body', () => {
  const bad: [string, string][] = [
    ['{"data": ', 'error decoding patch: unexpected end of JSON input'],
    ['{"a":1}}', "error decoding patch: invalid character '}' after top-level value"],
    ['{"a" 1}', "error decoding patch: invalid character '1' after object key"],
    ['[{"a":1}]', 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['"x"', 'error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}'],
  ];
  for (const [body, msg] of bad) {
    it(`400: ${body}`, () =>
      assert.throws(() => decodeMergePatch(body), (e: unknown) => e instanceof PatchError && e.kind === 'malformed' && e.message === msg));
  }
  it('an object is the patch', () => assert.deepEqual(decodeMergePatch('{"a":null}'), { a: null }));
});
