import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr, ParsedExpr } from '../ast.js';
import type { Library } from '../decls.js';
import type { FieldType, ObjectType, Type } from '../types.js';
import { T, listOf, mapOf, optionalOf } from '../types.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { mathFunctions } from '../ext/math_decls.js';
import { encodersFunctions } from '../ext/encoders_decls.js';
import { optionalFunctions, optionalTypeIdents } from '../ext/optional_decls.js';
import { OverloadConflictError, buildCheckEnv, check, formatType } from './index.js';

// Hand-built ASTs (as the parser produces them after macro expansion).
let nextId = 1;
const id = (): number => nextId++;
const int = (v: number): Expr => ({ kind: 'const', id: id(), value: { type: 'int', value: BigInt(v) } });
const uint = (v: number): Expr => ({ kind: 'const', id: id(), value: { type: 'uint', value: BigInt(v) } });
const dbl = (v: number): Expr => ({ kind: 'const', id: id(), value: { type: 'double', value: v } });
const str = (v: string): Expr => ({ kind: 'const', id: id(), value: { type: 'string', value: v } });
const nul = (): Expr => ({ kind: 'const', id: id(), value: { type: 'null' } });
const ident = (name: string): Expr => ({ kind: 'ident', id: id(), name });
const sel = (operand: Expr, field: string, testOnly = false): Expr => ({ kind: 'select', id: id(), operand, field, testOnly });
const call = (fn: string, ...args: Expr[]): Expr => ({ kind: 'call', id: id(), fn, args });
const mcall = (target: Expr, fn: string, ...args: Expr[]): Expr => ({ kind: 'call', id: id(), fn, target, args });
const list = (...elements: Expr[]): Expr => ({ kind: 'list', id: id(), elements, optionalIndices: [] });
const map = (...kv: [Expr, Expr][]): Expr => ({
  kind: 'map',
  id: id(),
  entries: kv.map(([key, value]) => ({ id: id(), key, value, optional: false })),
});
/** range.all(v, pred) as cel-go's macro expands it. */
const all = (range: Expr, v: string, pred: Expr): Expr => ({
  kind: 'comprehension',
  id: id(),
  iterVar: v,
  iterRange: range,
  accuVar: '@result',
  accuInit: { kind: 'const', id: id(), value: { type: 'bool', value: true } },
  loopCondition: call('@not_strictly_false', ident('@result')),
  loopStep: call('_&&_', ident('@result'), pred),
  result: ident('@result'),
});
/** range.map(v, f) as cel-go's macro expands it. */
const mapMacro = (range: Expr, v: string, f: Expr): Expr => ({
  kind: 'comprehension',
  id: id(),
  iterVar: v,
  iterRange: range,
  accuVar: '@result',
  accuInit: list(),
  loopCondition: { kind: 'const', id: id(), value: { type: 'bool', value: true } },
  loopStep: call('_+_', ident('@result'), list(f)),
  result: ident('@result'),
});

const parsed = (expr: Expr): ParsedExpr => ({
  expr,
  sourceInfo: { text: '', lineOffsets: [0], positions: new Map(), macroCalls: new Map() },
});

const lib = (name: string, functions: Library['functions'], variables?: Library['variables']): Library =>
  variables ? { name, functions, impls: [], variables } : { name, functions, impls: [] };
const libraries = [
  lib('std', stdlibFunctions, stdlibTypeIdents),
  lib('strings', stringsFunctions),
  lib('math', mathFunctions),
  lib('encoders', encodersFunctions),
  lib('optional', optionalFunctions, optionalTypeIdents),
];

const field = (type: Type, wireName: string): FieldType => ({ type, wireName });
const container: ObjectType = {
  kind: 'object',
  name: 'Container',
  fields: new Map([
    ['name', field(T.string, 'name')],
    ['ports', field(listOf(T.int), 'ports')],
  ]),
};
const spec: ObjectType = {
  kind: 'object',
  name: 'Spec',
  fields: new Map([
    ['replicas', field(T.int, 'replicas')],
    ['containers', field(listOf(container), 'containers')],
    ['labels', field(mapOf(T.string, T.string), 'labels')],
  ]),
};
const self: ObjectType = { kind: 'object', name: 'Object', fields: new Map([['spec', field(spec, 'spec')]]) };

