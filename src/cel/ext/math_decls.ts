// cel-go's math extension (ext/math.go, newest version). `math.greatest` and
// `math.least` are macros (the parser expands them) onto the internal
// functions `math.@max` and `math.@min` declared here.

import type { FunctionDecl, OverloadDecl } from '../decls.js';
import type { Type } from '../types.js';
import { T, listOf } from '../types.js';
import { fn, global } from '../checker/declare.js';

const { bool, int, uint, double, dyn } = T;

/** math.@min / math.@max: one number, two numbers (mixed kinds give dyn), a list. */
function extremum(name: string, tag: string): FunctionDecl {
  const kinds: [string, Type][] = [
    ['double', double],
    ['int', int],
    ['uint', uint],
  ];
  const overloads: OverloadDecl[] = [];
  for (const [k, t] of kinds) overloads.push(global(`math_${tag}_${k}`, [t], t));
  for (const [k, t] of kinds) overloads.push(global(`math_${tag}_${k}_${k}`, [t, t], t));
  const mixed: [string, Type, Type][] = [
    ['int_uint', int, uint],
    ['int_double', int, double],
    ['double_int', double, int],
    ['double_uint', double, uint],
    ['uint_int', uint, int],
    ['uint_double', uint, double],
  ];
  for (const [k, l, r] of mixed) overloads.push(global(`math_${tag}_${k}`, [l, r], dyn));
  for (const [k, t] of kinds) overloads.push(global(`math_${tag}_list_${k}`, [listOf(t)], t));
  return fn(name, ...overloads);
}

const doubleFn = (name: string, id: string, result: Type = double): FunctionDecl =>
  fn(name, global(id, [double], result));

const perKind = (name: string, base: string, result?: Type): FunctionDecl =>
  fn(
    name,
    global(`${base}_double`, [double], result ?? double),
    global(`${base}_int`, [int], result ?? int),
    global(`${base}_uint`, [uint], result ?? uint),
  );

const bitwise = (name: string, base: string): FunctionDecl =>
  fn(name, global(`${base}_int_int`, [int, int], int), global(`${base}_uint_uint`, [uint, uint], uint));

const shift = (name: string, base: string): FunctionDecl =>
  fn(name, global(`${base}_int_int`, [int, int], int), global(`${base}_uint_int`, [uint, int], uint));

export const mathFunctions: FunctionDecl[] = [
  extremum('math.@min', '@min'),
  extremum('math.@max', '@max'),
  doubleFn('math.ceil', 'math_ceil_double'),
  doubleFn('math.floor', 'math_floor_double'),
  doubleFn('math.round', 'math_round_double'),
  doubleFn('math.trunc', 'math_trunc_double'),
  doubleFn('math.isInf', 'math_isInf_double', bool),
  doubleFn('math.isNaN', 'math_isNaN_double', bool),
  doubleFn('math.isFinite', 'math_isFinite_double', bool),
  perKind('math.abs', 'math_abs'),
  perKind('math.sign', 'math_sign'),
  bitwise('math.bitAnd', 'math_bitAnd'),
  bitwise('math.bitOr', 'math_bitOr'),
  bitwise('math.bitXor', 'math_bitXor'),
  fn('math.bitNot', global('math_bitNot_int_int', [int], int), global('math_bitNot_uint_uint', [uint], uint)),
  shift('math.bitShiftLeft', 'math_bitShiftLeft'),
  shift('math.bitShiftRight', 'math_bitShiftRight'),
  perKind('math.sqrt', 'math_sqrt', double),
];
