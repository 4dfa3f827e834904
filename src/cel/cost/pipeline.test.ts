import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectType, Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import type { CallCosts } from '../interpreter/cost.js';
import { CelError } from '../values.js';
import { estimateCost, type SizeEstimator } from './estimate.js';
import { COST_LIMIT_EXCEEDED } from './limits.js';
import { constantCallCost, sizeCallCost } from './runtime.js';
import { compile, evalCost, evalCostOrError } from './testenv.js';
import { AUTHORIZER_TYPE, AuthzSession, authorizerFor, authzLibrary } from '../k8s/index.js';

// The whole pipeline (parser, checker, estimator, interpreter with cost
// tracking) against cel-go's runtime cost table (interpreter/
// runtimecost_test.go, v0.12.7: the actual cost of each expression, which
// must also lie within its static estimate) and Kubernetes' library cost
// table (apiserver pkg/cel/library/cost_test.go: estimate and actual).

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
const rand = (n: number): string => {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let s = '';
  for (let i = 0; i < n; i++) s += letters[(i * 7 + 3) % letters.length];
  return s;
};

/** cel-go's testRuntimeCostEstimator: getFullYear costs 7. */
const celWithYear: CallCosts = {
  constantCallCost: (id) => (id === 'timestamp_to_year' ? 7 : constantCallCost(id, 'cel')),
  sizeCallCost: (id) => (id === 'timestamp_to_year' ? undefined : sizeCallCost(id, 'cel')),
};

interface RuntimeCase {
  name: string;
  expr: string;
  vars?: Record<string, Type>;
  in?: Record<string, unknown>;
  want: number;
  limit?: number;
  exceeds?: true;
  /** cel-go's actual cost exceeds its own estimate here. */
  aboveEstimate?: true;
}

/** Cases where the interpreter's accounting differs from cel-go v0.12's
 * observer (a ratchet: any other mismatch fails). Now none: a ternary whose
 * branch is an attribute resolves it without the attribute's own charge, and
 * an index key that is an attribute is a qualifier charged only for its
 * qualifiers, as in cel-go. */
const KNOWN_INTERPRETER_DIFFERENCES = new Set<string>();

