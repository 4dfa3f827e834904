// List-type semantics of Kubernetes schemas (x-kubernetes-list-type), as
// kube's unstructured set and map lists give them to `==` and `+`. The
// interpreter calls these when the left operand's ListType has k8sList:
//
//   set  X == Y  same size, every element of X is in Y (order-free)
//        X + Y   X, then Y's elements not already present (in Y's order, once)
//   map  X == Y  same size, every element of Y has an equal element in X under
//                the same key (order-free)
//        X + Y   X's elements in place, an element of Y replacing X's element of
//                the same key, Y's other elements appended
//
// A map list's key is the tuple of its elements' mapKeys properties (absent
// properties count as null). Kube looks key properties up under their escaped
// names, so a key property whose name needs escaping is always absent there;
// we read the property's own name (the data's real key).

import type { ListType } from '../types.js';
import { Double, Uint } from '../values.js';
import { celEquals } from '../runtime/equality.js';
import { mapFind } from '../runtime/maps.js';

export type K8sList = NonNullable<ListType['k8sList']>;

/** `==` of two lists under the left operand's list type. */
export function k8sListEquals(kind: K8sList, x: readonly unknown[], y: readonly unknown[]): boolean {
  if (x.length !== y.length) return false;
  if (kind.listType === 'set') {
    const ySet = new ValueSet(y);
    for (const e of x) if (!ySet.has(e)) return false;
    return true;
  }
  const byKey = new Map<string, unknown>();
  for (const e of x) byKey.set(mapListKey(e, kind.mapKeys), e);
  for (const e of y) {
    const k = mapListKey(e, kind.mapKeys);
    if (!byKey.has(k) || !celEquals(byKey.get(k), e)) return false;
  }
  return true;
}

/** `+` of two lists under the left operand's list type. */
export function k8sListConcat(kind: K8sList, x: readonly unknown[], y: readonly unknown[]): readonly unknown[] {
  if (y.length === 0) return x;
  const out = x.slice();
  if (kind.listType === 'set') {
    const seen = new ValueSet(x);
    for (const e of y) {
      if (seen.has(e)) continue;
      seen.add(e);
      out.push(e);
    }
    return out;
  }
  const index = new Map<string, number>();
  for (let i = 0; i < x.length; i++) index.set(mapListKey(x[i], kind.mapKeys), i);
  for (const e of y) {
    const k = mapListKey(e, kind.mapKeys);
    const at = index.get(k);
    // Only X's keys are looked up (as kube): Y's own duplicates are all appended.
    if (at !== undefined) out[at] = e;
    else out.push(e);
  }
  return out;
}

/** A map list element's key as a string (the key values, typed, joined). */
function mapListKey(e: unknown, keys: readonly string[]): string {
  let k = '';
  for (const name of keys) {
    const v = typeof e === 'object' && e !== null ? mapFind(e, name) : undefined;
    k += scalarKey(v) + '\u0000';
  }
  return k;
}

function scalarKey(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 's' + v;
    case 'number':
    case 'bigint':
      return 'n' + String(v);
    case 'boolean':
      return v ? 't' : 'f';
    case 'undefined':
      return 'z';
  }
  if (v === null) return 'z';
  if (v instanceof Double) return 'n' + String(v.v);
  return 'j' + JSON.stringify(v);
}

/** Set membership under CEL equality: hashed for strings, booleans and
 * numbers (ints, uints and doubles by value), a scan for the rest (bigints,
 * bytes, timestamps… — their CEL-equal numbers are found by the scan too). */
class ValueSet {
  private readonly keyed = new Set<unknown>();
  private readonly others: unknown[] = [];
  constructor(items: readonly unknown[]) {
    for (const e of items) this.add(e);
  }
  add(e: unknown): void {
    const k = primitiveKey(e);
    if (k !== undefined) this.keyed.add(k);
    else this.others.push(e);
  }
  has(e: unknown): boolean {
    const k = primitiveKey(e);
    if (k !== undefined && this.keyed.has(k)) return true;
    for (const o of this.others) if (celEquals(o, e)) return true;
    return false;
  }
}

function primitiveKey(e: unknown): unknown {
  switch (typeof e) {
    case 'string':
    case 'boolean':
      return e;
    case 'number':
      return Number.isNaN(e) ? undefined : e;
  }
  if (e instanceof Double) return Number.isNaN(e.v) ? undefined : e.v;
  if (e instanceof Uint && typeof e.v === 'number') return e.v;
  return undefined;
}
