import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIssues, locationOf, lineOffsetsOf, offsetOf, type Issue } from './issues.js';

const at = (offset: number, message: string): Issue => ({ message, offset, exprId: 0 });

test('issues render as cel-go reports, sorted by line and column', () => {
  const src = 'a +\n\tb + ❤c';
  const out = formatIssues([at(9, 'third'), at(0, 'first'), at(-1, 'no location'), at(5, 'second')], src);
  assert.equal(out, [
    'ERROR: <input>:-1:0: no location',
    'ERROR: <input>:1:1: first',
    ' | a +',
    ' | ^',
    'ERROR: <input>:2:2: second',
    ' |  b + ❤c',
    ' | .^',
    'ERROR: <input>:2:6: third',
    ' |  b + ❤c',
    ' | .....＾',
  ].join('\n'));
  assert.equal(formatIssues([at(10, 'x')], src, 'rule'), 'ERROR: rule:2:7: x\n |  b + ❤c\n | .....．^');
});

test('more than 100 issues are truncated with a count', () => {
  const many = Array.from({ length: 103 }, (_, i) => at(0, `e${i}`));
  const lines = formatIssues(many, 'x').split('\n');
  assert.equal(lines.length, 100 * 3 + 1);
  assert.equal(lines[lines.length - 1], '3 more errors were truncated');
});

test('offsets, lines and columns in code points', () => {
  const src = '😀\nab\n';
  const lo = lineOffsetsOf(src);
  assert.deepEqual(lo, [0, 2, 5]);
  assert.deepEqual(locationOf(3, lo), { line: 2, column: 1 });
  assert.deepEqual(locationOf(-1, lo), { line: -1, column: -1 });
  assert.equal(offsetOf(2, 1, lo), 3);
  assert.equal(offsetOf(9, 0, lo), -1);
});