const runtimeCases: RuntimeCase[] = [
  { name: 'const', expr: `"Hello World!"`, want: 0 },
  { name: 'identity', expr: `input`, vars: { input: listOf(T.int) }, in: { input: [1, 2] }, want: 1 },
  { name: 'select: map', expr: `input['key']`, vars: { input: mapOf(T.string, T.string) }, in: { input: { key: 'v' } }, want: 2 },
  { name: 'select: array index', expr: `input[0]`, vars: { input: listOf(T.string) }, in: { input: ['v'] }, want: 2 },
  { name: 'select: field', expr: `input.single_int32`, vars: { input: allTypes }, in: { input: { single_int32: 1 } }, want: 2 },
  { name: 'expr select: map', expr: `input['ke' + 'y']`, vars: { input: mapOf(T.string, T.string) }, in: { input: { key: 'v' } }, want: 3 },
  { name: 'expr select: array index', expr: `input[3-3]`, vars: { input: listOf(T.string) }, in: { input: ['v'] }, want: 3 },
  // cel-go charges 0 only for a protobuf message field (its presence test
  // reads the operand without observing it); Kubernetes objects have no
  // protobuf field accessors, so their operand is evaluated and costs 1 —
  // above the estimate of 0, in kube as here.
  {
    name: 'select: field test only (object, not protobuf)',
    expr: `has(input.single_int32)`,
    vars: { input: allTypes },
    in: { input: { single_int32: 1 } },
    want: 1,
    aboveEstimate: true,
  },
  { name: 'create list', expr: `[1, 2, 3]`, want: 10 },
  { name: 'create map', expr: `{"a": 1, "b": 2, "c": 3}`, want: 30 },
  { name: 'all comprehension', expr: `input.all(x, true)`, vars: { input: allList }, in: { input: [] }, want: 2 },
  { name: 'nested all comprehension', expr: `input.all(x, x.all(y, true))`, vars: { input: listOf(allList) }, in: { input: [] }, want: 2 },
  { name: 'all comprehension on literal', expr: `[1, 2, 3].all(x, true)`, want: 20 },
  { name: 'variable cost function', expr: `input.matches('[0-9]')`, vars: { input: T.string }, in: { input: rand(500) }, want: 103 },
  { name: 'variable cost function with constant', expr: `'123'.matches('[0-9]')`, want: 2 },
  { name: 'or', expr: `false || false`, want: 0 },
  { name: 'or short-circuit', expr: `true || false`, want: 0 },
  { name: 'and', expr: `true && false`, want: 0 },
  { name: 'and short-circuit', expr: `false && true`, want: 0 },
  { name: 'lt', expr: `1 < 2`, want: 1 },
  { name: 'lte', expr: `1 <= 2`, want: 1 },
  { name: 'eq', expr: `1 == 2`, want: 1 },
  { name: 'gt', expr: `2 > 1`, want: 1 },
  { name: 'gte', expr: `2 >= 1`, want: 1 },
  { name: 'in', expr: `2 in [1, 2, 3]`, want: 13 },
  { name: 'plus', expr: `1 + 1`, want: 1 },
  { name: 'minus', expr: `1 - 1`, want: 1 },
  { name: 'divide', expr: `1 / 1`, want: 1 },
  { name: 'multiply', expr: `1 * 1`, want: 1 },
  { name: 'modulo', expr: `1 % 1`, want: 1 },
  { name: 'ternary', expr: `true ? 1 : 2`, want: 0 },
  { name: 'string size', expr: `size("123")`, want: 1 },
  { name: 'str eq str', expr: `'12345678901234567890' == '123456789012345678901234567890'`, want: 2 },
  { name: 'bytes to string conversion', expr: `string(input)`, vars: { input: T.bytes }, in: { input: new TextEncoder().encode(rand(500)) }, want: 51 },
  { name: 'string to bytes conversion', expr: `bytes(input)`, vars: { input: T.string }, in: { input: rand(500) }, want: 51 },
  { name: 'int to string conversion', expr: `string(1)`, want: 1 },
  {
    name: 'contains',
    expr: `input.contains(arg1)`,
    vars: { input: T.string, arg1: T.string },
    in: { input: rand(500), arg1: rand(500) },
    want: 2502,
  },
  { name: 'matches', expr: `input.matches('\\\\d+a\\\\d+b')`, vars: { input: T.string }, in: { input: rand(500) }, want: 103 },
  { name: 'startsWith', expr: `input.startsWith(arg1)`, vars: { input: T.string, arg1: T.string }, in: { input: 'idc', arg1: rand(500) }, want: 3 },
  { name: 'endsWith', expr: `input.endsWith(arg1)`, vars: { input: T.string, arg1: T.string }, in: { input: 'idc', arg1: rand(500) }, want: 3 },
  { name: 'size receiver', expr: `input.size()`, vars: { input: T.string }, in: { input: '500' }, want: 2 },
  { name: 'size', expr: `size(input)`, vars: { input: T.string }, in: { input: '500' }, want: 2 },
  {
    name: 'ternary eval',
    expr: `(x > 2 ? input1 : input2).all(y, true)`,
    vars: { x: T.int, input1: allList, input2: allList },
    in: { x: 1, input1: [{}], input2: [{}] },
    want: 6,
  },
  {
    name: 'ternary over attributes: the chosen branch costs its qualifiers only',
    expr: `x > 2 ? input1 : input2[0].single_int32`,
    vars: { x: T.int, input1: T.int, input2: allList },
    in: { x: 1, input1: 1, input2: [{ single_int32: 4 }] },
    want: 4,
  },
  { name: 'ternary eval trivial, true', expr: `true ? false : 1 > 3`, want: 0 },
  { name: 'ternary eval trivial, false', expr: `false ? false : 1 > 3`, want: 1 },
  {
    name: 'comprehension over map',
    expr: `input.all(k, input[k].single_int32 > 3)`,
    vars: { input: allMap },
    in: { input: { val: { single_int32: 0 } } },
    want: 9,
  },
  { name: 'comprehension over nested map of maps', expr: `input.all(k, input[k].all(x, true))`, vars: { input: mapOf(T.string, allMap) }, in: { input: {} }, want: 2 },
  { name: 'string size of map keys', expr: `input.all(k, k.contains(k))`, vars: { input: mapOf(T.string, allMap) }, in: { input: {} }, want: 2 },
  {
    name: 'comprehension variable shadowing',
    expr: `input.all(k, input[k].all(k, true) && k.contains(k))`,
    vars: { input: mapOf(T.string, allMap) },
    in: { input: {} },
    want: 2,
  },
  { name: 'list concat', expr: `(list1 + list2).all(x, true)`, vars: { list1: listOf(T.int), list2: listOf(T.int) }, in: { list1: [], list2: [] }, want: 4 },
  {
    name: 'str concat',
    expr: `"abcdefg".contains(str1 + str2)`,
    vars: { str1: T.string, str2: T.string },
    in: { str1: 'val1', str2: 'val2222222' },
    want: 6,
  },
  {
    name: 'at limit',
    expr: `"abcdefg".contains(str1 + str2)`,
    vars: { str1: T.string, str2: T.string },
    in: { str1: 'val1', str2: 'val2222222' },
    limit: 6,
    want: 6,
  },
  {
    name: 'above limit',
    expr: `"abcdefg".contains(str1 + str2)`,
    vars: { str1: T.string, str2: T.string },
    in: { str1: 'val1', str2: 'val2222222' },
    limit: 5,
    want: 6,
    exceeds: true,
  },
  { name: 'ternary as operand', expr: `(1 > 2 ? 5 : 3) > 1`, want: 2 },
  { name: 'or as operand', expr: `(1 > 2 || 2 > 1) == true`, want: 3 },
  // an index over a literal is a relative attribute: 10, attribute 1, qualifier 1
  // (cel-go's estimator counts the index once: 11, below its own actual cost)
  { name: 'index of a list literal', expr: `[1, 2][1]`, want: 12, aboveEstimate: true },
  { name: 'list map literal', expr: `[{'k1': 1}, {'k2': 2}].all(x, true)`, want: 77 },
];