const variables: Record<string, Type> = {
  i: T.int,
  u: T.uint,
  d: T.double,
  s: T.string,
  b: T.bool,
  x: T.dyn,
  l: listOf(T.string),
  m: mapOf(T.string, T.int),
  self,
  'a.b.c': T.string,
  'ns.v': T.int,
  o: optionalOf(T.int),
  /** A generic declared identifier using the stdlib's parameter name. */
  ga: listOf({ kind: 'typeParam', name: 'A' }),
};
const env = buildCheckEnv({ libraries, variables });
const nsEnv = buildCheckEnv({ libraries, variables, container: 'ns.sub' });
const crossEnv = buildCheckEnv({ libraries, variables, crossTypeNumericComparisons: true });
const k8sEnv = buildCheckEnv({ libraries, variables, homogeneousAggregateLiterals: true });

interface Row {
  name: string;
  expr: Expr;
  env?: typeof env;
  type?: string;
  error?: string;
  /** Expected reference at the root: overload ids or a resolved name. */
  overloads?: string[];
  refName?: string;
}

const rows: Row[] = [
  { name: 'int literal', expr: int(1), type: 'int' },
  { name: 'null literal', expr: nul(), type: 'null' },
  { name: 'int addition', expr: call('_+_', int(1), ident('i')), type: 'int', overloads: ['add_int64'] },
  { name: 'string concat', expr: call('_+_', str('a'), ident('s')), type: 'string', overloads: ['add_string'] },
  {
    name: 'mismatched addition',
    expr: call('_+_', int(1), str('a')),
    error: "found no matching overload for '_+_' applied to '(int, string)'",
  },
  {
    name: 'dyn operand matches every overload, result dyn',
    expr: call('_+_', ident('x'), ident('x')),
    type: 'dyn',
    overloads: [
      'add_bytes',
      'add_double',
      'add_duration_duration',
      'add_duration_timestamp',
      'add_timestamp_duration',
      'add_int64',
      'add_list',
      'add_string',
      'add_uint64',
    ],
  },
  { name: 'dyn + int narrows to int', expr: call('_+_', ident('x'), int(1)), type: 'int', overloads: ['add_int64'] },
  { name: 'list concat', expr: call('_+_', list(int(1)), list()), type: 'list(int)', overloads: ['add_list'] },
  { name: 'heterogeneous list', expr: list(int(1), str('a')), type: 'list(dyn)' },
  { name: 'empty list', expr: list(), type: 'list(dyn)' },
  { name: 'empty map', expr: map(), type: 'map(dyn, dyn)' },
  { name: 'map literal', expr: map([str('a'), int(1)], [str('b'), int(2)]), type: 'map(string, int)' },
  { name: 'map index', expr: call('_[_]', ident('m'), str('k')), type: 'int', overloads: ['index_map'] },
  { name: 'list index', expr: call('_[_]', ident('l'), int(0)), type: 'string', overloads: ['index_list'] },
  {
    name: 'heterogeneous equality is an error',
    expr: call('_==_', int(1), str('a')),
    error: "found no matching overload for '_==_' applied to '(int, string)'",
  },
  { name: 'equality with dyn', expr: call('_==_', ident('x'), str('a')), type: 'bool', overloads: ['equals'] },
  {
    name: 'cross-type comparison',
    expr: call('_<_', int(1), dbl(2)),
    env: crossEnv,
    type: 'bool',
    overloads: ['less_int64_double'],
  },
  {
    name: 'cross-type comparison is off by default',
    expr: call('_<_', int(1), dbl(2)),
    error: "found no matching overload for '_<_' applied to '(int, double)'",
  },
  { name: 'dyn comparison without cross-type overloads', expr: call('_<_', ident('x'), int(2)), type: 'bool', overloads: ['less_int64'] },
  {
    name: 'homogeneous list literal',
    expr: list(int(1), str('a')),
    env: k8sEnv,
    error: "expected type 'int' but found 'string'",
  },
  {
    name: 'homogeneous map literal values',
    expr: map([str('a'), int(1)], [str('b'), str('c')]),
    env: k8sEnv,
    error: "expected type 'int' but found 'string'",
  },
  { name: 'homogeneous literal accepts dyn', expr: list(int(1), ident('x')), env: k8sEnv, type: 'list(dyn)' },
  {
    name: 'a generic result keeps its own variables',
    expr: call('_+_', list(mcall(ident('optional'), 'none')), list(mcall(ident('optional'), 'of', str('a')))),
    type: 'list(optional_type(string))',
  },
  {
    name: 'undeclared identifier',
    expr: ident('nope'),
    error: "undeclared reference to 'nope' (in container '')",
  },
  {
    name: 'undeclared function',
    expr: call('nope', int(1)),
    error: "undeclared reference to 'nope' (in container '')",
  },
  { name: 'size global', expr: call('size', ident('l')), type: 'int', overloads: ['size_list'] },
  { name: 'size receiver', expr: mcall(ident('s'), 'size'), type: 'int', overloads: ['string_size'] },
  {
    name: 'receiver call on the wrong type',
    expr: mcall(ident('i'), 'startsWith', str('a')),
    error: "found no matching overload for 'startsWith' applied to 'int.(string)'",
  },
  { name: 'ternary', expr: call('_?_:_', ident('b'), int(1), int(2)), type: 'int', overloads: ['conditional'] },
  { name: 'ternary join to dyn', expr: call('_?_:_', ident('b'), int(1), ident('x')), type: 'dyn' },
  {
    name: 'ternary with mismatched branches',
    expr: call('_?_:_', ident('b'), int(1), str('a')),
    error: "found no matching overload for '_?_:_' applied to '(bool, int, string)'",
  },
  {
    name: '&& with a non-bool',
    expr: call('_&&_', ident('b'), int(1)),
    error: "expected type 'bool' but found 'int'",
  },
  { name: 'type of a type identifier', expr: ident('int'), type: 'type(int)', refName: 'int' },
  { name: 'type()', expr: call('type', int(1)), type: 'type(int)', overloads: ['type'] },
  { name: 'type(type(1))', expr: call('type', call('type', int(1))), type: 'type(type(int))' },
  { name: 'conversion', expr: call('int', ident('s')), type: 'int', overloads: ['string_to_int64'] },
  { name: 'conversion from dyn', expr: call('string', ident('x')), type: 'string' },
  { name: 'dyn()', expr: call('dyn', int(1)), type: 'dyn', overloads: ['to_dyn'] },
  { name: 'object field', expr: sel(sel(ident('self'), 'spec'), 'replicas'), type: 'int' },
  {
    name: 'undefined object field',
    expr: sel(sel(ident('self'), 'spec'), 'replica'),
    error: "undefined field 'replica'",
  },
  { name: 'has() on an object', expr: sel(sel(ident('self'), 'spec'), 'replicas', true), type: 'bool' },
  { name: 'map field selection', expr: sel(ident('m'), 'k'), type: 'int' },
  { name: 'dyn field selection', expr: sel(ident('x'), 'k'), type: 'dyn' },
  {
    name: 'field selection on int',
    expr: sel(ident('i'), 'k'),
    error: "type 'int' does not support field selection",
  },
  { name: 'qualified identifier', expr: sel(sel(ident('a'), 'b'), 'c'), type: 'string', refName: 'a.b.c' },
  { name: 'container resolution', expr: ident('v'), env: nsEnv, type: 'int', refName: 'ns.v' },
  {
    name: 'container shown in the error',
    expr: ident('w'),
    env: nsEnv,
    error: "undeclared reference to 'w' (in container 'ns.sub')",
  },
  { name: 'leading dot is absolute', expr: ident('.i'), env: nsEnv, type: 'int', refName: 'i' },
  {
    name: 'comprehension over object list',
    expr: all(sel(sel(ident('self'), 'spec'), 'containers'), 'c', call('_>_', call('size', sel(ident('c'), 'name')), int(0))),
    type: 'bool',
  },
  {
    name: 'comprehension variable field error',
    expr: all(sel(sel(ident('self'), 'spec'), 'containers'), 'c', sel(ident('c'), 'nmae')),
    error: "undefined field 'nmae'",
  },
  {
    name: 'comprehension over map iterates keys',
    expr: mapMacro(ident('m'), 'k', call('_+_', ident('k'), str('!'))),
    type: 'list(string)',
  },
  {
    name: 'comprehension over int',
    expr: all(ident('i'), 'k', ident('b')),
    error: "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)",
  },
  {
    name: 'comprehension predicate must be bool',
    expr: all(ident('l'), 'k', ident('k')),
    error: "expected type 'bool' but found 'string'",
  },
  { name: 'in list', expr: call('@in', str('a'), ident('l')), type: 'bool', overloads: ['in_list'] },
  {
    name: 'in list of the wrong element',
    expr: call('@in', int(1), ident('l')),
    error: "found no matching overload for '@in' applied to '(int, list(string))'",
  },
  { name: 'timestamp accessor with tz', expr: mcall(call('timestamp', str('t')), 'getHours', str('UTC')), type: 'int', overloads: ['timestamp_to_hours_with_tz'] },
  { name: 'duration accessor', expr: mcall(call('duration', str('1s')), 'getSeconds'), type: 'int', overloads: ['duration_to_seconds'] },
  { name: 'strings ext', expr: mcall(ident('s'), 'split', str(',')), type: 'list(string)', overloads: ['string_split_string'] },
  { name: 'join', expr: mcall(ident('l'), 'join', str(',')), type: 'string', overloads: ['list_join_string'] },
  { name: 'namespaced function', expr: mcall(ident('base64'), 'encode', call('bytes', str('a'))), type: 'string', overloads: ['base64_encode_bytes'] },
  { name: 'math.@max mixed', expr: call('math.@max', int(1), dbl(2)), type: 'dyn', overloads: ['math_@max_int_double'] },
  { name: 'math.abs', expr: mcall(ident('math'), 'abs', ident('i')), type: 'int', overloads: ['math_abs_int'] },
  { name: 'optional.of', expr: mcall(ident('optional'), 'of', int(1)), type: 'optional_type(int)', overloads: ['optional_of'] },
  { name: 'optional.none', expr: mcall(ident('optional'), 'none'), type: 'optional_type(dyn)' },
  { name: 'orValue', expr: mcall(ident('o'), 'orValue', int(0)), type: 'int', overloads: ['optional_orValue_value'] },
  { name: 'optional select', expr: call('_?._', ident('m'), str('k')), type: 'optional_type(int)', overloads: ['select_optional_field'] },
  { name: 'optional index', expr: call('_[?_]', ident('l'), int(0)), type: 'optional_type(string)', overloads: ['list_optindex_optional_int'] },
  {
    name: 'optional select of an object field',
    expr: call('_?._', sel(ident('self'), 'spec'), str('replicas')),
    type: 'optional_type(int)',
  },
  { name: 'uint arithmetic', expr: call('_*_', uint(2), ident('u')), type: 'uint', overloads: ['multiply_uint64'] },
  {
    name: 'int and uint do not mix',
    expr: call('_+_', ident('i'), ident('u')),
    error: "found no matching overload for '_+_' applied to '(int, uint)'",
  },
  {
    name: 'null joins to the nullable element type',
    expr: list(mcall(ident('optional'), 'of', int(1)), nul()),
    type: 'list(optional_type(int))',
  },
  { name: 'null first joins the same way', expr: list(nul(), call('timestamp', str('t'))), type: 'list(timestamp)' },
  { name: 'null and int do not join', expr: list(int(1), nul()), type: 'list(dyn)' },
  {
    name: "a generic identifier's binding does not leak into overloads with the same parameter name",
    expr: list(call('_+_', ident('ga'), list(int(1))), call('_+_', list(str('a')), list(str('b')))),
    type: 'list(dyn)',
  },
  {
    name: 'a generic identifier unifies across uses',
    expr: call('_==_', call('_+_', ident('ga'), list(int(1))), ident('ga')),
    type: 'bool',
  },
  { name: 'null equality with an object', expr: call('_==_', sel(ident('self'), 'spec'), nul()), type: 'bool' },
];

