import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr } from '../ast.js';
import type { OverloadImpl } from '../decls.js';
import type { FieldType, ObjectType, Type } from '../types.js';
import { T, listOf, mapOf } from '../types.js';
import { buildCheckEnv, check } from '../checker/index.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { addInt } from '../runtime/arith.js';
import { celLess } from '../runtime/compare.js';
import { celEquals } from '../runtime/equality.js';
import { sizeString } from '../runtime/strings.js';
import { CelError, CelMap, Double, Optional, TypeValue, Uint } from '../values.js';
import { callCostsOf } from './cost.js';
import { plan } from './planner.js';
import { Program } from './program.js';

// A few implementations from the runtime modules: enough to exercise the
// planner (the full library is stdlib/index.ts's business).
const impls: OverloadImpl[] = [
  { id: 'add_int64', binary: (a, b) => addInt(a as number, b as number) },
  { id: 'add_string', binary: (a, b) => (a as string) + (b as string) },
  { id: 'add_list', binary: (a, b) => [...(a as unknown[]), ...(b as unknown[])] },
  { id: 'less_int64', binary: celLess },
  { id: 'greater_int64', binary: (a, b) => celLess(b, a) },
  { id: 'equals', binary: celEquals },
  { id: 'not_equals', binary: (a, b) => !celEquals(a, b) },
  { id: 'logical_not', unary: (a) => !a },
  { id: 'size_string', unary: (a) => sizeString(a as string) },
  { id: 'size_list', unary: (a) => (a as unknown[]).length },
  { id: 'string_size', unary: (a) => sizeString(a as string) },
  { id: 'starts_with_string', binary: (a, b) => (a as string).startsWith(b as string) },
  { id: 'divide_int64', binary: (a, b) => {
    if (b === 0) throw new CelError('division by zero');
    return Math.trunc((a as number) / (b as number));
  } },
];
const implMap = new Map(impls.map((i) => [i.id, i]));

const deployment: ObjectType = {
  kind: 'object',
  name: 'Deployment',
  fields: new Map<string, FieldType>([
    ['replicas', { type: T.int, wireName: 'replicas' }],
    ['max__dash__replicas', { type: T.int, wireName: 'max-replicas' }],
    ['ratio', { type: T.double, wireName: 'ratio', convert: (v: unknown) => new Double(v as number) }],
    ['labels', { type: mapOf(T.string, T.string), wireName: 'labels' }],
    ['names', { type: listOf(T.string), wireName: 'names' }],
  ]),
};
const variables = new Map<string, Type>([
  ['self', deployment],
  ['x', T.int],
  ['d', T.dyn],
  ['m', mapOf(T.string, T.dyn)],
  ['l', listOf(T.int)],
]);
const checkEnv = buildCheckEnv({
  libraries: [{ name: 'std', functions: stdlibFunctions, impls: [], variables: stdlibTypeIdents }],
  variables,
});
const planEnv = { functions: checkEnv.functions, impls: implMap, variables: checkEnv.variables };

let nextId = 1;
const id = (): number => nextId++;
const int = (v: number): Expr => ({ kind: 'const', id: id(), value: { type: 'int', value: BigInt(v) } });
const uint = (v: number): Expr => ({ kind: 'const', id: id(), value: { type: 'uint', value: BigInt(v) } });
const str = (v: string): Expr => ({ kind: 'const', id: id(), value: { type: 'string', value: v } });
const bool = (v: boolean): Expr => ({ kind: 'const', id: id(), value: { type: 'bool', value: v } });
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
const fold = (range: Expr, v: string, init: Expr, cond: Expr, step: Expr, result: Expr = ident('@result')): Expr => ({
  kind: 'comprehension',
  id: id(),
  iterVar: v,
  iterRange: range,
  accuVar: '@result',
  accuInit: init,
  loopCondition: cond,
  loopStep: step,
  result,
});
const all = (r: Expr, v: string, p: Expr): Expr =>
  fold(r, v, bool(true), call('@not_strictly_false', ident('@result')), call('_&&_', ident('@result'), p));
const exists = (r: Expr, v: string, p: Expr): Expr =>
  fold(r, v, bool(false), call('@not_strictly_false', call('!_', ident('@result'))), call('_||_', ident('@result'), p));
const existsOne = (r: Expr, v: string, p: Expr): Expr =>
  fold(
    r,
    v,
    int(0),
    bool(true),
    call('_?_:_', p, call('_+_', ident('@result'), int(1)), ident('@result')),
    call('_==_', ident('@result'), int(1)),
  );