test("actual costs match cel-go's runtime cost table and lie within the estimates", () => {
  const failures: string[] = [];
  const known: string[] = [];
  for (const c of runtimeCases) {
    const compiled = compile(c.expr, c.vars);
    const est = estimateCost(compiled.checked, { model: 'cel', sizes: () => undefined });
    let cost: number;
    try {
      cost = evalCost(compiled, c.in ?? {}, celWithYear, c.limit).cost;
      if (c.exceeds) failures.push(`${c.name}: no cost limit error`);
    } catch (e) {
      if (c.exceeds && e instanceof CelError && e.message === COST_LIMIT_EXCEEDED) continue;
      throw e;
    }
    if (cost !== c.want) {
      if (KNOWN_INTERPRETER_DIFFERENCES.has(c.name)) known.push(`${c.name}: ${c.expr} cost ${cost}, cel-go ${c.want}`);
      else failures.push(`${c.name}: ${c.expr} cost ${cost}, cel-go ${c.want}`);
    }
    if (cost < est.min || (cost > est.max && !c.aboveEstimate)) failures.push(`${c.name}: cost ${cost} outside estimate [${est.min}, ${est.max}]`);
  }
  console.log(`cel-go runtime cost table: ${runtimeCases.length} cases, ${runtimeCases.length - known.length - failures.length} equal, ${known.length} known differences:\n  ${known.join('\n  ')}`);
  assert.deepEqual(failures, []);
});

