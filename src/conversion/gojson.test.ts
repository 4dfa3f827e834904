// Go's encoding/json text and decoding rules as the conversions use them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeInt32, decodeQuantity, decodeString, decodeTime, field, goJSON, GoDecodeError, quantityText, timeText } from './gojson.js';

describe('goJSON: json.Marshal text', () => {
  const rows: [string, unknown, string][] = [
    ['compact, key order as built', { b: 1, a: [true, null] }, '{"b":1,"a":[true,null]}'],
    ['HTML-safe escapes', { m: 'a<b> & c' }, '{"m":"a\\u003cb\\u003e \\u0026 c"}'],
    ['line and paragraph separators', '\u2028\u2029', '"\\u2028\\u2029"'],
    ['backspace and form feed as Go 1.20 writes them; newline and tab short', '\b\f\n\t', '"\\u0008\\u000c\\n\\t"'],
    ['an escaped backslash before b or f stays a backslash', '\\b\\f', '"\\\\b\\\\f"'],
    ['other control characters', '\u0001', '"\\u0001"'],
  ];
  for (const [name, v, want] of rows) it(name, () => assert.equal(goJSON(v), want));
});

describe('decoding as json.Unmarshal does', () => {
  it('matches field names ignoring case; the last matching key wins', () => {
    assert.equal(field({ scaleUp: 1 }, 'ScaleUp'), 1);
    assert.equal(field({ ScaleUp: 1, scaleup: 2 }, 'ScaleUp'), 2);
    assert.equal(field({ other: 1 }, 'ScaleUp'), undefined);
  });
  it('null leaves a field unset', () => {
    assert.equal(decodeString({ a: null }, 'a'), '');
    assert.equal(decodeInt32({ a: null }, 'a'), undefined);
    assert.equal(decodeQuantity({ a: null }, 'a'), undefined);
    assert.equal(decodeTime({ a: null }, 'a'), undefined);
  });
  const bad: [string, () => unknown][] = [
    ['a number for a string', () => decodeString({ a: 1 }, 'a')],
    ['a fraction for an int32', () => decodeInt32({ a: 1.5 }, 'a')],
    ['an int32 out of range', () => decodeInt32({ a: 2 ** 31 }, 'a')],
    ['a malformed quantity', () => decodeQuantity({ a: '1 k' }, 'a')],
    ['a time that is not RFC 3339', () => decodeTime({ a: '2023-06-01' }, 'a')],
  ];
  for (const [name, f] of bad) it(`fails on ${name}`, () => assert.throws(f, GoDecodeError));
});

describe('value types Go normalizes', () => {
  const quantities: [unknown, string][] = [[undefined, '0'], ['1000m', '1'], ['0.5', '500m'], [2, '2'], ['1Gi', '1Gi'], ['1024Mi', '1Gi']];
  for (const [v, want] of quantities) it(`quantity ${String(v)} → ${want}`, () => assert.equal(quantityText(v), want));
  const times: [unknown, string | null][] = [
    [undefined, null], ['', null], ['2023-06-01T10:00:00+02:00', '2023-06-01T08:00:00Z'], ['2023-06-01T08:00:00.999Z', '2023-06-01T08:00:00Z'],
  ];
  for (const [v, want] of times) it(`time ${String(v)} → ${want}`, () => assert.equal(timeText(v), want));
});