const mapM = (r: Expr, v: string, f: Expr): Expr =>
  fold(r, v, list(), bool(true), call('_+_', ident('@result'), list(f)));
const filter = (r: Expr, v: string, p: Expr): Expr =>
  fold(r, v, list(), bool(true), call('_?_:_', p, call('_+_', ident('@result'), list(ident(v))), ident('@result')));

const self = { replicas: 3, 'max-replicas': 5, ratio: 0.5, labels: { app: 'web', toString: 'x' }, names: ['a', 'bb'] };
const vars = { self, x: 7, d: 'text', m: { a: 1, b: 'two' }, l: [1, 2, 3] };

function compile(e: Expr, checked: boolean, costLimit?: number): Program {
  if (!checked) return new Program(plan({ expr: e }, planEnv, { cost: callCostsOf('cel') }), costLimit);
  const r = check({ expr: e, sourceInfo: { text: '', lineOffsets: [0], positions: new Map(), macroCalls: new Map() } }, checkEnv);
  assert.ok(r.checked, JSON.stringify(r.issues));
  const c = r.checked;
  return new Program(plan({ expr: c.expr, types: c.types, refs: c.refs }, planEnv, { cost: callCostsOf('cel') }), costLimit);
}

type Row = [name: string, expr: Expr, want: unknown, cost?: number, checkedOnly?: boolean];
const rows: Row[] = [
  ['int constant', int(3), 3],
  ['uint constant', uint(4), new Uint(4)],
  ['variable', ident('x'), 7, 1],
  ['object field', sel(ident('self'), 'replicas'), 3, 2],
  ['escaped field reads the wire name', sel(ident('self'), 'max__dash__replicas'), 5, 2, true],
  ['field conversion', sel(ident('self'), 'ratio'), new Double(0.5), 2, true],
  ['map index by string', call('_[_]', sel(ident('self'), 'labels'), str('app')), 'web', 3],
  ['inherited name is a key like any other', call('_[_]', sel(ident('self'), 'labels'), str('toString')), 'x', 3],
  ['list index', call('_[_]', ident('l'), int(1)), 2, 2],
  ['add', call('_+_', ident('x'), int(1)), 8, 2],
  ['dyn dispatch', call('size', ident('d')), 4, 2],
  ['has present', sel(sel(ident('self'), 'labels'), 'app', true), true, 2],
  ['has absent', sel(sel(ident('self'), 'labels'), 'nope', true), false, 2],
  ['has inherited name', sel(ident('m'), 'constructor', true), false, 1],
  // the failed index is charged like a successful one (cel-go: the error is its value)
  ['and short-circuits an error', call('_&&_', call('_[_]', ident('m'), str('zz')), bool(false)), false, 2],
  ['or absorbs an error', call('_||_', call('_==_', call('_/_', ident('x'), int(0)), int(1)), bool(true)), true],
  ['ternary', call('_?_:_', call('_<_', ident('x'), int(10)), str('small'), str('big')), 'small', 2],
  ['in list', call('@in', int(2), ident('l')), true, 4],
  ['in map', call('@in', str('b'), ident('m')), true, 2],
  ['all', all(ident('l'), 'e', call('_<_', ident('e'), int(10))), true],
  ['all false', all(ident('l'), 'e', call('_<_', ident('e'), int(2))), false],
  ['exists', exists(ident('l'), 'e', call('_==_', ident('e'), int(3))), true],
  ['exists over map keys', exists(ident('m'), 'k', call('_==_', ident('k'), str('b'))), true],
  ['exists_one', existsOne(ident('l'), 'e', call('_==_', ident('e'), int(2))), true],
  ['exists_one with two matches', existsOne(ident('l'), 'e', call('_>_', ident('e'), int(1))), false],
  ['map macro', mapM(ident('l'), 'e', call('_+_', ident('e'), int(1))), [2, 3, 4]],
  ['filter', filter(ident('l'), 'e', call('_>_', ident('e'), int(1))), [2, 3]],
  ['nested shadowing', all(ident('l'), 'x', all(list(ident('x')), 'y', call('_==_', ident('x'), ident('y')))), true],
  ['list literal', list(int(1), str('a')), [1, 'a'], 10],
  ['type identifier', ident('int'), new TypeValue('int'), 0],
];