// cel-go's observer charges a step when it produces an error too (the
// error is its value): a failed index, a call whose argument failed, a call
// that failed. These evaluations all end in an error.
const failingCases: { expr: string; want: number }[] = [
  // list 10, relative attribute 1, index qualifier 1, the + over the error 1
  { expr: `"str1 " + ["a", "b", "c", "d"][4]`, want: 13 },
  { expr: `{'a': 1}['b'] + 1`, want: 33 },
  { expr: `[1][2]`, want: 12 },
  { expr: `1 / 0`, want: 1 },
  { expr: `1 / 0 + 1`, want: 2 },
  // dyn dispatch finds no size(int): the call is still charged
  { expr: `x.size() + 1`, want: 3 },
  // every argument is evaluated (and charged) even after one failed
  { expr: `1 / 0 + x`, want: 3 },
  // an error inside a call absorbed by `||` is charged: / 1, == 1, then the error of `1 / 0 > 0` remains
  { expr: `1 / 0 == 1 || 1 / 0 > 0`, want: 4 },
];
/** Failing steps the interpreter charges unlike cel-go (a ratchet as above).
 * Calls of a constant cost are charged first, so also when they or their
 * arguments fail; a size-dependent call (add_string, equals) over a failed
 * argument is not charged, and the arguments after a failed one are not
 * evaluated (cel-go evaluates and charges them). A per-call try/catch that
 * did both doubled the cost of small rules (bench), so it is not planned. */
const KNOWN_UNCHARGED_ERRORS = new Set<string>([
  `"str1 " + ["a", "b", "c", "d"][4]`,
  `1 / 0 + x`,
  `1 / 0 == 1 || 1 / 0 > 0`,
]);

test("failing steps are charged as cel-go's observer charges them", () => {
  const failures: string[] = [];
  const known: string[] = [];
  for (const c of failingCases) {
    const r = evalCostOrError(compile(c.expr, { x: T.dyn }), { x: 5 }, 'cel');
    if (r.error === undefined) failures.push(`${c.expr}: no error`);
    if (r.cost === c.want) continue;
    (KNOWN_UNCHARGED_ERRORS.has(c.expr) ? known : failures).push(`${c.expr}: cost ${r.cost}, cel-go ${c.want}`);
  }
  console.log(`failing steps: ${failingCases.length} cases, ${failingCases.length - known.length - failures.length} equal, ${known.length} known differences:\n  ${known.join('\n  ')}`);
  assert.deepEqual(failures, []);
});

test('getFullYear through a custom call cost (cel-go: 8, estimate 8)', () => {
  const compiled = compile(`input.getFullYear()`, { input: T.timestamp });
  const est = estimateCost(compiled.checked, { model: 'cel', calls: (_f, id) => (id === 'timestamp_to_year' ? { cost: { min: 7, max: 7 } } : undefined) });
  assert.deepEqual(est, { min: 8, max: 8 });
});

// ---- Kubernetes' libraries: estimate and actual cost ----

/** kube's testCostEstimator: strings and bytes at most 12 long. */
const twelve: SizeEstimator = (n) => (n.type?.kind === 'string' || n.type?.kind === 'bytes' ? { min: 0, max: 12 } : undefined);

const lits = {
  int: '[1, 2, 3, 4, 5]',
  uint: '[uint(1), uint(2), uint(3), uint(4), uint(5)]',
  double: '[1.0, 2.0, 3.0, 4.0, 5.0]',
  bool: '[false, true, false, true, false]',
  string: "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']",
  bytes: "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]",
  duration: "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]",
  timestamp:
    "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), timestamp('2011-01-05T00:00:00.000+01:00')]",
};
const stringLiteral = "'01234567890123456789012345678901234567890123456789'";

