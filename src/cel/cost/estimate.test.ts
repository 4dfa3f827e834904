import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Library } from '../decls.js';
import { AUTHORIZER_TYPE, authzLibrary } from '../k8s/index.js';
import type { ObjectType, Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import { estimateCost, type CallEstimator, type CostNode, type EstimateOptions, type SizeEstimator } from './estimate.js';
import { kubeCallEstimate } from './kubeestimate.js';
import { MAX_UINT64 } from './arith.js';
import { compile } from './testenv.js';

// Static estimates through the parser and checker. The expected numbers
// are cel-go's own (checker/cost_test.go at v0.12.7, with its test
// estimator: sizes by joined path "input", "input.@items"…, getFullYear
// costing 7) and Kubernetes' (apiserver pkg/cel/library/cost_test.go).
// Kubernetes' library estimates over the real libraries are in
// pipeline.test.ts with the actual costs; the CRD ones in crd.test.ts.

const allTypes: ObjectType = {
  kind: 'object',
  name: 'TestAllTypes',
  fields: new Map([
    ['single_int32', { type: T.int, wireName: 'single_int32' }],
    ['single_string', { type: T.string, wireName: 'single_string' }],
  ]),
};
const allList = listOf(allTypes);
const allMap = mapOf(T.string, allTypes);
const nestedMap = mapOf(T.string, allMap);

/** cel-go's testCostEstimator. */
const hintSizes =
  (hints: Record<string, number>): SizeEstimator =>
  (n) => {
    const h = n.path === undefined ? undefined : hints[n.path.join('.')];
    return h === undefined ? undefined : { min: 0, max: h };
  };
const fullYearSeven: CallEstimator = (_fn, id) => (id === 'timestamp_to_year' ? { cost: { min: 7, max: 7 } } : undefined);

function estimate(text: string, vars: Record<string, Type>, options: EstimateOptions, extra: Library[] = []) {
  const e = estimateCost(compile(text, vars, extra).checked, options);
  return [e.min, e.max];
}

interface Case {
  expr: string;
  vars?: Record<string, Type>;
  hints?: Record<string, number>;
  want: [number, number];
}

const strs = { str1: T.string, str2: T.string };
const celGoCases: Case[] = [
  { expr: `"Hello World!"`, want: [0, 0] },
  { expr: `input`, vars: { input: listOf(T.int) }, want: [1, 1] },
  { expr: `input['key']`, vars: { input: mapOf(T.string, T.string) }, want: [2, 2] },
  { expr: `input.single_int32`, vars: { input: allTypes }, want: [2, 2] },
  { expr: `has(input.single_int32)`, vars: { input: allTypes }, want: [0, 0] },
  { expr: `input.getFullYear()`, vars: { input: T.timestamp }, want: [8, 8] },
  { expr: `[1, 2, 3]`, want: [10, 10] },
  { expr: `{"a": 1, "b": 2, "c": 3}`, want: [30, 30] },
  { expr: `input.all(x, true)`, vars: { input: allList }, hints: { input: 100 }, want: [2, 302] },
  { expr: `input.all(x, x.all(y, true))`, vars: { input: listOf(allList) }, hints: { input: 50, 'input.@items': 10 }, want: [2, 1752] },
  { expr: `[1, 2, 3].all(x, true)`, want: [20, 20] },
  { expr: `input.matches('[0-9]')`, vars: { input: T.string }, hints: { input: 500 }, want: [3, 103] },
  { expr: `'123'.matches('[0-9]')`, want: [2, 2] },
  { expr: `true || false`, want: [0, 0] },
  { expr: `true && false`, want: [0, 0] },
  { expr: `1 < 2`, want: [1, 1] },
  { expr: `1 <= 2`, want: [1, 1] },
  { expr: `1 == 2`, want: [1, 1] },
  { expr: `2 > 1`, want: [1, 1] },
  { expr: `2 >= 1`, want: [1, 1] },
  { expr: `2 in [1, 2, 3]`, want: [13, 13] },
  { expr: `1 + 1`, want: [1, 1] },
  { expr: `1 - 1`, want: [1, 1] },
  { expr: `1 / 1`, want: [1, 1] },
  { expr: `1 * 1`, want: [1, 1] },
  { expr: `1 % 1`, want: [1, 1] },
  { expr: `true ? 1 : 2`, want: [0, 0] },
  { expr: `size("123")`, want: [1, 1] },
  { expr: `string(input)`, vars: { input: T.bytes }, hints: { input: 500 }, want: [1, 51] },
  { expr: `string(input) == string(input)`, vars: { input: T.bytes }, hints: { input: 500 }, want: [3, 152] },
  { expr: `bytes(input)`, vars: { input: T.string }, hints: { input: 500 }, want: [1, 51] },
  { expr: `bytes(input) == bytes(input)`, vars: { input: T.string }, hints: { input: 500 }, want: [3, 302] },
  { expr: `string(1)`, want: [1, 1] },
  { expr: `input.contains(arg1)`, vars: { input: T.string, arg1: T.string }, hints: { input: 500, arg1: 500 }, want: [2, 2502] },
  { expr: `input.matches('\\\\d+a\\\\d+b')`, vars: { input: T.string }, hints: { input: 500 }, want: [3, 103] },
  { expr: `input.startsWith(arg1)`, vars: { input: T.string, arg1: T.string }, hints: { arg1: 500 }, want: [2, 52] },
  { expr: `input.endsWith(arg1)`, vars: { input: T.string, arg1: T.string }, hints: { arg1: 500 }, want: [2, 52] },
  { expr: `input.size()`, vars: { input: T.string }, want: [2, 2] },
  { expr: `size(input)`, vars: { input: T.string }, want: [2, 2] },
  {
    expr: `(x > 2 ? input1 : input2).all(y, true)`,
    vars: { x: T.int, input1: allList, input2: allList },
    hints: { input1: 1, input2: 1 },
    want: [4, 7],
  },
  { expr: `input.all(k, input[k].single_int32 > 3)`, vars: { input: allMap }, hints: { input: 10 }, want: [2, 82] },
  { expr: `input.all(k, input[k].all(x, true))`, vars: { input: nestedMap }, hints: { input: 5, 'input.@values': 10 }, want: [2, 187] },
  { expr: `input.all(k, k.contains(k))`, vars: { input: nestedMap }, hints: { input: 5, 'input.@keys': 10 }, want: [2, 32] },
  {
    expr: `input.all(k, input[k].all(k, true) && k.contains(k))`,
    vars: { input: nestedMap },
    hints: { input: 2, 'input.@values': 2, 'input.@keys': 5 },
    want: [2, 34],
  },
  { expr: `(list1 + list2).all(x, true)`, vars: { list1: listOf(T.int), list2: listOf(T.int) }, hints: { list1: 10, list2: 10 }, want: [4, 64] },
  { expr: `"abcdefg".contains(str1 + str2)`, vars: strs, hints: { str1: 10, str2: 10 }, want: [2, 6] },
  { expr: `list1.size() == list2.size()`, vars: { list1: listOf(T.int), list2: listOf(T.int) }, want: [5, 5] },
  { expr: `x > y ? list1.size() : list2.size()`, vars: { x: T.int, y: T.int, list1: listOf(T.int), list2: listOf(T.int) }, want: [5, 5] },
  { expr: `str1.endsWith("abcdefghijklmnopqrstuvwxyz") == str2.endsWith("abcdefghijklmnopqrstuvwxyz")`, vars: strs, want: [9, 9] },
  { expr: `((5 != 6) == (1 == 2)) == ((3 <= 4) == (9 != 9))`, want: [7, 7] },
  // cel-go: 1844674407370955268, as the nearest double
  { expr: `string(timestamp1) == string(timestamp2)`, vars: { timestamp1: T.timestamp, timestamp2: T.timestamp }, want: [5, Number(1844674407370955268n)] },
  { expr: `timestamp1 == timestamp2`, vars: { timestamp1: T.timestamp, timestamp2: T.timestamp }, want: [3, 3] },
  { expr: `duration1 != duration2`, vars: { duration1: T.duration, duration2: T.duration }, want: [3, 3] },
];

test("estimateCost reproduces cel-go's estimates (checker/cost_test.go)", () => {
  for (const c of celGoCases) {
    assert.deepEqual(estimate(c.expr, c.vars ?? {}, { model: 'cel', sizes: hintSizes(c.hints ?? {}), calls: fullYearSeven }), c.want, c.expr);
  }
});

test('unbounded sizes saturate at 2^64 as cel-go does', () => {
  assert.deepEqual(estimate(`input.all(x, x.all(y, true))`, { input: listOf(allList) }, { model: 'cel', sizes: () => undefined }), [2, MAX_UINT64]);
});

test('the default size estimator reads Type bounds only along variable paths', () => {
  const bounded = { kind: 'string', maxLength: 400 } as const;
  const obj: ObjectType = { kind: 'object', name: 'O', fields: new Map([['name', { type: bounded, wireName: 'name' }]]) };
  const vars = { self: obj, names: { ...listOf(bounded), maxElements: 3 }, labels: { ...mapOf(T.string, bounded), maxElements: 5 } };
  const table: [string, [number, number]][] = [
    // 1 + 1 + ⌈400·0.1⌉ × ⌈1·0.1⌉ (the literal's size)
    [`self.name.contains('x')`, [2, 42]],
    // the elements of names: 3 × (condition 2 + step 1 + contains 40)
    [`names.all(n, n.contains('x'))`, [2, 2 + 3 * (2 + 1 + 1 + 40)]],
    // map values by index: ⌈400·0.1⌉ = 40
    [`labels['a'].contains('x')`, [2, 42]],
    // a select on a map is not a path kube follows: unbounded
    [`labels.a.contains('x')`, [2, 2 + Math.ceil(MAX_UINT64 * 0.1)]],
    // map keys have no bound: [0, 0]
    [`labels.all(k, k.contains('x'))`, [2, 2 + 5 * 4]],
    // a concatenation's size is computed: [1, 401], traversed twice
    [`(self.name + 'x').contains('y')`, [2 + 1 + 1, 2 + 41 + 41]],
    // a call result with no computed size is unbounded
    [`self.name.lowerAscii().substring(1).contains('y')`, [2 + 0 + 0 + 0, 2 + 40 + 40 + 40]],
    [`string(self.name.size()).contains('y')`, [2 + 1 + 1, 2 + 1 + 1 + Math.ceil(MAX_UINT64 * 0.1)]],
  ];
  for (const [expr, want] of table) assert.deepEqual(estimate(expr, vars, {}), want, expr);
});

// ---- Kubernetes' authorizer library (admission policies) ----

test("Kubernetes' authorizer estimates (library/cost_test.go TestAuthzLibrary)", () => {
  const resource = `authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')`;
  const table: [string, [number, number]][] = [
    [`authorizer.path('/healthz')`, [2, 2]],
    [resource, [6, 6]],
    [`authorizer.path('/healthz').check('get').allowed()`, [350003, 350003]],
    [`${resource}.check('create').allowed()`, [350007, 350007]],
    [`${resource}.check('create').reason()`, [350007, 350007]],
  ];
  for (const [expr, want] of table) assert.deepEqual(estimate(expr, { authorizer: AUTHORIZER_TYPE }, {}, [authzLibrary]), want, expr);
  // cel-go's model alone charges an authorizer check like any call
  assert.deepEqual(estimate(`authorizer.path('/healthz').check('get').allowed()`, { authorizer: AUTHORIZER_TYPE }, { model: 'cel' }, [authzLibrary]), [4, 4]);
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
