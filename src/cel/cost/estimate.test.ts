import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr } from '../ast.js';
import type { FieldType, ObjectType, Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import { estimateCost, type CallEstimator, type CostNode, type EstimateOptions, type SizeEstimator } from './estimate.js';
import { kubeCallEstimate } from './kubeestimate.js';
import { MAX_UINT64 } from './arith.js';
import {
  Authorizer, all, and, bool, call, checked, cond, div, eq, ge, gt, has, id, ident, index, int, le, list, lt, map, mcall, minus, mod, ne, or, plus, sel, str, times,
} from './testast.js';

// Hand-built ASTs, as cel-go's parser produces them after macro expansion,
// checked by our checker; the expected estimates are cel-go's own
// (checker/cost_test.go at v0.12.7), with its test estimator: sizes by
// joined path ("input", "input.@items"…) and getFullYear costing 7.

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
  return estimateCost(checked(expr, vars), options);
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

// ---- Kubernetes' library estimator (apiserver pkg/cel/library/cost_test.go, v1.27) ----

function kubeEstimate(expr: Expr, vars: Record<string, Type>, sizes: SizeEstimator) {
  return estimateCost(checked(expr, vars), { sizes });
}

/** kube's testCostEstimator: any string or bytes is at most 12 long. */
const twelve: SizeEstimator = (n) => (n.type?.kind === 'string' || n.type?.kind === 'bytes' ? { min: 0, max: 12 } : undefined);

const lit = {
  int: () => list(...[1, 2, 3, 4, 5].map(int)),
  uint: () => list(...[1, 2, 3, 4, 5].map((v) => call('uint', int(v)))),
  double: () => list(...[1, 2, 3, 4, 5].map((v): Expr => ({ kind: 'const', id: id(), value: { type: 'double', value: v } }))),
  bool: () => list(...[false, true, false, true, false].map(bool)),
  string: () => list(...Array.from({ length: 5 }, () => str('012345678901'))),
  bytes: () => list(...Array.from({ length: 5 }, () => call('bytes', str('012345678901')))),
  duration: () => list(...['1s', '2s', '3s', '4s', '5s'].map((d) => call('duration', str(d)))),
  timestamp: () => list(...[1, 2, 3, 4, 5].map((d) => call('timestamp', str(`2011-01-0${d}T00:00:00.000+01:00`)))),
};
const stringLiteral = '01234567890123456789012345678901234567890123456789';

const kubeCases: { name: string; expr: () => Expr; want: [number, number] }[] = [
  ...(['int', 'double', 'duration', 'uint'] as const).map((k) => ({
    name: `${k} list .sum()`,
    expr: () => mcall(lit[k](), 'sum'),
    want: (k === 'uint' || k === 'duration' ? [20, 20] : [15, 15]) as [number, number],
  })),
  ...['isSorted', 'max', 'min'].flatMap((f) =>
    (
      [
        ['int', [15, 15]],
        ['uint', [20, 20]],
        ['double', [15, 15]],
        ['bool', [15, 15]],
        ['string', [15, 25]],
        ['bytes', [25, 35]],
        ['duration', [20, 20]],
        ['timestamp', [20, 20]],
      ] as const
    ).map(([k, w]) => ({ name: `${k} list .${f}()`, expr: () => mcall(lit[k](), f), want: [w[0], w[1]] as [number, number] })),
  ),
  ...['indexOf', 'lastIndexOf'].flatMap((f) =>
    (
      [
        ['int', () => int(3), [15, 15]],
        ['uint', () => call('uint', int(3)), [21, 21]],
        ['bool', () => bool(true), [15, 15]],
        ['string', () => str('x'), [15, 25]],
        ['bytes', () => call('bytes', str('x')), [26, 36]],
        ['duration', () => call('duration', str('3s')), [21, 21]],
      ] as const
    ).map(([k, p, w]) => ({ name: `${k} list .${f}()`, expr: () => mcall(lit[k](), f, p()), want: [w[0], w[1]] as [number, number] })),
  ),
  { name: 'string indexOf', expr: () => mcall(str(stringLiteral), 'indexOf', str('123')), want: [5, 5] },
  { name: 'string lastIndexOf', expr: () => mcall(str(stringLiteral), 'lastIndexOf', str('123')), want: [5, 5] },
  ...['getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery'].map((f) => ({
    name: `url.${f}`,
    expr: () => mcall(call('url', str('https:://kubernetes.io/')), f),
    want: [4, 4] as [number, number],
  })),
  { name: 'lowerAscii', expr: () => mcall(str('ABCDEFGHIJ abcdefghij'), 'lowerAscii'), want: [3, 3] },
  {
    name: 'lowerAsciiEquals',
    expr: () => eq(mcall(str('ABCDEFGHIJ abcdefghij'), 'lowerAscii'), mcall(str('abcdefghij ABCDEFGHIJ'), 'lowerAscii')),
    want: [7, 9],
  },
  { name: 'upperAscii', expr: () => mcall(str('ABCDEFGHIJ abcdefghij'), 'upperAscii'), want: [3, 3] },
  { name: 'replace', expr: () => mcall(str('abc 123 def 123'), 'replace', str('123'), str('456')), want: [3, 3] },
  { name: 'replace between all chars', expr: () => mcall(str('abc 123 def 123'), 'replace', str(''), str('x')), want: [3, 3] },
  { name: 'replace with limit', expr: () => mcall(str('abc 123 def 123'), 'replace', str('123'), str('456'), int(1)), want: [3, 3] },
  { name: 'split', expr: () => mcall(str('abc 123 def 123'), 'split', str(' ')), want: [3, 3] },
  { name: 'split with limit', expr: () => mcall(str('abc 123 def 123'), 'split', str(' '), int(1)), want: [3, 3] },
  { name: 'substring', expr: () => mcall(str('abc 123 def 123'), 'substring', int(5)), want: [2, 2] },
  { name: 'substring with end', expr: () => mcall(str('abc 123 def 123'), 'substring', int(5), int(8)), want: [2, 2] },
  { name: 'trim', expr: () => mcall(str('  abc 123 def 123  '), 'trim'), want: [2, 2] },
  {
    name: 'join with separator',
    expr: () => mcall(list(...['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map(str)), 'join', str(' ')),
    want: [11, 23],
  },
  { name: 'join', expr: () => mcall(list(...['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map(str)), 'join'), want: [10, 22] },
  { name: 'find', expr: () => mcall(str('abc 123 def 123'), 'find', str('123')), want: [2, 2] },
  { name: 'findAll', expr: () => mcall(str('abc 123 def 123'), 'findAll', str('123')), want: [2, 2] },
  { name: 'findAll with limit', expr: () => mcall(str('abc 123 def 123'), 'findAll', str('123'), int(1)), want: [2, 2] },
  { name: 'authz path', expr: () => mcall(ident('authorizer'), 'path', str('/healthz')), want: [2, 2] },
  {
    name: 'authz resource',
    expr: () => mcall(mcall(mcall(mcall(mcall(ident('authorizer'), 'group', str('apps')), 'resource', str('deployments')), 'subresource', str('status')), 'namespace', str('test')), 'name', str('backend')),
    want: [6, 6],
  },
  {
    name: 'authz path check allowed',
    expr: () => mcall(mcall(mcall(ident('authorizer'), 'path', str('/healthz')), 'check', str('get')), 'allowed'),
    want: [350003, 350003],
  },
  {
    name: 'authz resource check reason',
    expr: () =>
      mcall(
        mcall(mcall(mcall(mcall(mcall(mcall(ident('authorizer'), 'group', str('apps')), 'resource', str('deployments')), 'subresource', str('status')), 'namespace', str('test')), 'name', str('backend')), 'check', str('create')),
        'reason',
      ),
    want: [350007, 350007],
  },
];

test("estimateCost reproduces Kubernetes' library estimates (library/cost_test.go)", () => {
  for (const c of kubeCases) {
    const got = kubeEstimate(c.expr(), { authorizer: Authorizer }, twelve);
    assert.deepEqual([got.min, got.max], c.want, c.name);
  }
});

test("kube's replace result sizes (library/cost_test.go TestSize)", () => {
  const sized = (min: number, max: number): CostNode => ({ expr: undefined, type: T.string, path: undefined, pathType: undefined, computedSize: { min, max } });
  const cases: [string, [number, number], [number, number][], [number, number]][] = [
    ['replace empty with char', [3, 3], [[0, 0], [1, 1]], [7, 7]],
    ['maybe replace char with empty', [3, 3], [[1, 1], [0, 0]], [0, 3]],
    ['maybe replace repeated', [4, 4], [[2, 2], [4, 4]], [4, 8]],
    ['maybe replace empty', [4, 4], [[0, 1], [0, 2]], [0, 14]],
    ['replace non-empty size range, maybe larger', [4, 4], [[1, 1], [1, 2]], [4, 8]],
    ['replace non-empty size range, maybe smaller', [4, 4], [[1, 2], [1, 1]], [2, 4]],
  ];
  for (const [name, t, args, want] of cases) {
    const r = kubeCallEstimate('replace', sized(...t), args.map(([a, b]) => sized(a, b)), () => undefined);
    assert.ok(r?.resultSize, name);
    assert.deepEqual([r.resultSize.min, r.resultSize.max], want, name);
  }
});
