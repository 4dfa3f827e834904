// Go's printing of unstructured values in field errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goErrorValueText, goFloat, goPlainV, goQuote, goSharpV, goTypeOf } from './gofmt.js';

describe('goFloat (strconv.FormatFloat g, -1)', () => {
  const rows: [number, string][] = [
    [1.5, '1.5'], [0.0001, '0.0001'], [0.00001, '1e-05'], [123456.5, '123456.5'], [1e6, '1e+06'], [1234567.5, '1.2345675e+06'],
    [1e21, '1e+21'], [1e100, '1e+100'], [-2.5e-7, '-2.5e-07'], [0, '0'], [100, '100'],
  ];
  for (const [f, want] of rows) it(`${f} → ${want}`, () => assert.equal(goFloat(f), want));
});

describe('goQuote (strconv.Quote)', () => {
  const rows: [string, string][] = [['a', '"a"'], ['a"b', '"a\\"b"'], ['\n\t', '"\\n\\t"'], ['\u0001', '"\\x01"'], ['\u0007\u000b', '"\\a\\v"'], ['é', '"é"'], ['\u2028', '"\\u2028"'], ['\u00a0', '"\\u00a0"'], ['😀', '"😀"'], ['\u{e0001}', '"\\U000e0001"']];
  for (const [s, want] of rows) it(JSON.stringify(s), () => assert.equal(goQuote(s), want));
});

describe('values in field errors', () => {
  const rows: [unknown, string, string, string, string][] = [
    // value, field.Error text, %#v, %v, %T
    [null, '"null"', 'interface {}(nil)', '<nil>', '<nil>'],
    ['x', '"x"', '"x"', 'x', 'string'],
    [80, '80', '80', '80', 'int64'],
    [1.5, '1.5', '1.5', '1.5', 'float64'],
    [true, 'true', 'true', 'true', 'bool'],
    [{ b: 1, a: 'x' }, 'map[string]interface {}{"a":"x", "b":1}', 'map[string]interface {}{"a":"x", "b":1}', 'map[a:x b:1]', 'map[string]interface {}'],
    [[], '[]interface {}{}', '[]interface {}{}', '[]', '[]interface {}'],
    [['a', null], '[]interface {}{"a", interface {}(nil)}', '[]interface {}{"a", interface {}(nil)}', '[a <nil>]', '[]interface {}'],
  ];
  for (const [v, errText, sharp, plain, type] of rows) {
    it(JSON.stringify(v), () => {
      assert.equal(goErrorValueText(v), errText);
      assert.equal(goSharpV(v), sharp);
      assert.equal(goPlainV(v), plain);
      assert.equal(goTypeOf(v), type);
    });
  }
});
