import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Env } from '../index.js';
import { listsLibrary } from '../k8s/index.js';
import { Double, Duration, Uint } from '../values.js';

// Runtime overload selection among list (and map) overloads looks at the
// first element (entry), as cel-go's IsAssignableRuntimeType does: a dyn
// receiver reaches the overload of its elements' type.
const env = new Env({ libraries: [listsLibrary] });

const rows: [expr: string, want: unknown][] = [
  ['dyn([1.0, 2.5]).sum()', new Double(3.5)],
  ['dyn([1, 2]).sum()', 3],
  ['dyn([1u, 2u]).sum()', new Uint(3)],
  ["dyn([duration('1s'), duration('2s')]).sum()", new Duration(3_000_000_000n)],
  ['dyn([]).sum()', 0],
  ['dyn([2.5, 1.0]).min()', new Double(1)],
  ["dyn(['b', 'a']).isSorted()", false],
  ["dyn({'a': 1}).size()", 1],
];

test('dyn lists dispatch on their first element', () => {
  for (const [expr, want] of rows) {
    const c = env.compile(expr);
    assert.ok(c.ast, `${expr}: ${c.issues.map((i) => i.message).join('; ')}`);
    assert.deepEqual(env.program(c.ast).eval({}), want, expr);
  }
});