for (const checked of [true, false]) {
  for (const [name, e, want, cost, checkedOnly] of rows) {
    if (checkedOnly && !checked) continue;
    test(`${checked ? 'checked' : 'unchecked'}: ${name}`, () => {
      const p = compile(e, checked);
      const v = p.eval(vars);
      if (want instanceof TypeValue) assert.equal((v as TypeValue).name, want.name);
      else assert.deepEqual(v, want);
      if (cost !== undefined && checked) assert.equal(p.actualCost, cost);
    });
  }
}

test('map literal builds a CelMap; repeated keys fail', () => {
  const p = compile(map([str('a'), int(1)], [int(2), str('b')]), true);
  const m = p.eval({}) as CelMap;
  assert.ok(m instanceof CelMap);
  assert.equal(m.size, 2);
  assert.equal(p.actualCost, 30);
  const dup = compile(map([str('a'), int(1)], [str('a'), int(2)]), false);
  assert.throws(() => dup.eval({}), CelError);
});

test('errors: missing key, index out of bounds, missing field, unbound variable', () => {
  const cases: [Expr, string][] = [
    [call('_[_]', ident('m'), str('zz')), 'no such key: zz'],
    [call('_[_]', ident('l'), int(3)), 'index out of bounds: 3'],
    [sel(sel(ident('self'), 'labels'), 'zz'), 'no such key: zz'],
  ];
  for (const [e, msg] of cases) {
    const p = compile(e, true);
    assert.throws(() => p.eval(vars), (err: unknown) => err instanceof CelError && err.message === msg);
  }
  const p = compile(ident('x'), true);
  assert.throws(() => p.eval({}), (err: unknown) => err instanceof CelError && err.message === 'no such attribute(s): x');
});

test('&& and || are commutative over errors; the first error wins when no operand decides', () => {
  const err = call('_/_', ident('x'), int(0));
  assert.equal(compile(call('_&&_', err, bool(false)), false).eval(vars), false);
  assert.equal(compile(call('_||_', bool(true), err), false).eval(vars), true);
  assert.throws(() => compile(call('_&&_', err, bool(true)), false).eval(vars), /division by zero/);
  assert.throws(() => compile(call('_||_', bool(false), err), false).eval(vars), /division by zero/);
  // A non-bool operand is an error unless the other operand decides.
  assert.throws(() => compile(call('_&&_', ident('d'), bool(true)), false).eval(vars), /no such overload/);
  assert.equal(compile(call('_&&_', ident('d'), bool(false)), false).eval(vars), false);
});

test('exists absorbs an error when another element decides', () => {
  // [0, 1].exists(e, 10 / e == 10): 10/0 errors, 10/1 == 10 is true.
  const e = exists(list(int(0), int(1)), 'e', call('_==_', call('_/_', int(10), ident('e')), int(10)));
  assert.equal(compile(e, true).eval({}), true);
  const none = exists(list(int(0), int(2)), 'e', call('_==_', call('_/_', int(10), ident('e')), int(10)));
  assert.throws(() => compile(none, true).eval({}), /division by zero/);
});

test('quantifier costs match the fold cel-go evaluates', () => {
  // all over [1, 2, 3] with a false at the second element: two iterations
  // (3 each), the stopping condition (2), the result (1), the literal (10),
  // and the predicate's ident + call per iteration (2 each).
  const p = compile(all(list(int(1), int(2), int(3)), 'e', call('_<_', ident('e'), int(2))), true);
  assert.equal(p.eval({}), false);
  assert.equal(p.actualCost, 10 + 2 * 3 + 2 * 2 + 2 + 1);
  // exists over [1, 2]: no match: 2 iterations of (3 + 1) + 2 predicate costs each + result.
  const q = compile(exists(list(int(1), int(2)), 'e', call('_==_', ident('e'), int(5))), true);
  assert.equal(q.eval({}), false);
  assert.equal(q.actualCost, 10 + 2 * 4 + 2 * 2 + 1);
  // exists_one over [1, 2]: one match: (1 + add 1) + 1, predicates 2 each, result 1 + equals 1.
  const r = compile(existsOne(list(int(1), int(2)), 'e', call('_==_', ident('e'), int(2))), true);
  assert.equal(r.eval({}), true);
  assert.equal(r.actualCost, 10 + 1 + 2 + 2 * 2 + 2);
});

test('exists_one: an error in any element is the result', () => {
  const e = existsOne(list(int(0), int(1)), 'e', call('_==_', call('_/_', int(10), ident('e')), int(10)));
  assert.throws(() => compile(e, true).eval({}), /division by zero/);
});

