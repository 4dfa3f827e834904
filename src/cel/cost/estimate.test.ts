import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr, ParsedExpr } from '../ast.js';
import type { FieldType, ObjectType, Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { buildCheckEnv, check } from '../checker/index.js';
import { estimateCost, type CallEstimator, type EstimateOptions, type SizeEstimator } from './estimate.js';
import { MAX_UINT64 } from './arith.js';

// Hand-built ASTs, as cel-go's parser produces them after macro expansion,
// checked by our checker; the expected estimates are cel-go's own
// (checker/cost_test.go at v0.12.7), with its test estimator: sizes by
// joined path ("input", "input.@items"…) and getFullYear costing 7.

let nextId = 1;
const id = (): number => nextId++;
const int = (v: number): Expr => ({ kind: 'const', id: id(), value: { type: 'int', value: BigInt(v) } });
const bool = (v: boolean): Expr => ({ kind: 'const', id: id(), value: { type: 'bool', value: v } });
const str = (v: string): Expr => ({ kind: 'const', id: id(), value: { type: 'string', value: v } });
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
const bin = (op: string) => (a: Expr, b: Expr): Expr => call(op, a, b);
const [eq, ne, lt, le, gt, ge, plus, minus, times, div, mod, and, or, index] = [
  '_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '_+_', '_-_', '_*_', '_/_', '_%_', '_&&_', '_||_', '_[_]',
].map(bin);
const cond = (c: Expr, a: Expr, b: Expr): Expr => call('_?_:_', c, a, b);
const has = (operand: Expr, field: string): Expr => sel(operand, field, true);
/** range.all(v, pred) as cel-go's macro expands it. */
const all = (range: Expr, v: string, pred: Expr): Expr => ({
  kind: 'comprehension',
  id: id(),
  iterVar: v,
  iterRange: range,
  accuVar: '@result',
  accuInit: bool(true),
  loopCondition: call('@not_strictly_false', ident('@result')),
  loopStep: call('_&&_', ident('@result'), pred),
  result: ident('@result'),
});

const field = (type: Type): FieldType => ({ type, wireName: '' });
const objectType = (name: string, fields: Record<string, Type>, maxElements?: number): ObjectType => ({
  kind: 'object',
  name,
  fields: new Map(Object.entries(fields).map(([k, t]) => [k, { ...field(t), wireName: k }])),
  ...(maxElements === undefined ? {} : { maxElements }),
});

const allTypes = objectType('TestAllTypes', { single_int32: T.int, single_string: T.string });
const allList = listOf(allTypes);
const allMap = mapOf(T.string, allTypes);

function estimate(expr: Expr, vars: Record<string, Type>, options: EstimateOptions) {
  const env = buildCheckEnv({
    libraries: [{ name: 'std', functions: [...stdlibFunctions, ...stringsFunctions], impls: [], variables: stdlibTypeIdents }],
    variables: vars,
  });
  const parsed: ParsedExpr = { expr, sourceInfo: { text: '', lineOffsets: [0], positions: new Map(), macroCalls: new Map() } };
  const r = check(parsed, env);
  assert.ok(r.checked, `check failed: ${r.issues.map((i) => i.message).join('; ')}`);
  return estimateCost(r.checked, options);
}

/** cel-go's testCostEstimator. */
const hintSizes =
  (hints: Record<string, number>): SizeEstimator =>
  (n) => {
    const h = n.path === undefined ? undefined : hints[n.path.join('.')];
    return h === undefined ? undefined : { min: 0, max: h };
  };
const fullYearSeven: CallEstimator = (_fn, id) => (id === 'timestamp_to_year' ? { cost: { min: 7, max: 7 } } : undefined);

interface Case {
  name: string;
  expr: () => Expr;
  vars?: Record<string, Type>;
  hints?: Record<string, number>;
  want: [number, number];
}

const celGoCases: Case[] = [
  { name: 'const', expr: () => str('Hello World!'), want: [0, 0] },
  { name: 'identity', expr: () => ident('input'), vars: { input: listOf(T.int) }, want: [1, 1] },
  { name: 'select: map', expr: () => index(ident('input'), str('key')), vars: { input: mapOf(T.string, T.string) }, want: [2, 2] },
  { name: 'select: field', expr: () => sel(ident('input'), 'single_int32'), vars: { input: allTypes }, want: [2, 2] },
  { name: 'select: field test only', expr: () => has(ident('input'), 'single_int32'), vars: { input: allTypes }, want: [0, 0] },
  { name: 'estimated function call', expr: () => mcall(ident('input'), 'getFullYear'), vars: { input: T.timestamp }, want: [8, 8] },
  { name: 'create list', expr: () => list(int(1), int(2), int(3)), want: [10, 10] },
  { name: 'create map', expr: () => map([str('a'), int(1)], [str('b'), int(2)], [str('c'), int(3)]), want: [30, 30] },
  { name: 'all comprehension', expr: () => all(ident('input'), 'x', bool(true)), vars: { input: allList }, hints: { input: 100 }, want: [2, 302] },
  {
    name: 'nested all comprehension',
    expr: () => all(ident('input'), 'x', all(ident('x'), 'y', bool(true))),
    vars: { input: listOf(allList) },
    hints: { input: 50, 'input.@items': 10 },
    want: [2, 1752],
  },
  { name: 'all comprehension on literal', expr: () => all(list(int(1), int(2), int(3)), 'x', bool(true)), want: [20, 20] },
  { name: 'variable cost function', expr: () => mcall(ident('input'), 'matches', str('[0-9]')), vars: { input: T.string }, hints: { input: 500 }, want: [3, 103] },
  { name: 'variable cost function with constant', expr: () => mcall(str('123'), 'matches', str('[0-9]')), want: [2, 2] },
  { name: 'or', expr: () => or(bool(true), bool(false)), want: [0, 0] },
  { name: 'and', expr: () => and(bool(true), bool(false)), want: [0, 0] },
  { name: 'lt', expr: () => lt(int(1), int(2)), want: [1, 1] },
  { name: 'lte', expr: () => le(int(1), int(2)), want: [1, 1] },
  { name: 'eq', expr: () => eq(int(1), int(2)), want: [1, 1] },
  { name: 'gt', expr: () => gt(int(2), int(1)), want: [1, 1] },
  { name: 'gte', expr: () => ge(int(2), int(1)), want: [1, 1] },
  { name: 'in', expr: () => call('@in', int(2), list(int(1), int(2), int(3))), want: [13, 13] },
  { name: 'plus', expr: () => plus(int(1), int(1)), want: [1, 1] },
  { name: 'minus', expr: () => minus(int(1), int(1)), want: [1, 1] },
  { name: 'divide', expr: () => div(int(1), int(1)), want: [1, 1] },
  { name: 'multiply', expr: () => times(int(1), int(1)), want: [1, 1] },
  { name: 'modulo', expr: () => mod(int(1), int(1)), want: [1, 1] },
  { name: 'ternary', expr: () => cond(bool(true), int(1), int(2)), want: [0, 0] },
  { name: 'string size', expr: () => call('size', str('123')), want: [1, 1] },
  { name: 'bytes to string conversion', expr: () => call('string', ident('input')), vars: { input: T.bytes }, hints: { input: 500 }, want: [1, 51] },
  {
    name: 'bytes to string conversion equality',
    expr: () => eq(call('string', ident('input')), call('string', ident('input'))),
    vars: { input: T.bytes },
    hints: { input: 500 },
    want: [3, 152],
  },
  { name: 'string to bytes conversion', expr: () => call('bytes', ident('input')), vars: { input: T.string }, hints: { input: 500 }, want: [1, 51] },
  {
    name: 'string to bytes conversion equality',
    expr: () => eq(call('bytes', ident('input')), call('bytes', ident('input'))),
    vars: { input: T.string },
    hints: { input: 500 },
    want: [3, 302],
  },
  { name: 'int to string conversion', expr: () => call('string', int(1)), want: [1, 1] },
  {
    name: 'contains',
    expr: () => mcall(ident('input'), 'contains', ident('arg1')),
    vars: { input: T.string, arg1: T.string },
    hints: { input: 500, arg1: 500 },
    want: [2, 2502],
  },
  { name: 'matches', expr: () => mcall(ident('input'), 'matches', str('\\d+a\\d+b')), vars: { input: T.string }, hints: { input: 500 }, want: [3, 103] },
  {
    name: 'startsWith',
    expr: () => mcall(ident('input'), 'startsWith', ident('arg1')),
    vars: { input: T.string, arg1: T.string },
    hints: { arg1: 500 },
    want: [2, 52],
  },
  {
    name: 'endsWith',
    expr: () => mcall(ident('input'), 'endsWith', ident('arg1')),
    vars: { input: T.string, arg1: T.string },
    hints: { arg1: 500 },
    want: [2, 52],
  },
  { name: 'size receiver', expr: () => mcall(ident('input'), 'size'), vars: { input: T.string }, want: [2, 2] },
  { name: 'size', expr: () => call('size', ident('input')), vars: { input: T.string }, want: [2, 2] },
  {
    name: 'ternary eval',
    expr: () => all(cond(gt(ident('x'), int(2)), ident('input1'), ident('input2')), 'y', bool(true)),
    vars: { x: T.int, input1: allList, input2: allList },
    hints: { input1: 1, input2: 1 },
    want: [4, 7],
  },
  {
    name: 'comprehension over map',
    expr: () => all(ident('input'), 'k', gt(sel(index(ident('input'), ident('k')), 'single_int32'), int(3))),
    vars: { input: allMap },
    hints: { input: 10 },
    want: [2, 82],
  },
  {
    name: 'comprehension over nested map of maps',
    expr: () => all(ident('input'), 'k', all(index(ident('input'), ident('k')), 'x', bool(true))),
    vars: { input: mapOf(T.string, allMap) },
    hints: { input: 5, 'input.@values': 10 },
    want: [2, 187],
  },
  {
    name: 'string size of map keys',
    expr: () => all(ident('input'), 'k', mcall(ident('k'), 'contains', ident('k'))),
    vars: { input: mapOf(T.string, allMap) },
    hints: { input: 5, 'input.@keys': 10 },
    want: [2, 32],
  },
  {
    name: 'comprehension variable shadowing',
    expr: () =>
      all(ident('input'), 'k', and(all(index(ident('input'), ident('k')), 'k', bool(true)), mcall(ident('k'), 'contains', ident('k')))),
    vars: { input: mapOf(T.string, allMap) },
    hints: { input: 2, 'input.@values': 2, 'input.@keys': 5 },
    want: [2, 34],
  },
  {
    name: 'list concat',
    expr: () => all(plus(ident('list1'), ident('list2')), 'x', bool(true)),
    vars: { list1: listOf(T.int), list2: listOf(T.int) },
    hints: { list1: 10, list2: 10 },
    want: [4, 64],
  },
  {
    name: 'str concat',
    expr: () => mcall(str('abcdefg'), 'contains', plus(ident('str1'), ident('str2'))),
    vars: { str1: T.string, str2: T.string },
    hints: { str1: 10, str2: 10 },
    want: [2, 6],
  },
  {
    name: 'list size comparison',
    expr: () => eq(mcall(ident('list1'), 'size'), mcall(ident('list2'), 'size')),
    vars: { list1: listOf(T.int), list2: listOf(T.int) },
    want: [5, 5],
  },
  {
    name: 'list size from ternary',
    expr: () => cond(gt(ident('x'), ident('y')), mcall(ident('list1'), 'size'), mcall(ident('list2'), 'size')),
    vars: { x: T.int, y: T.int, list1: listOf(T.int), list2: listOf(T.int) },
    want: [5, 5],
  },
  {
    name: 'str endsWith equality',
    expr: () =>
      eq(mcall(ident('str1'), 'endsWith', str('abcdefghijklmnopqrstuvwxyz')), mcall(ident('str2'), 'endsWith', str('abcdefghijklmnopqrstuvwxyz'))),
    vars: { str1: T.string, str2: T.string },
    want: [9, 9],
  },
  {
    name: 'nested subexpression operators',
    expr: () => eq(eq(ne(int(5), int(6)), eq(int(1), int(2))), eq(le(int(3), int(4)), ne(int(9), int(9)))),
    want: [7, 7],
  },
  {
    name: 'str size estimate',
    expr: () => eq(call('string', ident('timestamp1')), call('string', ident('timestamp2'))),
    vars: { timestamp1: T.timestamp, timestamp2: T.timestamp },
    // cel-go: 1844674407370955268, as the nearest double
    want: [5, Number(1844674407370955268n)],
  },
  { name: 'timestamp equality check', expr: () => eq(ident('timestamp1'), ident('timestamp2')), vars: { timestamp1: T.timestamp, timestamp2: T.timestamp }, want: [3, 3] },
  { name: 'duration inequality check', expr: () => ne(ident('duration1'), ident('duration2')), vars: { duration1: T.duration, duration2: T.duration }, want: [3, 3] },
];

test("estimateCost reproduces cel-go's estimates (checker/cost_test.go)", () => {
  for (const c of celGoCases) {
    const got = estimate(c.expr(), c.vars ?? {}, { model: 'cel', sizes: hintSizes(c.hints ?? {}), calls: fullYearSeven });
    assert.deepEqual([got.min, got.max], c.want, c.name);
  }
});

test('unbounded sizes saturate at 2^64 as cel-go does', () => {
  // input.all(x, x.all(y, true)) with no hints: both ranges unbounded
  const got = estimate(all(ident('input'), 'x', all(ident('x'), 'y', bool(true))), { input: listOf(allList) }, { model: 'cel', sizes: () => undefined });
  assert.equal(got.min, 2);
  assert.equal(got.max, MAX_UINT64);
});
