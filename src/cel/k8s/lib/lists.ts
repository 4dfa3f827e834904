// Kubernetes' lists library (apiserver/pkg/cel/library/lists.go):
//   <list>.isSorted()                  int uint double bool duration timestamp string bytes
//   <list>.sum()                       int uint double duration (0 for an empty list)
//   <list>.min() / <list>.max()        the comparable types; `min called on empty list`
//   <list>.indexOf(x) / lastIndexOf(x) any element type; -1 when absent
// Overload ids as kube's: list_<type>_is_sorted_bool, list_<type>_sum_<type>,
// list_<type>_min_<type>, list_<type>_max_<type>, list_a_index_of_int,
// list_a_last_index_of_int.

import type { FunctionDecl, Library, OverloadImpl } from '../../decls.js';
import type { Type } from '../../types.js';
import { T, listOf, typeParam } from '../../types.js';
import { CelError, Double, Duration, Uint } from '../../values.js';
import { celCompare } from '../../runtime/compare.js';
import { celEquals } from '../../runtime/equality.js';
import { addDouble, addInt, addUint } from '../../runtime/arith.js';
import { addDurations } from '../../runtime/time.js';
import { errNoSuchOverload } from '../../runtime/errors.js';

const A = typeParam('A');

const COMPARABLE: [string, Type][] = [
  ['int', T.int], ['uint', T.uint], ['double', T.double], ['bool', T.bool],
  ['duration', T.duration], ['timestamp', T.timestamp], ['string', T.string], ['bytes', T.bytes],
];
const SUMMABLE: [string, Type][] = [['int', T.int], ['uint', T.uint], ['double', T.double], ['duration', T.duration]];

const ZERO: Record<string, unknown> = { int: 0, uint: new Uint(0), double: new Double(0), duration: new Duration(0n) };

const asList = (v: unknown): readonly unknown[] => {
  if (!Array.isArray(v)) throw errNoSuchOverload;
  return v;
};

function isSorted(v: unknown): boolean {
  const l = asList(v);
  for (let i = 1; i < l.length; i++) if (celCompare(l[i - 1], l[i]) > 0) return false;
  return true;
}

/** `+` of two summable values of one type (cel-go's Adder of the accumulator). */
function add(acc: unknown, next: unknown): unknown {
  if (acc instanceof Duration) {
    if (next instanceof Duration) return addDurations(acc, next);
  } else if (acc instanceof Uint) {
    if (next instanceof Uint) return addUint(acc, next);
  } else if (acc instanceof Double || (typeof acc === 'number' && !Number.isInteger(acc))) {
    if (next instanceof Double || (typeof next === 'number' && !Number.isInteger(next))) return addDouble(acc, next);
  } else if (typeof acc === 'number' || typeof acc === 'bigint') {
    if ((typeof next === 'number' && Number.isInteger(next)) || typeof next === 'bigint') return addInt(acc, next);
  }
  throw errNoSuchOverload;
}

/** The zero a sum over this element starts from (cel-go dispatches a dyn
 * list's sum by its first element, so the element decides). */
function zeroLike(e: unknown): unknown {
  if (e instanceof Duration) return ZERO['duration'];
  if (e instanceof Uint) return ZERO['uint'];
  if (e instanceof Double || (typeof e === 'number' && !Number.isInteger(e))) return ZERO['double'];
  return ZERO['int'];
}

/** sum(): the overload's zero for an empty list (an int 0 for `[].sum()`),
 * else the zero of the elements' type plus every element. */
const sum = (zero: unknown) => (v: unknown): unknown => {
  const l = asList(v);
  if (l.length === 0) return zero;
  let acc = zeroLike(l[0]);
  for (const e of l) acc = add(acc, e);
  return acc;
};

/** min/max: the first element the others do not beat (kube keeps the earlier of equals). */
const extreme = (name: string, replaceWhen: number) => (v: unknown): unknown => {
  const l = asList(v);
  if (l.length === 0) throw new CelError(`${name} called on empty list`);
  let best = l[0];
  for (let i = 1; i < l.length; i++) if (celCompare(best, l[i]) === replaceWhen) best = l[i];
  return best;
};
const min = extreme('min', 1);
const max = extreme('max', -1);

function indexOf(list: unknown, x: unknown): number {
  const l = asList(list);
  for (let i = 0; i < l.length; i++) if (celEquals(l[i], x)) return i;
  return -1;
}

function lastIndexOf(list: unknown, x: unknown): number {
  const l = asList(list);
  for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], x)) return i;
  return -1;
}

const functions: FunctionDecl[] = [
  {
    name: 'isSorted',
    overloads: COMPARABLE.map(([n, t]) => ({ id: `list_${n}_is_sorted_bool`, params: [listOf(t)], result: T.bool, receiver: true })),
  },
  {
    name: 'sum',
    overloads: SUMMABLE.map(([n, t]) => ({ id: `list_${n}_sum_${n}`, params: [listOf(t)], result: t, receiver: true })),
  },
  { name: 'max', overloads: COMPARABLE.map(([n, t]) => ({ id: `list_${n}_max_${n}`, params: [listOf(t)], result: t, receiver: true })) },
  { name: 'min', overloads: COMPARABLE.map(([n, t]) => ({ id: `list_${n}_min_${n}`, params: [listOf(t)], result: t, receiver: true })) },
  { name: 'indexOf', overloads: [{ id: 'list_a_index_of_int', params: [listOf(A), A], result: T.int, receiver: true, typeParams: ['A'] }] },
  { name: 'lastIndexOf', overloads: [{ id: 'list_a_last_index_of_int', params: [listOf(A), A], result: T.int, receiver: true, typeParams: ['A'] }] },
];

const impls: OverloadImpl[] = [
  ...COMPARABLE.map(([n]) => ({ id: `list_${n}_is_sorted_bool`, unary: isSorted })),
  ...SUMMABLE.map(([n]) => ({ id: `list_${n}_sum_${n}`, unary: sum(ZERO[n]) })),
  ...COMPARABLE.map(([n]) => ({ id: `list_${n}_max_${n}`, unary: max })),
  ...COMPARABLE.map(([n]) => ({ id: `list_${n}_min_${n}`, unary: min })),
  { id: 'list_a_index_of_int', binary: indexOf },
  { id: 'list_a_last_index_of_int', binary: lastIndexOf },
];

export const listsLibrary: Library = { name: 'k8s.lists', functions, impls };
