import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as S from './strings.js';
import { throwsCel } from './testutil.js';

test('size counts code points', () => {
  const rows: [string, number][] = [
    ['', 0],
    ['hello', 5],
    ['ÿ', 1],
    ['😀', 1],
    ['a😀b😀', 4],
    ['\ud800', 1], // a lone surrogate counts once
  ];
  for (const [s, n] of rows) assert.equal(S.sizeString(s), n, s);
});

test('matches uses RE2 semantics, anywhere in the string', () => {
  const rows: [string, string, boolean][] = [
    ['hubba', 'ubb', true],
    ['hubba', '^ubb', false],
    ['123-456', '^[0-9]+(-[0-9]+)?$', true],
    ['😀', '^.$', true], // one code point
    ['ABC', '(?i)abc', true],
    ['x', '[[:alpha:]]', true],
    ['a\nb', 'a.b', false],
  ];
  for (const [s, p, want] of rows) assert.equal(S.matches(s, p), want, `${s} ~ ${p}`);
  throwsCel(() => S.matches('x', 'a('), 'error parsing regexp: missing closing ): `a(`');
  throwsCel(() => S.matches('x', '\\8'), 'error parsing regexp: invalid escape sequence: `\\8`');
  throwsCel(() => S.matches('x', '(?<n>a)\\k<n>'), 'error parsing regexp: invalid escape sequence: `\\k`');
});

test('strings extension: charAt, indexOf, lastIndexOf', () => {
  assert.equal(S.charAt('tacocat', 3), 'o');
  assert.equal(S.charAt('tacocat', 7), '');
  assert.equal(S.charAt('a😀b', 1), '😀');
  throwsCel(() => S.charAt('tacocat', 30), 'index out of range: 30');
  throwsCel(() => S.charAt('tacocat', -1), 'index out of range: -1');
  const idx: [string, string, number | undefined, number][] = [
    ['tacocat', '', undefined, 0],
    ['tacocat', 'ac', undefined, 1],
    ['tacocat', 'none', undefined, -1],
    ['tacocat', '', 3, 3],
    ['tacocat', 'a', 3, 5],
    ['tacocat', 'at', 3, 5],
    ['ta©o©αT', '©', 3, 4],
    ['a😀b😀', '😀', 2, 3],
    ['abc', '', 10, 3],
  ];
  for (const [s, sub, off, want] of idx) assert.equal(S.indexOf(s, sub, off), want, `${s}.indexOf(${sub}, ${off})`);
  throwsCel(() => S.indexOf('tacocat', 'a', -1), 'index out of range: -1');
  throwsCel(() => S.indexOf('tacocat', 'a', 30), 'index out of range: 30');
  throwsCel(() => S.indexOf('tacocat', 'a', 7), 'index out of range: 7');
  const last: [string, string, number | undefined, number][] = [
    ['tacocat', '', undefined, 7],
    ['tacocat', 'at', undefined, 5],
    ['tacocat', 'none', undefined, -1],
    ['tacocat', '', 3, 3],
    ['tacocat', 'a', 3, 1],
    ['ta©o©αT', '©', 3, 2],
    ['a😀b😀', '😀', 3, 3],
    ['hello wello', 'hello', 6, 0],
    ['', 'a', undefined, -1],
  ];
  for (const [s, sub, off, want] of last) assert.equal(S.lastIndexOf(s, sub, off), want, `${s}.lastIndexOf(${sub}, ${off})`);
  throwsCel(() => S.lastIndexOf('tacocat', 'a', -1), 'index out of range: -1');
  throwsCel(() => S.lastIndexOf('tacocat', 'a', 30), 'index out of range: 30');
  throwsCel(() => S.lastIndexOf('a😀b😀', '😀', 4), 'index out of range: 4');
});

test('strings extension: case, replace, split, substring, trim, join, reverse, quote', () => {
  assert.equal(S.lowerAscii('TacoCÆt Xii'), 'tacocÆt xii');
  assert.equal(S.upperAscii('tacoCat xii ß'), 'TACOCAT XII ß');
  assert.equal(S.replace('12 days 12 hours', '{0}', '2'), '12 days 12 hours');
  assert.equal(S.replace('{0} days {0} hours', '{0}', '2'), '2 days 2 hours');
  assert.equal(S.replace('{0} days {0} hours', '{0}', '2', 1), '2 days {0} hours');
  assert.equal(S.replace('{0} days {0} hours', '{0}', '2', 0), '{0} days {0} hours');
  assert.equal(S.replace('ab', '', '-'), '-a-b-');
  assert.equal(S.replace('a😀', '', '-', 2), '-a-😀');
  assert.deepEqual(S.split('hello world', ' '), ['hello', 'world']);
  assert.deepEqual(S.split('hello world events!', ' ', 0), []);
  assert.deepEqual(S.split('hello world events!', ' ', 1), ['hello world events!']);
  assert.deepEqual(S.split('hello world events!', ' ', 2), ['hello', 'world events!']);
  assert.deepEqual(S.split('hello world events!', ' ', -1), ['hello', 'world', 'events!']);
  assert.deepEqual(S.split('a😀c', ''), ['a', '😀', 'c']);
  assert.deepEqual(S.split('abc', '', 2), ['a', 'bc']);
  assert.deepEqual(S.split('', ','), ['']);
  assert.equal(S.substring('tacocat', 4), 'cat');
  assert.equal(S.substring('tacocat', 0, 4), 'taco');
  assert.equal(S.substring('ta©o©αT', 2, 6), '©o©α');
  assert.equal(S.substring('a😀b', 1, 2), '😀');
  throwsCel(() => S.substring('tacocat', 40), 'index out of range: 40');
  throwsCel(() => S.substring('tacocat', -1), 'index out of range: -1');
  throwsCel(() => S.substring('tacocat', 4, 3), 'invalid substring range. start: 4, end: 3');
  throwsCel(() => S.substring('tacocat', 1, 50), 'index out of range: 50');
  assert.equal(S.trim(' \f\n\r\t\v\u0085\u00a0\u2000text\u3000\u2029 '), 'text');
  assert.equal(S.trim('\ufefftext'), '\ufefftext'); // BOM is not white space in Go
  assert.equal(S.join(['x', 'y']), 'xy');
  assert.equal(S.join(['x', 'y'], '-'), 'x-y');
  assert.equal(S.join([], '-'), '');
  throwsCel(() => S.join(['x', 1]), 'join: invalid input: 1');
  assert.equal(S.reverse('gums'), 'smug');
  assert.equal(S.reverse('a😀b'), 'b😀a');
  assert.equal(S.quote('first\nsecond'), '"first\\nsecond"');
  assert.equal(S.quote('\x07\b\f\r\t\v\\"'), '"\\a\\b\\f\\r\\t\\v\\\\\\""');
  assert.equal(S.quote('sø😀'), '"sø😀"');
  assert.equal(S.quote('a\ud800b'), '"a\ufffdb"');
});