for (const row of rows) {
  test(`check: ${row.name}`, () => {
    const { checked, issues } = check(parsed(row.expr), row.env ?? env);
    if (row.error !== undefined) {
      assert.equal(checked, undefined);
      assert.deepEqual(
        issues.map((i) => i.message),
        [row.error],
      );
      return;
    }
    assert.deepEqual(issues, []);
    assert.ok(checked);
    assert.equal(formatType(checked.type), row.type);
    const ref = checked.refs.get(checked.expr.id);
    if (row.overloads) assert.deepEqual(ref?.overloadIds, row.overloads);
    if (row.refName) assert.equal(ref?.name, row.refName);
    // every node of the checked tree has a type
    const missing: number[] = [];
    const visit = (e: Expr): void => {
      if (!checked.types.has(e.id)) missing.push(e.id);
      switch (e.kind) {
        case 'select':
          return visit(e.operand);
        case 'call':
          if (e.target) visit(e.target);
          return e.args.forEach(visit);
        case 'list':
          return e.elements.forEach(visit);
        case 'map':
          return e.entries.forEach((en) => (visit(en.key), visit(en.value)));
        case 'comprehension':
          return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].forEach(visit);
        default:
      }
    };
    visit(checked.expr);
    assert.deepEqual(missing, []);
  });
}