test('runtime cost as cel-go counts it, and the limit halts evaluation', () => {
  // [1, 2, 3].all(x, true) = 20 in cel-go's runtime cost tests.
  const p = compile(all(list(int(1), int(2), int(3)), 'e', bool(true)), true);
  assert.equal(p.eval({}), true);
  assert.equal(p.actualCost, 20);
  // 2 in [1, 2, 3] = 13
  const q = compile(call('@in', int(2), list(int(1), int(2), int(3))), true);
  q.eval({});
  assert.equal(q.actualCost, 13);
  const limited = compile(all(list(int(1), int(2), int(3)), 'e', bool(true)), true, 15);
  assert.throws(
    () => limited.eval({}),
    (e: unknown) => e instanceof CelError && e.message === 'operation cancelled: actual cost limit exceeded',
  );
  // The cancellation is not absorbed by ||.
  const absorbed = compile(call('_||_', all(list(int(1), int(2), int(3)), 'e', bool(true)), bool(true)), true, 15);
  assert.throws(() => absorbed.eval({}), /actual cost limit exceeded/);
});

test('unchecked: qualified names resolve the longest bound variable, in the container', () => {
  const e = sel(sel(ident('a'), 'b'), 'c');
  const p = new Program(plan({ expr: e }, { ...planEnv, container: 'ns' }));
  assert.equal(p.eval({ 'a.b.c': 1 }), 1);
  assert.equal(p.eval({ 'a.b': { c: 2 } }), 2);
  assert.equal(p.eval({ a: { b: { c: 3 } } }), 3);
  assert.equal(p.eval({ 'ns.a.b': { c: 4 }, a: { b: { c: 3 } } }), 4);
  assert.throws(() => p.eval({}), /no such attribute/);
});

test('unchecked: a list index may be a uint or an integral double', () => {
  assert.equal(compile(call('_[_]', ident('l'), uint(2)), false).eval(vars), 3);
  const dbl: Expr = { kind: 'const', id: id(), value: { type: 'double', value: 1 } };
  assert.equal(compile(call('_[_]', ident('l'), dbl), false).eval(vars), 2);
});

test('activation as a resolver function', () => {
  const p = compile(call('_+_', ident('x'), int(1)), true);
  assert.equal(p.eval((n) => (n === 'x' ? 41 : undefined)), 42);
});

test('optional selection and indexing', () => {
  const optSel = (o: Expr, f: string): Expr => ({ kind: 'select', id: id(), operand: o, field: f, testOnly: false, optional: true });
  const p = new Program(plan({ expr: optSel(ident('m'), 'a') }, planEnv));
  assert.deepEqual(p.eval(vars), Optional.of(1));
  const q = new Program(plan({ expr: optSel(ident('m'), 'zz') }, planEnv));
  assert.equal(q.eval(vars), Optional.none);
  const r = new Program(plan({ expr: call('_[?_]', ident('l'), int(9)) }, planEnv));
  assert.equal(r.eval(vars), Optional.none);
  // Selection on an optional value stays optional.
  const s = new Program(plan({ expr: sel(optSel(ident('self'), 'labels'), 'app') }, planEnv));
  assert.deepEqual(s.eval(vars), Optional.of('web'));
});

test('a comprehension range that is not a list or map is an error', () => {
  const p = compile(all(ident('d'), 'e', bool(true)), false);
  assert.throws(() => p.eval(vars), /cannot be range of a comprehension/);
});

test('optimize: folded literals are shared constants, yet every evaluation sees fresh accumulators', () => {
  const table: [name: string, e: Expr, want: unknown, cost: number][] = [
    ['map over a literal', mapM(list(int(1), int(2)), 'e', ident('e')), [1, 2], 27],
    // per element: e and > (2); e = 2 appends (accumulator 1, [e] 11, + 1); the ?: branch @result is free; the result 1
    ['filter over a literal', filter(list(int(1), int(2)), 'e', call('_>_', ident('e'), int(1))), [2], 18],
    ['nested literal', list(list(int(1)), list()), [[1], []], 0],
    ['set membership', call('@in', ident('x'), list(int(7), int(8))), true, 1],
    ['empty set membership skips its operand', call('@in', ident('nope'), list()), false, 0],
  ];
  for (const [name, e, want, cost] of table) {
    const p = new Program(plan({ expr: e }, planEnv, { cost: callCostsOf('cel'), optimize: true }));
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(p.eval(vars), want, name);
      assert.equal(p.actualCost, cost, name);
    }
  }
});
