// Sizes of runtime values as the cost model sees them (cel-go's
// traits.Sizer: code points of a string, bytes of bytes, entries of a list
// or map; 1 for everything else), and Kubernetes' traversal cost of a value
// (library/cost.go traversalCost: a walk over the whole data tree).

import { CelMap, Optional } from '../values.js';
import { sizeString } from '../runtime/strings.js';

/** Code points of a string (the runtime's size()). */
export const codePoints = sizeString;
import { STRING_TRAVERSAL_COST_FACTOR } from './constants.js';


/** UTF-8 length of a string (Go's len(string)). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

const isPlainObject = (v: object): boolean => {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
};

/** cel-go's CostTracker.actualSize: the CEL size() of a sized value, else 1. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') return sizeString(v);
  if (typeof v !== 'object' || v === null) return 1;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof CelMap) return v.size;
  if (isPlainObject(v)) {
    let n = 0;
    for (const _ in v) n++;
    return n;
  }
  return 1;
}

/** Kubernetes' traversalCost: strings and bytes cost their length in bytes
 * times the traversal factor, truncated; lists the sum over elements; maps
 * and objects the sum over keys and values; anything else 1. */
export function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(utf8Length(v) * STRING_TRAVERSAL_COST_FACTOR);
  if (typeof v !== 'object' || v === null) return 1;
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (Array.isArray(v)) {
    let c = 0;
    for (let i = 0; i < v.length; i++) c += traversalCost(v[i]);
    return c;
  }
  if (v instanceof CelMap) {
    let c = 0;
    for (const [k, val] of v.entries.values()) c += traversalCost(k) + traversalCost(val);
    return c;
  }
  if (v instanceof Optional) return 1;
  if (isPlainObject(v)) {
    let c = 0;
    const o = v as Record<string, unknown>;
    for (const k in o) c += traversalCost(k) + traversalCost(o[k]);
    return c;
  }
  return 1;
}
