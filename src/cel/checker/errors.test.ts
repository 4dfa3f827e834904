// Parsed expressions against a Kubernetes-like object type: the types the
// checker infers and its errors as cel-go displays them (message, line,
// column, caret).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../parser/index.js';
import { formatIssues } from '../issues.js';
import type { Library } from '../decls.js';
import type { FieldType, ObjectType, Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { buildCheckEnv, check, formatType, selectedField } from './index.js';

const f = (type: Type, wireName: string): FieldType => ({ type, wireName });
const port: ObjectType = {
  kind: 'object',
  name: 'Port',
  fields: new Map([
    ['containerPort', f(T.int, 'containerPort')],
    ['protocol', f(T.string, 'protocol')],
  ]),
};
const spec: ObjectType = {
  kind: 'object',
  name: 'Spec',
  fields: new Map([
    ['replicas', f(T.int, 'replicas')],
    ['ports', f(listOf(port), 'ports')],
    ['labels', f(mapOf(T.string, T.string), 'labels')],
    ['x__dash__y', f(T.string, 'x-y')],
    ['ratio', f(T.double, 'ratio')],
  ]),
};
const libs: Library[] = [
  { name: 'std', functions: stdlibFunctions, impls: [], variables: stdlibTypeIdents },
  { name: 'strings', functions: stringsFunctions, impls: [] },
];
const env = buildCheckEnv({ libraries: libs, variables: { self: spec, oldSelf: spec }, homogeneousAggregateLiterals: true });

const rows: { expr: string; type?: string; error?: string }[] = [
  { expr: 'self.replicas <= 10', type: 'bool' },
  { expr: 'self.ports.all(p, p.containerPort > 0 && p.protocol in ["TCP", "UDP"])', type: 'bool' },
  { expr: 'self.ports.map(p, p.containerPort)', type: 'list(int)' },
  { expr: 'self.labels.filter(k, k.startsWith("app"))', type: 'list(string)' },
  { expr: 'self == oldSelf', type: 'bool' },
  { expr: 'has(self.labels) && self.labels["app"].lowerAscii()', error: "ERROR: <input>:1:50: expected type 'bool' but found 'string'" },
  {
    expr: 'self.replicas + "1"',
    error: "ERROR: <input>:1:15: found no matching overload for '_+_' applied to '(int, string)'\n | self.replicas + \"1\"\n | ..............^",
  },
  {
    expr: 'self.replica > 1',
    error: "ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 1\n | ....^",
  },
  {
    expr: 'self.ports.all(p, p.port > 0)',
    error: "ERROR: <input>:1:20: undefined field 'port'\n | self.ports.all(p, p.port > 0)\n | ...................^",
  },
  {
    expr: 'self.ratio > 1',
    error: "ERROR: <input>:1:12: found no matching overload for '_>_' applied to '(double, int)'\n | self.ratio > 1\n | ...........^",
  },
  {
    expr: 'other.replicas',
    error: "ERROR: <input>:1:1: undeclared reference to 'other' (in container '')\n | other.replicas\n | ^",
  },
  {
    expr: '[1, "a"]',
    error: "ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, \"a\"]\n | ....^",
  },
  {
    expr: 'self.replicas.size()',
    error: "ERROR: <input>:1:19: found no matching overload for 'size' applied to 'int.()'\n | self.replicas.size()\n | ..................^",
  },
  {
    expr: 'self.ports.exists(p, p.containerPort)',
    error: "ERROR: <input>:1:23: expected type 'bool' but found 'int'",
  },
];

for (const row of rows) {
  test(`parse and check: ${row.expr}`, () => {
    const p = parse(row.expr);
    assert.ok(p.parsed, JSON.stringify(p.issues));
    const r = check(p.parsed, env);
    if (row.error !== undefined) {
      assert.equal(r.checked, undefined);
      const shown = formatIssues(r.issues, row.expr);
      // a one-line expectation leaves out the snippet
      assert.equal(row.error.includes('\n') ? shown : shown.split('\n')[0], row.error);
      return;
    }
    assert.deepEqual(r.issues, []);
    assert.equal(formatType(r.checked!.type), row.type);
  });
}

test('selectedField gives the schema field of an escaped property', () => {
  const p = parse('self.x__dash__y');
  const r = check(p.parsed!, env);
  const e = r.checked!.expr;
  assert.equal(e.kind, 'select');
  assert.equal(selectedField(r.checked!, e as Extract<typeof e, { kind: 'select' }>)?.wireName, 'x-y');
});