const kubeCases: { expr: string; est: [number, number]; actual: number }[] = [
  ...(['int', 'double'] as const).map((k) => ({ expr: `${lits[k]}.sum()`, est: [15, 15] as [number, number], actual: 15 })),
  ...(['uint', 'duration'] as const).map((k) => ({ expr: `${lits[k]}.sum()`, est: [20, 20] as [number, number], actual: 20 })),
  ...['.isSorted()', '.max()', '.min()'].flatMap((op) =>
    (
      [
        ['int', [15, 15], 15],
        ['uint', [20, 20], 20],
        ['double', [15, 15], 15],
        ['bool', [15, 15], 15],
        ['string', [15, 25], 15],
        ['bytes', [25, 35], 25],
        ['duration', [20, 20], 20],
        ['timestamp', [20, 20], 20],
      ] as const
    ).map(([k, e, a]) => ({ expr: `${lits[k]}${op}`, est: [e[0], e[1]] as [number, number], actual: a })),
  ),
  ...['indexOf', 'lastIndexOf'].flatMap((f) =>
    (
      [
        [lits.int, '3', [15, 15], 15],
        [lits.uint, 'uint(3)', [21, 21], 21],
        [lits.double, '3.0', [15, 15], 15],
        [lits.bool, 'true', [15, 15], 15],
        [lits.string, "'x'", [15, 25], 15],
        [lits.bytes, "bytes('x')", [26, 36], 26],
        [lits.duration, "duration('3s')", [21, 21], 21],
        [lits.timestamp, "timestamp('2011-01-03T00:00:00.000+01:00')", [21, 21], 21],
        [stringLiteral, "'123'", [5, 5], 5],
      ] as const
    ).map(([l, p, e, a]) => ({ expr: `${l}.${f}(${p})`, est: [e[0], e[1]] as [number, number], actual: a })),
  ),
  ...['getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery'].map((f) => ({
    expr: `url('https:://kubernetes.io/').${f}()`,
    est: [4, 4] as [number, number],
    actual: 4,
  })),
  { expr: "'ABCDEFGHIJ abcdefghij'.lowerAscii()", est: [3, 3], actual: 3 },
  { expr: "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", est: [7, 9], actual: 9 },
  { expr: "'ABCDEFGHIJ abcdefghij'.upperAscii()", est: [3, 3], actual: 3 },
  { expr: "'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", est: [7, 9], actual: 9 },
  { expr: "'abc 123 def 123'.replace('123', '456')", est: [3, 3], actual: 3 },
  { expr: "'abc 123 def 123'.replace('', 'x')", est: [3, 3], actual: 3 },
  { expr: "'abc 123 def 123'.replace('123', '')", est: [3, 3], actual: 3 },
  { expr: "'abc 123 def 123'.replace('123', '456', 1)", est: [3, 3], actual: 3 },
  { expr: "'abc 123 def 123'.split(' ')", est: [3, 3], actual: 3 },
  { expr: "'abc 123 def 123'.split(' ', 1)", est: [3, 3], actual: 3 },
  { expr: "'abc 123 def 123'.substring(5)", est: [2, 2], actual: 2 },
  { expr: "'abc 123 def 123'.substring(5, 8)", est: [2, 2], actual: 2 },
  { expr: "'  abc 123 def 123  '.trim()", est: [2, 2], actual: 2 },
  { expr: "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", est: [11, 23], actual: 15 },
  { expr: "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", est: [10, 22], actual: 13 },
  { expr: "'abc 123 def 123'.find('123')", est: [2, 2], actual: 2 },
  { expr: "'abc 123 def 123'.findAll('123')", est: [2, 2], actual: 2 },
  { expr: "'abc 123 def 123'.findAll('123', 1)", est: [2, 2], actual: 2 },
];

test("Kubernetes' library costs, estimated and actual, through the pipeline", () => {
  const failures: string[] = [];
  for (const c of kubeCases) {
    const compiled = compile(c.expr);
    const est = estimateCost(compiled.checked, { sizes: twelve });
    if (est.min !== c.est[0] || est.max !== c.est[1]) failures.push(`${c.expr}: estimate [${est.min}, ${est.max}], kube [${c.est}]`);
    const { cost } = evalCost(compiled, {});
    if (cost !== c.actual) failures.push(`${c.expr}: cost ${cost}, kube ${c.actual}`);
  }
  assert.deepEqual(failures, []);
});

