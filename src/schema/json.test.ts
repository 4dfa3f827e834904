// decodeJson: the same values as JSON.parse, duplicate keys named by path, and Go-worded syntax errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJson, JsonSyntaxError } from './json.js';

describe('decodeJson values', () => {
  const docs = [
    '{}',
    '[]',
    '0',
    '-1.5e+10',
    '"x"',
    'null',
    'true',
    ' { "a" : [ 1 , 2 , { "b" : null } ] } ',
    '{"big":12345678901234567890,"neg":-0,"exp":1E-3}',
    '{"s":"quote \\" backslash \\\\ slash \\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00 é 😀"}',
    '{"k\\"ey":1,"k\\\\":{"\\\\":2}}',
    '{"a":"\\\\","b":"\\\\\\"","c":"x:"}',
    '{"__proto__":{"x":1},"constructor":2}',
  ];
  for (const d of docs) {
    it(d, () => {
      const r = decodeJson(d);
      assert.deepEqual(r.value, JSON.parse(d));
      assert.deepEqual(r.duplicates, []);
    });
  }
  it('accepts bytes', () => assert.deepEqual(decodeJson(Buffer.from('{"a":"é"}')).value, { a: 'é' }));
});

describe('decodeJson duplicates', () => {
  const rows: [string, string[]][] = [
    ['{"a":1,"a":2}', ['a']],
    ['{"metadata":{"name":"x","name":"y"}}', ['metadata.name']],
    ['{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","image":"j"}]}}', ['spec.containers[1].image']],
    ['{"a":1,"a":2,"a":3}', ['a']],
    ['{"a":{"x":1},"b":[[{"y":1,"y":2}]],"a":{"x":1,"x":2}}', ['b[0][0].y', 'a', 'a.x']],
    // the same key spelled two ways is still the same key
    ['{"a":1,"\\u0061":2}', ['a']],
    // a string value that looks like a key does not count
    ['{"a":"b\\":","c":{"d":"e:","d":1}}', ['c.d']],
    ['[{"k":1},{"k":2}]', []],
    ['{"x":{"k":1},"y":{"k":1}}', []],
  ];
  for (const [doc, dups] of rows) {
    it(doc, () => {
      const r = decodeJson(doc);
      assert.deepEqual(r.duplicates, dups);
      assert.deepEqual(r.value, JSON.parse(doc), 'the last duplicate wins, as in Go');
    });
  }
});

describe('decodeJson syntax errors', () => {
  const rows: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{"a":1', 'unexpected end of JSON input'],
    ['{"a', 'unexpected end of JSON input'],
    ['[1,2', 'unexpected end of JSON input'],
    ['tru', 'unexpected end of JSON input'],
    ['}', "invalid character '}' looking for beginning of value"],
    ['{"a":}', "invalid character '}' looking for beginning of value"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nul!', "invalid character '!' in literal null (expecting 'l')"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
  ];
  for (const [doc, msg] of rows) {
    it(JSON.stringify(doc), () => assert.throws(() => decodeJson(doc), (e: unknown) => e instanceof JsonSyntaxError && e.message === msg));
  }
  it('carries the offset', () => assert.throws(() => decodeJson('[1, 2 x]'), (e: unknown) => e instanceof JsonSyntaxError && e.offset === 6));
});

describe('decodeJson: repeated keys decode as Go decodes them', () => {
  const rows: [string, unknown][] = [
    ['{"data":{"a":"1"},"data":{"b":"2"}}', { data: { a: '1', b: '2' } }],
    ['{"a":{"x":{"p":1,"q":2}},"a":{"x":{"q":3}}}', { a: { x: { p: 1, q: 3 } } }],
    ['{"l":[1,2],"l":[3]}', { l: [3] }],
    ['{"s":"a","s":{"k":true}}', { s: { k: true } }],
    ['{"n": 1 , "n" : -2.5e3, "t":"\\u00e9\\"q"}', { n: -2500, t: 'é"q' }],
  ];
  for (const [text, want] of rows) it(text, () => assert.deepEqual(decodeJson(text).value, want));
});
