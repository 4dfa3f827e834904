import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escape, unescape, RESERVED } from './escaping.js';

const pairs: [string, string][] = [
  ['a.a', 'a__dot__a'],
  ['a-a', 'a__dash__a'],
  ['a__a', 'a__underscores__a'],
  ['a.-/__a', 'a__dot____dash____slash____underscores__a'],
  ['a._a', 'a__dot___a'],
  ['a__.__a', 'a__underscores____dot____underscores__a'],
  ['a___a', 'a__underscores___a'],
  ['a____a', 'a__underscores____underscores__a'],
  ['a__dot__a', 'a__underscores__dot__underscores__a'],
  ['a__underscores__a', 'a__underscores__underscores__underscores__a'],
  ['app.kubernetes.io/name', 'app__dot__kubernetes__dot__io__slash__name'],
  ['.a', '__dot__a'],
  ['-', '__dash__'],
  ['_a', '_a'],
  ['a_a_a', 'a_a_a'],
  // Words that merely contain or resemble a keyword, and macro/function names, are not escaped.
  ['has', 'has'], ['all', 'all'], ['exists_one', 'exists_one'], ['size', 'size'], ['matches', 'matches'],
  ['timestamp', 'timestamp'], ['getHours', 'getHours'], ['_if', '_if'], ['_int', '_int'], ['int', 'int'],
  ['namespaces', 'namespaces'], ['format', 'format'], ['returns', 'returns'],
  ...[...RESERVED].map((w): [string, string] => [w, `__${w}__`]),
];

test('escape: kube escaping of property names, and back', () => {
  assert.equal(RESERVED.size, 21);
  for (const [name, escaped] of pairs) {
    assert.equal(escape(name), escaped, name);
    assert.equal(unescape(escaped), name, escaped);
  }
});

test('escape: names that cannot be accessed', () => {
  for (const name of ['', '@', '1up', '9', '👑', '/👑', 'a b', 'a:b', 'a@b', 'é', 'a+b', 'a$']) {
    assert.equal(escape(name), undefined, name);
  }
});

test('unescape: malformed escapes', () => {
  for (const s of ['__int__extra', '__illegal__', 'a__in__', 'x__namespace__y', '__dots__']) {
    assert.equal(unescape(s), undefined, s);
  }
  assert.equal(unescape('__namespace__'), 'namespace');
  assert.equal(unescape('plain'), 'plain');
  assert.equal(unescape('a__b'), 'a__b'); // a lone `__` is not an escape
});

test('escape: every escaped name is a CEL identifier and unescapes to the original', () => {
  const alphabet = 'aZ09_.-/';
  const ident = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
  let checked = 0;
  for (let n = 0; n < 20000; n++) {
    let s = '';
    for (let k = n; ; k = Math.floor(k / alphabet.length) - 1) {
      s += alphabet[k % alphabet.length];
      if (k < alphabet.length) break;
    }
    const e = escape(s);
    if (e === undefined) continue;
    checked++;
    assert.match(e, ident, s);
    assert.equal(unescape(e), s, s);
  }
  assert.ok(checked > 10000);
});
