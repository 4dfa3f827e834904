import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../parser/index.js';
import { toDebugString } from '../debug.js';
import { formatIssues } from '../issues.js';
import { MATH_MACROS } from './math_macros.js';

const opts = { extraMacros: MATH_MACROS };

const rows: { expr: string; ast?: string; error?: string }[] = [
  { expr: 'math.greatest(1)', ast: 'math.@max(\n  1\n)' },
  { expr: 'math.least([1, 2.0])', ast: 'math.@min(\n  [\n    1,\n    2\n  ]\n)' },
  { expr: 'math.greatest(a, 2)', ast: 'math.@max(\n  a,\n  2\n)' },
  { expr: 'math.least(1, 2u, 3.0)', ast: 'math.@min(\n  [\n    1,\n    2u,\n    3\n  ]\n)' },
  { expr: 'other.greatest(1)', ast: 'other.greatest(\n  1\n)' },
  { expr: 'math.greatest()', error: 'ERROR: <input>:1:1: math.greatest() requires at least one argument' },
  { expr: "math.least('a')", error: 'ERROR: <input>:1:12: math.least() invalid single argument value' },
  { expr: 'math.least([])', error: 'ERROR: <input>:1:12: math.least() invalid single argument value' },
  { expr: "math.greatest(1, 'a')", error: 'ERROR: <input>:1:18: math.greatest() simple literal arguments must be numeric' },
  { expr: 'math.greatest(1, 2, [3])', error: 'ERROR: <input>:1:21: math.greatest() simple literal arguments must be numeric' },
];

for (const row of rows) {
  test(`math macros: ${row.expr}`, () => {
    const r = parse(row.expr, opts);
    if (row.error !== undefined) {
      assert.equal(r.parsed, undefined);
      assert.equal(formatIssues(r.issues, row.expr).split('\n')[0], row.error);
      return;
    }
    assert.ok(r.parsed, JSON.stringify(r.issues));
    assert.equal(toDebugString(r.parsed.expr), row.ast);
  });
}
