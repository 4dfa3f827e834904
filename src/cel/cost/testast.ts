// Test helpers for the cost module: hand-built ASTs as cel-go's parser
// produces them after macro expansion, a stand-in for the Kubernetes
// libraries' declarations (kube's overload ids), and checking through the
// real checker. Used by the *.test.ts files beside it only.

import assert from 'node:assert/strict';
import type { Expr, ParsedExpr } from '../ast.js';
import type { FunctionDecl, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { T, listOf, opaque, typeParam } from '../types.js';
import { stdlibFunctions, stdlibTypeIdents } from '../stdlib/decls.js';
import { stringsFunctions } from '../ext/strings_decls.js';
import { buildCheckEnv, check } from '../checker/index.js';
import type { CheckedForCost } from './estimate.js';

let nextId = 1;
export const id = (): number => nextId++;
export const int = (v: number): Expr => ({ kind: 'const', id: id(), value: { type: 'int', value: BigInt(v) } });
export const bool = (v: boolean): Expr => ({ kind: 'const', id: id(), value: { type: 'bool', value: v } });
export const str = (v: string): Expr => ({ kind: 'const', id: id(), value: { type: 'string', value: v } });
export const ident = (name: string): Expr => ({ kind: 'ident', id: id(), name });
export const sel = (operand: Expr, field: string, testOnly = false): Expr => ({ kind: 'select', id: id(), operand, field, testOnly });
export const call = (fn: string, ...args: Expr[]): Expr => ({ kind: 'call', id: id(), fn, args });
export const mcall = (target: Expr, fn: string, ...args: Expr[]): Expr => ({ kind: 'call', id: id(), fn, target, args });
export const list = (...elements: Expr[]): Expr => ({ kind: 'list', id: id(), elements, optionalIndices: [] });
export const map = (...kv: [Expr, Expr][]): Expr => ({
  kind: 'map',
  id: id(),
  entries: kv.map(([key, value]) => ({ id: id(), key, value, optional: false })),
});
export const bin = (op: string) => (a: Expr, b: Expr): Expr => call(op, a, b);
export const [eq, ne, lt, le, gt, ge, plus, minus, times, div, mod, and, or, index] = [
  '_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '_+_', '_-_', '_*_', '_/_', '_%_', '_&&_', '_||_', '_[_]',
].map(bin);
export const cond = (c: Expr, a: Expr, b: Expr): Expr => call('_?_:_', c, a, b);
export const has = (operand: Expr, field: string): Expr => sel(operand, field, true);
/** range.all(v, pred) as cel-go's macro expands it. */
export const all = (range: Expr, v: string, pred: Expr): Expr => ({
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

export const A = typeParam('A');
export const member = (oid: string, params: Type[], result: Type, typeParams?: string[]): OverloadDecl => ({ id: oid, params, result, receiver: true, ...(typeParams ? { typeParams } : {}) });
export const glob = (id: string, params: Type[], result: Type): OverloadDecl => ({ id, params, result, receiver: false });
export const fnDecl = (name: string, ...overloads: OverloadDecl[]): FunctionDecl => ({ name, overloads });
export const URL = opaque('kubernetes.URL');
export const Authorizer = opaque('kubernetes.authorization.Authorizer');
export const PathCheck = opaque('kubernetes.authorization.PathCheck');
export const GroupCheck = opaque('kubernetes.authorization.GroupCheck');
export const ResourceCheck = opaque('kubernetes.authorization.ResourceCheck');
export const Decision = opaque('kubernetes.authorization.Decision');
export const elemKinds: [string, Type][] = [['int', T.int], ['uint', T.uint], ['double', T.double], ['bool', T.bool], ['string', T.string], ['bytes', T.bytes], ['duration', T.duration], ['timestamp', T.timestamp]];
// A minimal stand-in for the Kubernetes libraries' declarations (kube's ids).
export const kubeDecls: FunctionDecl[] = [
  fnDecl('isSorted', ...elemKinds.map(([n, t]) => member(`list_${n}_is_sorted_bool`, [listOf(t)], T.bool))),
  fnDecl('sum', ...elemKinds.filter(([n]) => ['int', 'uint', 'double', 'duration'].includes(n)).map(([n, t]) => member(`list_${n}_sum_${n}`, [listOf(t)], t))),
  fnDecl('max', ...elemKinds.map(([n, t]) => member(`list_${n}_max_${n}`, [listOf(t)], t))),
  fnDecl('min', ...elemKinds.map(([n, t]) => member(`list_${n}_min_${n}`, [listOf(t)], t))),
  fnDecl('indexOf', member('list_a_index_of_int', [listOf(A), A], T.int, ['A'])),
  fnDecl('lastIndexOf', member('list_a_last_index_of_int', [listOf(A), A], T.int, ['A'])),
  fnDecl('url', glob('string_to_url', [T.string], URL)),
  ...['getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery'].map((f) => fnDecl(f, member(`url_${f}`, [URL], T.string))),
  fnDecl('find', member('string_find_string', [T.string, T.string], T.string)),
  fnDecl('findAll', member('string_find_all_string', [T.string, T.string], listOf(T.string)), member('string_find_all_string_int', [T.string, T.string, T.int], listOf(T.string))),
  fnDecl('path', member('authorizer_path', [Authorizer, T.string], PathCheck)),
  fnDecl('group', member('authorizer_group', [Authorizer, T.string], GroupCheck)),
  fnDecl('resource', member('groupcheck_resource', [GroupCheck, T.string], ResourceCheck)),
  fnDecl('subresource', member('resourcecheck_subresource', [ResourceCheck, T.string], ResourceCheck)),
  fnDecl('namespace', member('resourcecheck_namespace', [ResourceCheck, T.string], ResourceCheck)),
  fnDecl('name', member('resourcecheck_name', [ResourceCheck, T.string], ResourceCheck)),
  fnDecl('check', member('pathcheck_check', [PathCheck, T.string], Decision), member('resourcecheck_check', [ResourceCheck, T.string], Decision)),
  fnDecl('allowed', member('decision_allowed', [Decision], T.bool)),
  fnDecl('reason', member('decision_reason', [Decision], T.string)),
];


/** Checks expr against the standard library, the strings extension and
 * the Kubernetes stand-in declarations, with the given variables. */
export function checked(expr: Expr, vars: Record<string, Type> = {}): CheckedForCost {
  const env = buildCheckEnv({
    libraries: [{ name: 'test', functions: [...stdlibFunctions, ...stringsFunctions, ...kubeDecls], impls: [], variables: stdlibTypeIdents }],
    variables: vars,
  });
  const parsed: ParsedExpr = { expr, sourceInfo: { text: '', lineOffsets: [0], positions: new Map(), macroCalls: new Map() } };
  const r = check(parsed, env);
  assert.ok(r.checked, `check failed: ${r.issues.map((i) => i.message).join('; ')}`);
  return r.checked;
}
