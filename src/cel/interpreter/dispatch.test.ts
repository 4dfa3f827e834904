import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Library } from '../decls.js';
import { Env } from '../index.js';
import { T, listOf, mapOf } from '../types.js';
import { listsLibrary } from '../k8s/index.js';
import { Double, Duration, Uint } from '../values.js';

// Runtime overload selection among list (and map) overloads looks at the
// first element (entry), as cel-go's IsAssignableRuntimeType does: a dyn
// receiver reaches the overload of its elements' type.
// A library whose overloads answer which one ran.
const which: Library = {
  name: 'which',
  functions: [
    {
      name: 'which',
      overloads: [
        { id: 'which_list_int', params: [listOf(T.int)], result: T.string, receiver: true },
        { id: 'which_list_double', params: [listOf(T.double)], result: T.string, receiver: true },
        { id: 'which_map_string_int', params: [mapOf(T.string, T.int)], result: T.string, receiver: true },
        { id: 'which_map_string_string', params: [mapOf(T.string, T.string)], result: T.string, receiver: true },
      ],
    },
  ],
  impls: [
    { id: 'which_list_int', unary: () => 'list(int)' },
    { id: 'which_list_double', unary: () => 'list(double)' },
    { id: 'which_map_string_int', unary: () => 'map(string, int)' },
    { id: 'which_map_string_string', unary: () => 'map(string, string)' },
  ],
};
const env = new Env({ libraries: [listsLibrary, which] });

const rows: [expr: string, want: unknown][] = [
  ['dyn([1.0, 2.5]).sum()', new Double(3.5)],
  ['dyn([1, 2]).sum()', 3],
  ['dyn([1u, 2u]).sum()', new Uint(3)],
  ["dyn([duration('1s'), duration('2s')]).sum()", new Duration(3_000_000_000n)],
  ['dyn([]).sum()', 0],
  ['dyn([2.5, 1.0]).min()', new Double(1)],
  ["dyn(['b', 'a']).isSorted()", false],
  ["dyn({'a': 1}).size()", 1],
  ['dyn([1.5, 2.0]).which()', 'list(double)'],
  ['dyn([1, 2]).which()', 'list(int)'],
  // an empty list admits every list overload: the first declared runs
  ['dyn([]).which()', 'list(int)'],
  ["dyn({'a': 'b'}).which()", 'map(string, string)'],
  ["dyn({'a': 1}).which()", 'map(string, int)'],
];

test('dyn lists dispatch on their first element', () => {
  for (const [expr, want] of rows) {
    const c = env.compile(expr);
    assert.ok(c.ast, `${expr}: ${c.issues.map((i) => i.message).join('; ')}`);
    assert.deepEqual(env.program(c.ast).eval({}), want, expr);
  }
});
