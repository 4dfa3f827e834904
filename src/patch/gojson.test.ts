// Go encoding/json's syntax error texts, which reach clients inside 400 answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoJsonError, parseGoJson } from './gojson.js';

describe('Go JSON syntax errors', () => {
  const rows: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['"abc', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a",1}', "invalid character ',' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['nul', 'unexpected end of JSON input'],
    ['nulx', "invalid character 'x' in literal null (expecting 'l')"],
    ["['a']", "invalid character '\\'' looking for beginning of value"],
  ];
  for (const [text, message] of rows) {
    it(JSON.stringify(text), () => assert.throws(() => parseGoJson(text), (e: unknown) => e instanceof GoJsonError && e.message === message));
  }
  it('valid JSON parses', () => assert.deepEqual(parseGoJson(' {"a":[1,-2.5e3,true,null,"\\u00e9"]} '), { a: [1, -2500, true, null, 'é'] }));
});

describe('repeated keys in a patch body', () => {
  it('keep the last value (Go decodes a patch into map[string]interface{})', () => assert.deepEqual(parseGoJson('{"a":{"x":1},"a":{"y":2}}'), { a: { y: 2 } }));
});
