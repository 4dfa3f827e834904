import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CelError, CostLimitExceeded, Env, formatType, UnknownLibraryError } from './index.js';
import type { FieldType, ObjectType } from './types.js';
import { T, listOf, mapOf } from './types.js';
import { CelMap, Double } from './values.js';

const selfType: ObjectType = {
  kind: 'object',
  name: 'Widget',
  fields: new Map<string, FieldType>([
    ['replicas', { type: T.int, wireName: 'replicas' }],
    ['max__dash__replicas', { type: T.int, wireName: 'max-replicas' }],
    ['name', { type: T.string, wireName: 'name' }],
    ['labels', { type: mapOf(T.string, T.string), wireName: 'labels' }],
    ['ports', { type: listOf(T.int), wireName: 'ports' }],
  ]),
};
const self = { replicas: 3, 'max-replicas': 5, name: 'web', labels: { app: 'web' }, ports: [80, 443] };

const env = new Env({
  variables: { self: selfType, oldSelf: selfType, n: T.int },
  libraries: ['strings', 'k8s.lists', 'k8s.regex', 'k8s.urls', 'optional'],
});

type Row = [expr: string, want: unknown, type: string];
const rows: Row[] = [
  ['self.replicas <= self.max__dash__replicas', true, 'bool'],
  ["self.name.startsWith('w') && self.labels['app'] == 'web'", true, 'bool'],
  ['self.ports.all(p, p > 0 && p < 65536)', true, 'bool'],
  ['self.ports.isSorted() && self.ports.sum() == 523', true, 'bool'],
  ["self.name.upperAscii() + '-' + string(self.replicas)", 'WEB-3', 'string'],
  ["'tickets ABC-1 and DEF-2'.findAll('[A-Z]+-[0-9]+')", ['ABC-1', 'DEF-2'], 'list(string)'],
  ["url('https://example.com:8443/x').getPort()", '8443', 'string'],
  ["self.labels[?'team'].orValue('none')", 'none', 'string'],
  ['self.?max__dash__replicas.orValue(0)', 5, 'int'],
  ['self.replicas == oldSelf.replicas', true, 'bool'],
  ['has(self.max__dash__replicas) && !has(self.labels.team)', true, 'bool'],
  ['n * 2', 84, 'int'],
  ['type(self.replicas) == int', true, 'bool'],
  ['self.ports.map(p, p * 2)', [160, 886], 'list(int)'],
  ['{"a": 1}', undefined, 'map(string, int)'],
];

for (const [expr, want, type] of rows) {
  test(`compile and eval: ${expr}`, () => {
    const r = env.compile(expr);
    assert.deepEqual(r.issues, []);
    assert.ok(r.ast && r.type);
    assert.equal(formatType(r.type), type);
    const v = env.program(r.ast).eval({ self, oldSelf: self, n: 42 });
    if (want !== undefined) assert.deepEqual(v, want);
    else assert.ok(v instanceof CelMap);
  });
}

test('compile reports cel-go issues and no AST', () => {
  const r = env.compile('self.replicas + "x"');
  assert.equal(r.ast, undefined);
  assert.equal(r.issues.length, 1);
  assert.match(r.issues[0]!.message, /found no matching overload for '_\+_' applied to '\(int, string\)'/);
  const u = env.compile('self.nope');
  assert.match(u.issues[0]!.message, /undefined field 'nope'/);
  const p = env.compile('self.replicas <');
  assert.ok(p.issues.length > 0);
  assert.equal(p.ast, undefined);
});

test('parseOnly programs dispatch at runtime', () => {
  const r = env.parseOnly('x + 1 == 2 && y.size() == 3');
  assert.ok(r.ast);
  const p = env.program(r.ast);
  assert.equal(p.eval({ x: 1, y: 'abc' }), true);
  assert.throws(() => p.eval({ x: 'a', y: 'abc' }), CelError);
});

test('runtime errors are thrown as CelError with cel-go wording', () => {
  const r = env.compile("self.labels['team']");
  assert.ok(r.ast);
  assert.throws(
    () => env.program(r.ast!).eval({ self }),
    (e: unknown) => e instanceof CelError && e.message === 'no such key: team',
  );
});

test('cost: tracked on request, limit halts with cel-go/Kubernetes text', () => {
  const r = env.compile('self.ports.all(p, p > 0)');
  assert.ok(r.ast);
  const untracked = env.program(r.ast);
  untracked.eval({ self });
  assert.equal(untracked.actualCost, 0);
  const tracked = env.program(r.ast, { trackCost: true });
  const res = tracked.evalWithCost({ self });
  assert.equal(res.value, true);
  // self (1) + .ports (1) + 2 iterations × (condition 2 + accumulator 1 + p 1 + `>` 1) + result 1
  assert.equal(res.cost, 2 + 2 * 5 + 1);
  const limited = env.program(r.ast, { costLimit: 5 });
  assert.throws(
    () => limited.eval({ self }),
    (e: unknown) => e instanceof CostLimitExceeded && e.message === 'operation cancelled: actual cost limit exceeded',
  );
});

