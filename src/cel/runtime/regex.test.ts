import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RE2JS } from 're2js';
import { matches, nativeEquivalent } from './regex.js';
import { throwsCel } from './testutil.js';

// Patterns matched natively: the RE2 ∩ JavaScript subset with linear backtracking.
const NATIVE = [
  '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
  '^[A-Za-z0-9._-]*$',
  '^[a-z]+$',
  'ubb',
  '^(?:ab|cd)?e$',
  '^v[0-9]{1,3}\\.[0-9]{1,3}$',
  '^\\d+$',
  'a.c',
  '^é+$',
  '^[\\w\\-]+$',
  'x|y|z',
  '^\\(\\)\\-/$',
  '^a{2,}$',
];
// Patterns left to re2js: other syntax, or backtracking that could grow with the input.
const RE2_ONLY = [
  '[a-z]+x', // unanchored unbounded: quadratic search
  '^[a-z]*[a-z]*$', // two unbounded
  '^(a+)+$', // nested repetition
  '^(ab)*$', // repeated group
  'a|^b*', // anchor inside an alternation
  '(?i)abc', // flags
  '\\s',
  '\\bword\\b',
  '[[:alpha:]]',
  '\\pL',
  '[]a]', // RE2 reads a leading ] as a literal
  '^[a-z]{0,100}[0-9]{0,100}$', // 10,201 combinations
  'a{1001}', // RE2's repeat limit
  '\\Qa.b\\E',
];

test('which patterns run natively', () => {
  for (const p of NATIVE) assert.ok(nativeEquivalent(p) instanceof RegExp, p);
  for (const p of RE2_ONLY) assert.equal(nativeEquivalent(p), undefined, p);
});

test('native matching agrees with RE2 on every pattern and input', () => {
  const inputs = ['', 'a', 'abc', 'a-b', 'a-', '-a', 'ubb', 'hubba', 'a\nc', 'a\rc', 'aXc', 'v1.2', 'v1x2', 'é', 'éé',
    'a.b', '()-/', 'x', 'yy', '123', '12a', 'aa', 'a'.repeat(64), 'a'.repeat(63), 'A_b.c-d', 'abc\n', '\nabc', '😀', 'a😀c'];
  const patterns = [...NATIVE, '^.$', '^..$', 'a.c$', '^[^a]*$', '^[^\\n]+$', '^[😀-😂]$', '^[\\d\\w]+$', '^[.]$', '^[-a]+$', '^[a-]+$'];
  let compared = 0;
  for (const p of patterns) {
    const js = nativeEquivalent(p);
    assert.ok(js, p);
    const re2 = RE2JS.compile(p);
    for (const s of inputs) {
      assert.equal(js.test(s), re2.test(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`);
      compared++;
    }
  }
  assert.ok(compared > 500);
});

test('matches keeps RE2 errors for every pattern', () => {
  throwsCel(() => matches('x', 'a('), 'error parsing regexp: missing closing ): `a(`');
  throwsCel(() => matches('x', 'a**'), 'error parsing regexp: invalid nested repetition operator: `**`');
  throwsCel(() => matches('x', '[z-a]'), 'error parsing regexp: invalid character class range: `z-a`');
  assert.equal(matches('a\nb', 'a.b'), false);
  assert.equal(matches('x'.repeat(100000) + '!', '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'), false);
});
