// Runtime implementations of cel-go's math extension (ext/math.go), keyed by
// its overload ids. `math.greatest`/`math.least` are macros over
// `math.@max`/`math.@min`: one numeric, two numerics, or a list.

import type { OverloadImpl } from '../decls.js';
import { binaries, unaries, unary } from '../runtime/impl.js';
import * as M from '../runtime/math.js';

const SCALARS = ['double', 'int', 'uint'];
const PAIRS = ['double_double', 'int_int', 'uint_uint', 'int_uint', 'int_double', 'double_int', 'double_uint', 'uint_int', 'uint_double'];
const LISTS = ['list_double', 'list_int', 'list_uint'];

const identity = (v: unknown): unknown => v;

export const mathImpls: OverloadImpl[] = [
  ...unaries(SCALARS.map((s) => `math_@max_${s}`), identity),
  ...unaries(SCALARS.map((s) => `math_@min_${s}`), identity),
  ...binaries(PAIRS.map((s) => `math_@max_${s}`), (a: unknown, b: unknown) => M.greatest([a, b])),
  ...binaries(PAIRS.map((s) => `math_@min_${s}`), (a: unknown, b: unknown) => M.least([a, b])),
  ...unaries(LISTS.map((s) => `math_@max_${s}`), (l: readonly unknown[]) => M.greatest([l])),
  ...unaries(LISTS.map((s) => `math_@min_${s}`), (l: readonly unknown[]) => M.least([l])),
  unary('math_ceil_double', M.ceil),
  unary('math_floor_double', M.floor),
  unary('math_round_double', M.round),
  unary('math_trunc_double', M.trunc),
  unary('math_isInf_double', M.isInf),
  unary('math_isNaN_double', M.isNaN),
  unary('math_isFinite_double', M.isFinite),
  unary('math_abs_double', M.absDouble),
  unary('math_abs_int', M.absInt),
  unary('math_abs_uint', identity),
  unary('math_sign_double', M.signDouble),
  unary('math_sign_int', M.signInt),
  unary('math_sign_uint', M.signUint),
  unary('math_sqrt_double', M.sqrt),
  unary('math_sqrt_int', M.sqrt),
  unary('math_sqrt_uint', M.sqrt),
  ...binaries(['math_bitAnd_int_int'], M.bitAndInt),
  ...binaries(['math_bitAnd_uint_uint'], M.bitAndUint),
  ...binaries(['math_bitOr_int_int'], M.bitOrInt),
  ...binaries(['math_bitOr_uint_uint'], M.bitOrUint),
  ...binaries(['math_bitXor_int_int'], M.bitXorInt),
  ...binaries(['math_bitXor_uint_uint'], M.bitXorUint),
  unary('math_bitNot_int_int', M.bitNotInt),
  unary('math_bitNot_uint_uint', M.bitNotUint),
  ...binaries(['math_bitShiftLeft_int_int'], M.bitShiftLeftInt),
  ...binaries(['math_bitShiftLeft_uint_int'], M.bitShiftLeftUint),
  ...binaries(['math_bitShiftRight_int_int'], M.bitShiftRightInt),
  ...binaries(['math_bitShiftRight_uint_int'], M.bitShiftRightUint),
];