test('activation as a resolver function; unbound variables are errors', () => {
  const r = env.compile('n + 1');
  assert.ok(r.ast);
  const p = env.program(r.ast);
  assert.equal(p.eval((name) => (name === 'n' ? 1 : undefined)), 2);
  assert.throws(() => p.eval({}), /no such attribute\(s\): n/);
});

test('containers qualify names', () => {
  const e = new Env({ container: 'a.b', variables: { 'a.b.c': T.int } });
  const r = e.compile('c + 1');
  assert.deepEqual(r.issues, []);
  assert.equal(e.program(r.ast!).eval({ 'a.b.c': 1 }), 2);
});

test('doubles from data and literals', () => {
  const e = new Env({ variables: { d: T.double } });
  const r = e.compile('d * 2.0');
  assert.deepEqual(e.program(r.ast!).eval({ d: 0.25 }), new Double(0.5));
});

test('unknown library names are rejected', () => {
  assert.throws(() => new Env({ libraries: ['nope'] }), UnknownLibraryError);
});

test("runtime cost of literal-only expressions (folded when planned) as cel-go's runtime cost table", () => {
  const e = new Env({ costModel: 'cel' });
  const rows: [string, number][] = [
    ['"Hello World!"', 0],
    ['1 + 1', 1],
    ['1 < 2', 1],
    ['size("123")', 1],
    ["'123'.matches('[0-9]')", 2],
    ["'12345678901234567890' == '123456789012345678901234567890'", 2],
    ['string(1)', 1],
    ['true ? 1 : 2', 0],
    ['false ? false : 1 > 3', 1],
    ['2 in [1, 2, 3]', 13],
    ['[1, 2, 3]', 10],
    ['{"a": 1, "b": 2, "c": 3}', 30],
    ['[1, 2, 3].all(x, true)', 20],
    ['false || false', 0],
    ['1 + 2 + 3 == 6', 3],
  ];
  for (const [expr, want] of rows) {
    const r = e.compile(expr);
    assert.ok(r.ast, expr);
    const p = e.program(r.ast, { trackCost: true });
    p.eval({});
    assert.equal(p.actualCost, want, expr);
  }
  // A literal call that fails is not folded: the error comes at evaluation.
  const bad = e.compile('1 / 0 == 1');
  assert.throws(() => e.program(bad.ast!).eval({}), /division by zero/);
});

test('Kubernetes set and map lists: order-free ==, union and merge on +', () => {
  const setType = { ...listOf(T.string), k8sList: { listType: 'set' as const } };
  const mapType = { ...listOf(mapOf(T.string, T.dyn)), k8sList: { listType: 'map' as const, mapKeys: ['name'] } };
  const e = new Env({ variables: { s: setType, t: setType, m: mapType, n: mapType, plain: listOf(T.string) } });
  const data = {
    s: ['a', 'b'],
    t: ['b', 'a'],
    plain: ['b', 'a'],
    m: [{ name: 'x', v: 1 }, { name: 'y', v: 2 }],
    n: [{ name: 'y', v: 3 }, { name: 'z', v: 4 }],
  };
  const rows: [string, unknown][] = [
    ['s == t', true],
    ['s != t', false],
    ["s + ['c', 'a']", ['a', 'b', 'c']],
    ['plain == s', false],
    ['m == [n[0], n[1]]', false],
    ['m + n', [{ name: 'x', v: 1 }, { name: 'y', v: 3 }, { name: 'z', v: 4 }]],
  ];
  for (const [expr, want] of rows) {
    const r = e.compile(expr);
    assert.deepEqual(r.issues, [], expr);
    assert.deepEqual(e.program(r.ast!).eval(data), want, expr);
  }
});

test('cel.block slots bind in order (with the block option only)', () => {
  const e = new Env({ block: true });
  const r = e.compile('cel.block([1, cel.index(0) + 1, [cel.index(1)].map(cel.iterVar(0, 0), cel.iterVar(0, 0) * 3)], cel.index(2))');
  assert.deepEqual(r.issues, []);
  assert.deepEqual(e.program(r.ast!).eval({}), [6]);
  assert.ok(new Env().compile('cel.block([1], cel.index(0))').issues.length > 0);
});
