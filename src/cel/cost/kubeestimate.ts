// Kubernetes' static call estimates for its libraries and the strings
// extension (apiserver pkg/cel/library/cost.go EstimateCallCost, v1.27).
// Keyed, as kube keys them, by function name; the cost excludes the
// arguments' own costs (the coster adds those). Any change here changes
// which CRDs are accepted.

import type { Type } from '../types.js';
import {
  AUTHZ_CHECK_COST,
  REGEX_STRING_LENGTH_COST_FACTOR as REGEX_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR as STR_FACTOR,
} from './constants.js';
import { type CostEstimate, type SizeEstimate, MAX_UINT64, ONE, UNBOUNDED, ZERO, add, addE, est, factorE, mulE } from './arith.js';
import type { CallEstimate, CostNode, SizeEstimator } from './estimate.js';

const AUTHZ_NOMINAL = new Set([
  'serviceAccount',
  'path',
  'group',
  'resource',
  'subresource',
  'namespace',
  'name',
  'allowed',
  'denied',
  'reason',
]);
const LIST_TRAVERSALS = new Set(['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf']);

/** Every function kube estimates (a cheap gate before kubeCallEstimate). */
export const KUBE_ESTIMATED: ReadonlySet<string> = new Set([
  'check',
  ...AUTHZ_NOMINAL,
  ...LIST_TRAVERSALS,
  'url',
  'lowerAscii',
  'upperAscii',
  'substring',
  'trim',
  'replace',
  'split',
  'join',
  'find',
  'findAll',
]);

/** kube's estimate for a call of fn, or undefined when kube has none. */
export function kubeCallEstimate(
  fn: string,
  target: CostNode | undefined,
  args: readonly CostNode[],
  sizes: SizeEstimator,
): CallEstimate | undefined {
  const size = (n: CostNode): SizeEstimate => n.computedSize ?? sizes(n) ?? UNBOUNDED;
  if (fn === 'check') return { cost: est(AUTHZ_CHECK_COST, AUTHZ_CHECK_COST) };
  if (AUTHZ_NOMINAL.has(fn)) return { cost: ONE };
  if (LIST_TRAVERSALS.has(fn)) {
    if (target === undefined) return undefined;
    const el = listElementNode(target);
    if (el === undefined) {
      // a string receiver: indexOf / lastIndexOf
      return { cost: factorE(size(target), STR_FACTOR) };
    }
    // one comparison per element, plus a traversal of string/bytes elements
    let elCost: CostEstimate = ONE;
    if (el.type?.kind === 'string' || el.type?.kind === 'bytes') elCost = addE(elCost, factorE(size(el), STR_FACTOR));
    return { cost: mulE(size(target), elCost) };
  }
  switch (fn) {
    case 'url':
      if (args.length === 1) return { cost: factorE(size(args[0]), STR_FACTOR) };
      return undefined;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      if (target !== undefined) {
        const sz = size(target);
        return { cost: factorE(sz, STR_FACTOR), resultSize: sz };
      }
      return undefined;
    case 'replace':
      if (target !== undefined && args.length >= 2) return replaceEstimate(size(target), size(args[0]), size(args[1]));
      return undefined;
    case 'split':
      if (target !== undefined) {
        const sz = size(target);
        // worst case: a "" separator gives one element per character
        let max = sz.max;
        if (args.length > 1) {
          const a = args[1].expr;
          if (a?.kind === 'const') max = constInt64AsUint64(a.value);
        }
        return { cost: factorE(sz, 2 * STR_FACTOR), resultSize: est(0, max) };
      }
      return undefined;
    case 'join':
      if (target !== undefined) {
        const listSize = size(target);
        let sz: SizeEstimate = ZERO;
        const el = listElementNode(target);
        if (el !== undefined) sz = mulE(listSize, size(el));
        if (args.length > 0) {
          const sep = size(args[0]);
          const seps = est(listSize.min > 0 ? listSize.min - 1 : 0, listSize.max > 0 ? listSize.max - 1 : 0);
          sz = addE(sz, mulE(sep, seps));
        }
        return { cost: factorE(sz, STR_FACTOR), resultSize: sz };
      }
      return undefined;
    case 'find':
    case 'findAll':
      if (target !== undefined && args.length >= 1) {
        const sz = size(target);
        // +1 so an empty input still pays for the pattern
        const strCost = factorE(addE(sz, ONE), STR_FACTOR);
        const regexCost = factorE(size(args[0]), REGEX_FACTOR);
        // worst case: every character is a match
        return { cost: mulE(strCost, regexCost), resultSize: est(0, sz.max) };
      }
      return undefined;
  }
  return undefined;
}

/** replace(old, new): the result is longest when the shortest `old` is
 * replaced by the longest `new` as often as it fits, shortest the other way
 * round; an empty `old` matches around every character. */
function replaceEstimate(sz: SizeEstimate, toReplace: SizeEstimate, replaceWith: SizeEstimate): CallEstimate {
  let countMin: number;
  let countMax: number;
  let retainedMin = 0;
  let retainedMax = 0;
  if (toReplace.min === 0) {
    countMax = sz.max < MAX_UINT64 ? sz.max + 1 : sz.max;
    retainedMax = sz.max;
  } else if (replaceWith.max <= toReplace.min) {
    countMax = 0;
    retainedMax = sz.max;
  } else {
    countMax = Math.ceil(sz.max / toReplace.min);
  }
  if (toReplace.max === 0) {
    countMin = sz.min < MAX_UINT64 ? sz.min + 1 : sz.min;
    retainedMin = sz.min;
  } else if (toReplace.max <= replaceWith.min) {
    countMin = 0;
    retainedMin = sz.min;
  } else {
    countMin = Math.ceil(sz.min / toReplace.max);
  }
  const resultSize = addE(mulE(est(countMin, countMax), replaceWith), est(retainedMin, retainedMax));
  // the traversal plus building the result
  return { cost: factorE(sz, 2 * STR_FACTOR), resultSize };
}

/** kube's listElementNode: the element of a list-typed node, with the
 * path (and walked type) extended by `@items`. */
function listElementNode(list: CostNode): CostNode | undefined {
  const t = list.type;
  if (t?.kind !== 'list') return undefined;
  const pt: Type | undefined = list.pathType;
  return {
    expr: undefined,
    type: t.elem,
    path: list.path === undefined ? undefined : [...list.path, '@items'],
    pathType: pt?.kind === 'list' || pt?.kind === 'map' ? (pt.kind === 'list' ? pt.elem : pt.value) : undefined,
    computedSize: undefined,
  };
}

/** Go's GetInt64Value() of a constant (0 unless an int), as uint64. */
function constInt64AsUint64(c: { type: string; value?: unknown }): number {
  if (c.type !== 'int') return 0;
  const v = c.value as bigint;
  return v < 0n ? Number(v + 2n ** 64n) : add(Number(v), 0);
}