test("Kubernetes' authorizer costs, estimated and actual (library/cost_test.go TestAuthzLibrary)", () => {
  const allow = { name: 'allow', authorize: () => ({ decision: 'allow' as const, reason: '' }) };
  const authorizer = authorizerFor(new AuthzSession(allow), { name: 'alice', groups: [] });
  const resource = `authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')`;
  const table: [string, number][] = [
    [`authorizer.path('/healthz')`, 2],
    [resource, 6],
    [`authorizer.path('/healthz').check('get').allowed()`, 350003],
    [`${resource}.check('create').allowed()`, 350007],
  ];
  for (const [expr, want] of table) {
    const c = compile(expr, { authorizer: AUTHORIZER_TYPE }, [authzLibrary]);
    assert.deepEqual(estimateCost(c.checked), { min: want, max: want }, expr);
    assert.equal(evalCost(c, { authorizer }).cost, want, expr);
  }
});

// ---- What Kubernetes actually charges: programs built with cel.OptOptimize ----
//
// CRD validation rules and admission policies are planned with cel-go's
// OptOptimize (v0.12 decorators.go decOptimize): list and map literals of
// constants become constants (cost 0 instead of 10/30), `x in <constant
// list of primitives>` becomes a set lookup that is not a call (cost 0; an
// empty list folds the whole test to false), and a type conversion of a
// constant (int('1'), duration('1s')…) is folded (0 instead of 1).
// The first two rows are kube's own (schema/cel/validation_test.go
// TestMessageExpression: budget 50, 46 and 47 remaining).

const optimizedCases: { expr: string; want: number; error?: true }[] = [
  { expr: `"str1 " + self.str`, want: 4 },
  // fails (index out of range) after spending 3
  { expr: `"str1 " + ["a", "b", "c", "d"][4]`, want: 3, error: true },
  { expr: `2 in [1, 2, 3]`, want: 0 },
  { expr: `[1, 2, 3].all(x, true)`, want: 10 },
  { expr: `{"a": 1, "b": 2, "c": 3}`, want: 0 },
  { expr: `[[1], [2]]`, want: 0 },
  { expr: `self.str in ['a', 'b']`, want: 2 },
  { expr: `self.str in []`, want: 0 },
  { expr: `int('1') + 1`, want: 1 },
  { expr: `duration('1s') < duration('2s')`, want: 1 },
  { expr: `[self.str, 'a'].size()`, want: 13 },
  // the accumulator `[]` of map() is a constant too; 2 iterations of x 1, + 1, accu 1, [x] 10
  { expr: `[1, 2].map(x, x)`, want: 27 },
  { expr: `self.str in ['a', 2]`, want: 2 },
  // a list of lists is no set: the `in` call is charged (in_list over 2 elements)
  { expr: `[1] in [[1], [2]]`, want: 2 },
  { expr: `dyn(['a']) + [self.str]`, want: 13 },
];

/** Rows the interpreter's `optimize` option charges unlike kube (a ratchet:
 * a row outside this list that differs fails): add_string over a failed
 * index is not charged (see KNOWN_UNCHARGED_ERRORS). */
const KNOWN_UNOPTIMIZED = new Set<string>([`"str1 " + ["a", "b", "c", "d"][4]`]);

test('actual costs as Kubernetes charges them (OptOptimize)', () => {
  const self: ObjectType = { kind: 'object', name: 'self', fields: new Map([['str', { type: T.string, wireName: 'str' }]]) };
  const failures: string[] = [];
  const known: string[] = [];
  for (const c of optimizedCases) {
    const r = evalCostOrError(compile(c.expr, { self }), { self: { str: 'a string' } }, 'kubernetes', true);
    if ((c.error === true) !== (r.error !== undefined)) failures.push(`${c.expr}: error ${r.error ?? 'none'}`);
    if (r.cost === c.want) continue;
    (KNOWN_UNOPTIMIZED.has(c.expr) ? known : failures).push(`${c.expr}: cost ${r.cost}, kube ${c.want}`);
  }
  console.log(`OptOptimize costs: ${optimizedCases.length} cases, ${optimizedCases.length - known.length - failures.length} equal, ${known.length} known differences:\n  ${known.join('\n  ')}`);
  assert.deepEqual(failures, []);
});