test('check: a qualified identifier becomes an identifier node; a namespaced call a global call', () => {
  const q = check(parsed(sel(sel(ident('a'), 'b'), 'c')), env).checked!;
  assert.deepEqual({ kind: q.expr.kind, name: (q.expr as { name: string }).name }, { kind: 'ident', name: 'a.b.c' });
  const f = check(parsed(mcall(ident('base64'), 'encode', call('bytes', str('a')))), env).checked!;
  assert.equal(f.expr.kind, 'call');
  assert.equal((f.expr as { fn: string }).fn, 'base64.encode');
  assert.equal((f.expr as { target?: Expr }).target, undefined);
});

test('check: the parsed AST is not modified', () => {
  const e = sel(sel(ident('a'), 'b'), 'c');
  const before = JSON.stringify(e);
  check(parsed(e), env);
  assert.equal(JSON.stringify(e), before);
});

test('check: a comprehension variable shadows a global of the same name', () => {
  const e = all(ident('l'), 'i', call('_==_', ident('i'), str('a')));
  const { checked, issues } = check(parsed(e), env);
  assert.deepEqual(issues, []);
  assert.equal(formatType(checked!.type), 'bool');
});

test('formatType prints as cel-go', () => {
  const cases: [Type, string][] = [
    [T.int, 'int'],
    [listOf(T.string), 'list(string)'],
    [mapOf(T.string, T.dyn), 'map(string, dyn)'],
    [{ kind: 'type', param: T.int }, 'type(int)'],
    [{ kind: 'type' }, 'type'],
    [optionalOf(T.int), 'optional_type(int)'],
    [{ kind: 'typeParam', name: 'A' }, 'A'],
    [T.error, '!error!'],
    [self, 'Object'],
  ];
  for (const [t, s] of cases) assert.equal(formatType(t), s);
});

test('buildCheckEnv merges overloads by function name and refuses a conflicting redeclaration', () => {
  const a = lib('a', [{ name: 'f', overloads: [{ id: 'f_int', params: [T.int], result: T.int, receiver: false }] }]);
  const b = lib('b', [
    {
      name: 'f',
      overloads: [
        { id: 'f_int', params: [T.int], result: T.int, receiver: false },
        { id: 'f_string', params: [T.string], result: T.string, receiver: false },
      ],
    },
  ]);
  const merged = buildCheckEnv({ libraries: [a, b] });
  assert.deepEqual(
    merged.functions.get('f')!.overloads.map((o) => o.id),
    ['f_int', 'f_string'],
  );
  const c = lib('c', [{ name: 'f', overloads: [{ id: 'f_int', params: [T.string], result: T.int, receiver: false }] }]);
  assert.throws(() => buildCheckEnv({ libraries: [a, c] }), OverloadConflictError);
});
