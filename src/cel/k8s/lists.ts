// List-type semantics of Kubernetes schemas (x-kubernetes-list-type), as
// kube's unstructured set and map lists give them to `==` and `+`. The
// interpreter calls these when the left operand's static ListType has
// k8sList, or the left operand is the result of such a `+` (listKindOf); and
// typedEquals for `==` on a type that holds set/map lists deeper
// (needsTypedEquality), e.g. `self == oldSelf`:
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

import type { ListType, Type } from '../types.js';
import { Double, Uint } from '../values.js';
import { celEquals } from '../runtime/equality.js';
import { mapFind } from '../runtime/maps.js';

export type K8sList = NonNullable<ListType['k8sList']>;

// Results of `+` keep their list type (as kube's set and map list values do):
// they are registered here, so `(X + Y) == Z` compares as a set/map list
// although the checker types `X + Y` as a plain list.
const resultKinds = new WeakMap<readonly unknown[], K8sList>();

/** The list type a concatenation result carries (undefined for other lists). */
export const listKindOf = (list: readonly unknown[]): K8sList | undefined => resultKinds.get(list);

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
  const out = x.slice();
  resultKinds.set(out, kind);
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

// --- typed equality --------------------------------------------------------------

const typedMemo = new WeakMap<object, boolean>();

/** Whether `==` on values of this type differs from plain CEL equality: a set
 * or map list occurs in it (then the interpreter compares with typedEquals). */
export function needsTypedEquality(t: Type): boolean {
  let v = typedMemo.get(t);
  if (v === undefined) {
    typedMemo.set(t, false); // recursion guard
    switch (t.kind) {
      case 'list':
        v = t.k8sList !== undefined || needsTypedEquality(t.elem);
        break;
      case 'map':
        v = needsTypedEquality(t.value);
        break;
      case 'object':
        v = false;
        for (const f of t.fields.values()) if (needsTypedEquality(f.type)) v = true;
        break;
      default:
        v = false;
    }
    typedMemo.set(t, v);
  }
  return v;
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/**
 * `==` of two values of a schema type, as kube's unstructured values compare:
 * set and map lists order-free at any depth, object fields by their schema
 * (converted: timestamps, durations… compare as values), unknown fields of
 * preserve-unknown-fields objects as JSON. Other values: CEL equality.
 */
export function typedEquals(t: Type, a: unknown, b: unknown): boolean {
  switch (t.kind) {
    case 'list': {
      if (!Array.isArray(a) || !Array.isArray(b)) break;
      if (a.length !== b.length) return false;
      const elem = t.elem;
      if (t.k8sList === undefined) {
        for (let i = 0; i < a.length; i++) if (!typedEquals(elem, a[i], b[i])) return false;
        return true;
      }
      if (t.k8sList.listType === 'set') return k8sListEquals(t.k8sList, a, b);
      const keys = t.k8sList.mapKeys;
      const byKey = new Map<string, unknown>();
      for (const e of a) byKey.set(mapListKey(e, keys), e);
      for (const e of b) {
        const k = mapListKey(e, keys);
        if (!byKey.has(k) || !typedEquals(elem, byKey.get(k), e)) return false;
      }
      return true;
    }
    case 'map': {
      if (!isPlain(a) || !isPlain(b)) break;
      const ka = Object.keys(a);
      if (ka.length !== Object.keys(b).length) return false;
      for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !typedEquals(t.value, a[k], b[k])) return false;
      return true;
    }
    case 'object': {
      if (!isPlain(a) || !isPlain(b)) break;
      const ka = Object.keys(a);
      if (ka.length !== Object.keys(b).length) return false;
      const byWire = wireFields(t);
      for (const k of ka) {
        if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
        const f = byWire.get(k);
        if (f === undefined) {
          if (!celEquals(a[k], b[k])) return false;
          continue;
        }
        const va = f.convert ? f.convert(a[k]) : a[k];
        const vb = f.convert ? f.convert(b[k]) : b[k];
        if (!typedEquals(f.type, va, vb)) return false;
      }
      return true;
    }
  }
  return celEquals(a, b);
}

type Field = { type: Type; convert?: (raw: unknown) => unknown };
const wireMemo = new WeakMap<object, Map<string, Field>>();
function wireFields(t: Extract<Type, { kind: 'object' }>): Map<string, Field> {
  let m = wireMemo.get(t);
  if (m === undefined) {
    m = new Map();
    for (const f of t.fields.values()) m.set(f.wireName, f);
    wireMemo.set(t, m);
  }
  return m;
}
