// Go's JSON text: what encoding/json writes for a value, json.Compact, and map key order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrayElements, compactText, compareGoKeys, goEncode, objectMembers, textKind } from './rawjson.js';

describe('Go JSON text', () => {
  const encoded: [unknown, string][] = [
    [{ b: 1, a: [true, null, 1.5] }, '{"b":1,"a":[true,null,1.5]}'], // a value's own key order (structs, not maps)
    ['x<y&z>', '"x\\u003cy\\u0026z\\u003e"'], // HTML-safe
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['\b\f\n\r\t\u0001', '"\\u0008\\u000c\\n\\r\\t\\u0001"'], // Go 1.20 has no \b or \f
    ['back\\slash \\b', '"back\\\\slash \\\\b"'],
    ['\ud800', '"\\ufffd"'], // a lone surrogate
    ['😀é', '"😀é"'],
    [{ 'k<': 1 }, '{"k\\u003c":1}'],
  ];
  for (const [v, want] of encoded) it(`encodes ${JSON.stringify(v)}`, () => assert.equal(goEncode(v as never), want));

  it('compacts text, HTML-escaping on request', () => {
    assert.equal(compactText(' { "a b" : [ 1 , "<" ] }\n'), '{"a b":[1,"<"]}');
    assert.equal(compactText('{"a":"<\\"&"}', true), '{"a":"\\u003c\\"\\u0026"}');
  });

  it('orders map keys by UTF-8 bytes', () => {
    assert.deepEqual(['b', 'B', 'a', '', 'ab', '\uffff', '😀', 'é'].sort(compareGoKeys), ['', 'B', 'a', 'ab', 'b', 'é', '\uffff', '😀']);
  });

  it('reads members and elements as raw text', () => {
    assert.deepEqual(objectMembers('{ "a" : {"x": [1, "}"]}, "b":null }').map((m) => [m.key, m.raw]), [['a', '{"x": [1, "}"]}'], ['b', 'null']]);
    assert.deepEqual(arrayElements('[ 1 ,"]", [2] ,{"a":"\\""}]').map((e) => e.raw), ['1', '"]"', '[2]', '{"a":"\\""}']);
    assert.deepEqual(['{}', '[]', '"s"', '-1', 'true', 'null'].map(textKind), ['object', 'array', 'string', 'number', 'bool', 'null']);
  });
});
