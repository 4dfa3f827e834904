// Typed walks: a JSON object read through a structural schema (structured-merge-diff's
// `typed` package). The schema decides the topology of every node:
//
//   list  x-kubernetes-list-type atomic | set | map (+ list-map-keys); when unset,
//         patch-strategy "merge" reads as map keyed by patch-merge-key (or set
//         without a key); otherwise atomic
//   map   x-kubernetes-map-type atomic | granular (default); struct fields are the
//         `properties`, other keys use additionalProperties (or are unstructured)
//   none  (`undefined` schema, or preserve-unknown-fields without a type):
//         unstructured — lists atomic, maps granular, everything else scalar
//
// An atomic node is a leaf: nothing beneath it is ever addressed. The walks are
// those of Kubernetes v1.26/1.27 (structured-merge-diff v4.2): toFieldSet,
// compare, merge (keep right-hand side), removeItems, ensureNamedFieldsAreMembers
// and the schema-change reconciliation.
//
// The walks build field sets in place (no path arrays per node), keep the
// current path on one stack for error messages, and read each schema's
// topology from a per-schema memo (schemas are immutable).
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { fieldEntry, FieldSet, keySpelling, pathToString, serializeElement, valueOf, type KeyField, type Path, type PathElement } from './fieldpath.js';
import { EMPTY } from './fieldset.js';

export type JsonObject = { [key: string]: JsonValue };

export class TypedError extends Error {
  override name = 'TypedError';
}

type ListNode = { kind: 'list'; atomic: boolean; keys: readonly string[] | undefined; sortedKeys: readonly string[] | undefined; item: Schema | undefined };
type MapNode = { kind: 'map'; atomic: boolean; fields: { readonly [name: string]: Schema } | undefined; element: Schema | undefined; strict: boolean };
type Node = { kind: 'scalar'; atomic?: undefined } | ListNode | MapNode | { kind: 'unknown'; atomic?: undefined };

const SCALAR: Node = { kind: 'scalar' };
const UNKNOWN: Node = { kind: 'unknown' };

const list = (atomic: boolean, keys: readonly string[] | undefined, item: Schema | undefined): ListNode => ({
  kind: 'list', atomic, keys, sortedKeys: keys && [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), item,
});

function computeTopology(s: Schema): Node {
  if (s['x-kubernetes-int-or-string']) return SCALAR;
  if (s.type === 'array' || (s.type === undefined && s.items !== undefined)) {
    const lt = s['x-kubernetes-list-type'];
    const item = s.items;
    if (lt === 'atomic') return list(true, undefined, item);
    if (lt === 'set') return list(false, undefined, item);
    if (lt === 'map') return list(false, s['x-kubernetes-list-map-keys'] ?? [], item);
    const strategy = s['x-kubernetes-patch-strategy'];
    if (strategy !== undefined && strategy.split(',').includes('merge')) {
      const mk = s['x-kubernetes-patch-merge-key'];
      return list(false, mk ? [mk] : undefined, item);
    }
    return list(true, undefined, item);
  }
  if (s.type === 'object' || s.properties !== undefined || s.additionalProperties !== undefined) {
    const ap = s.additionalProperties;
    // A struct (properties, no additionalProperties) rejects undeclared fields unless it preserves unknown ones.
    const strict = s.properties !== undefined && (ap === undefined || ap === false) && !s['x-kubernetes-preserve-unknown-fields'];
    return { kind: 'map', atomic: s['x-kubernetes-map-type'] === 'atomic', fields: s.properties, element: isObject(ap) ? (ap as Schema) : undefined, strict };
  }
  if (s.type !== undefined) return SCALAR;
  return UNKNOWN;
}

const topologies = new WeakMap<Schema, Node>();

/** The topology a schema gives a node, without looking at a value (`unknown` = unstructured). */
function topology(s: Schema | undefined): Node {
  if (s === undefined) return UNKNOWN;
  let n = topologies.get(s);
  if (n === undefined) topologies.set(s, (n = computeTopology(s)));
  return n;
}

const UNSTRUCTURED_LIST: Node = list(true, undefined, undefined);
const UNSTRUCTURED_MAP: Node = { kind: 'map', atomic: false, fields: undefined, element: undefined, strict: false };

/** The topology used for a value: the schema's, or deduced from the value when unstructured or mismatched. */
function resolve(s: Schema | undefined, v: JsonValue | undefined): Node {
  const t = topology(s);
  if (v === undefined || v === null) return t.kind === 'unknown' ? SCALAR : t;
  const shape = typeof v !== 'object' ? 'scalar' : Array.isArray(v) ? 'list' : 'map';
  if (t.kind === 'unknown') return shape === 'list' ? UNSTRUCTURED_LIST : shape === 'map' ? UNSTRUCTURED_MAP : SCALAR;
  if (t.kind !== shape) return SCALAR; // a value that does not fit its schema is treated as opaque
  return t;
}

/** A node whose value is a leaf of the walks: a scalar, an unstructured scalar or an atomic container. */
const isLeaf = (n: Node): boolean => n.kind === 'scalar' || n.kind === 'unknown' || n.atomic === true;
const isAtomicContainer = (n: Node): boolean => (n.kind === 'list' || n.kind === 'map') && n.atomic;

function childSchema(n: Node, name: string): Schema | undefined {
  if (n.kind !== 'map') return undefined;
  return n.fields !== undefined && Object.hasOwn(n.fields, name) ? n.fields[name] : n.element;
}

const isNamedField = (n: Node, name: string): boolean => n.kind === 'map' && n.fields !== undefined && Object.hasOwn(n.fields, name);

interface ItemEntry {
  readonly key: string;
  readonly pe: PathElement;
}

/** The element of a list item and its spelling: its key (with key defaults from the item schema) or its value. */
function itemEntry(n: ListNode, item: JsonValue, at: Path): ItemEntry {
  if (n.keys !== undefined) {
    if (!isObject(item)) throw new TypedError(`${pathToString(at)}: associative list with keys may not have ${item === null ? 'a null element' : 'non-map elements'}`);
    const props = n.item?.properties;
    for (const k of n.keys) {
      if (!Object.hasOwn(item, k) && props?.[k]?.default === undefined) {
        throw new TypedError(`${pathToString(at)}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
      }
    }
    const fields: KeyField[] = [];
    for (const k of n.sortedKeys!) fields.push({ name: k, value: Object.hasOwn(item, k) ? (item[k] as JsonValue) : props![k]!.default! });
    return { key: keySpelling(fields), pe: { kind: 'key', fields } };
  }
  if (item === null) throw new TypedError(`${pathToString(at)}: associative list without keys has an element that's an explicit null`);
  if (Array.isArray(item)) throw new TypedError(`${pathToString(at)}: not supported: associative list with lists as elements`);
  if (isObject(item)) throw new TypedError(`${pathToString(at)}: associative list without keys has an element that's a map type`);
  const pe = valueOf(item);
  return { key: serializeElement(pe), pe };
}

/** The path element of a list item: its key (with key defaults from the item schema) or its value. */
export function listItemElement(n: Node & { kind: 'list' }, item: JsonValue, at: Path): PathElement {
  return itemEntry(n, item, at).pe;
}

const duplicate = (at: Path, pe: PathElement): TypedError => new TypedError(`${pathToString(at)}: duplicate entries for key ${pathToString([pe])}`);

// ---------------------------------------------------------------------------
// toFieldSet: the fields an (applied) object sets.

/**
 * The field set of a value: every scalar leaf, every atomic node, every list
 * item (the item itself, recorded as `.`), and every map entry that is not a
 * declared struct field. Struct fields themselves are not members. With
 * `strict`, an undeclared field of a struct is a TypedError
 * (`.spam: field not declared in schema`), as for an applied object.
 */
export function toFieldSet(value: JsonValue, schema: Schema | undefined, opts: { strict?: boolean } = {}): FieldSet {
  return fieldSetOf(value, schema, opts.strict === true).set;
}

/**
 * toFieldSet, and whether some member is a granular container with no member
 * beneath it (`hollow`: a list item or map entry whose value sets nothing).
 */
export function fieldSetOf(value: JsonValue, schema: Schema | undefined, strict: boolean): { set: FieldSet; hollow: boolean } {
  const root = new FieldSet();
  const errors: string[] = [];
  const path: PathElement[] = [];
  let hollow = false;
  /** Walks v at entry `key` of `parent`; true when v was recorded as a leaf member there. */
  const visit = (v: JsonValue, s: Schema | undefined, parent: FieldSet, key: string, pe: PathElement): boolean => {
    const n = resolve(s, v);
    if (isLeaf(n)) {
      parent.memberAt(key, pe);
      return true;
    }
    if (n.kind === 'list' ? !Array.isArray(v) || v.length === 0 : !isObject(v)) return false;
    children(n, v, parent.childAt(key, pe));
    parent.settle(key);
    return false;
  };
  const children = (n: Node, v: JsonValue, node: FieldSet): void => {
    if (n.kind === 'list') {
      for (const item of v as JsonValue[]) {
        const ie = itemEntry(n, item, path);
        if (node.isMemberKey(ie.key)) throw duplicate(path, ie.pe);
        path.push(ie.pe);
        const leaf = visit(item, n.item, node, ie.key, ie.pe);
        path.pop();
        node.memberAt(ie.key, ie.pe);
        if (!leaf && !node.hasChildKey(ie.key)) hollow = true;
      }
      return;
    }
    const obj = v as JsonObject;
    for (const k of Object.keys(obj)) {
      const fe = fieldEntry(k);
      const named = isNamedField(n, k);
      if (strict && (n as MapNode).strict && !named) {
        errors.push(`${pathToString([...path, fe.pe])}: field not declared in schema`);
        continue;
      }
      path.push(fe.pe);
      const leaf = visit(obj[k]!, childSchema(n, k), node, fe.key, fe.pe);
      path.pop();
      if (!named) {
        node.memberAt(fe.key, fe.pe);
        if (!leaf && !node.hasChildKey(fe.key)) hollow = true;
      }
    }
  };
  const n = resolve(schema, value);
  if (!isLeaf(n) && (n.kind === 'list' ? Array.isArray(value) : isObject(value))) children(n, value, root);
  if (errors.length === 1) throw new TypedError(errors[0]!);
  if (errors.length > 1) throw new TypedError(`errors:\n  ${errors.join('\n  ')}`);
  return { set: root, hollow };
}

// ---------------------------------------------------------------------------
// merge and compare: one walk over two values (either may be absent).

const emptyList = (v: JsonValue | undefined): boolean => !Array.isArray(v) || v.length === 0;
function emptyMap(v: JsonValue | undefined): boolean {
  if (!isObject(v)) return true;
  for (const _ in v) return false;
  return true;
}

/** What the walks over two values do at the nodes they reach. */
interface PairVisitor<R> {
  /** A leaf (scalar, atomic node, both-empty containers, mismatched kinds). */
  leaf(l: JsonValue | undefined, r: JsonValue | undefined): R | undefined;
  /** A granular list or map after its items/entries (`items` as the walk collected them). */
  list(l: JsonValue | undefined, r: JsonValue | undefined, items: R[]): R | undefined;
  map(l: JsonValue | undefined, r: JsonValue | undefined, keys: string[], values: R[]): R | undefined;
  /** Called before and after descending into a child. */
  enter(key: string, pe: PathElement): void;
  leave(): void;
}

function pairWalk<R>(l: JsonValue | undefined, r: JsonValue | undefined, s: Schema | undefined, at: PathElement[], v: PairVisitor<R>): R | undefined {
  const nl = resolve(s, l);
  const nr = resolve(s, r);
  const n = r === undefined ? nl : nr;
  if (l !== undefined && r !== undefined && nl.kind !== nr.kind) return v.leaf(l, r);
  if (isLeaf(n)) return v.leaf(l, r);
  if (n.kind === 'list') {
    if (emptyList(l) && emptyList(r)) return v.leaf(l, r);
    const rItems = Array.isArray(r) ? r : [];
    const lItems = Array.isArray(l) ? l : [];
    const rEntries: ItemEntry[] = [];
    const observedR = new Map<string, JsonValue>();
    for (const item of rItems) {
      const ie = itemEntry(n, item, at);
      if (observedR.has(ie.key)) throw duplicate(at, ie.pe);
      observedR.set(ie.key, item);
      rEntries.push(ie);
    }
    const observedL = new Set<string>();
    const out: R[] = [];
    for (const item of lItems) {
      const ie = itemEntry(n, item, at);
      if (observedL.has(ie.key)) throw duplicate(at, ie.pe);
      observedL.add(ie.key);
      at.push(ie.pe);
      v.enter(ie.key, ie.pe);
      const m = pairWalk(item, observedR.get(ie.key), n.item, at, v);
      v.leave();
      at.pop();
      if (m !== undefined) out.push(m);
    }
    for (let i = 0; i < rEntries.length; i++) {
      const ie = rEntries[i]!;
      if (observedL.has(ie.key)) continue;
      at.push(ie.pe);
      v.enter(ie.key, ie.pe);
      const m = pairWalk(undefined, rItems[i]!, n.item, at, v);
      v.leave();
      at.pop();
      if (m !== undefined) out.push(m);
    }
    return v.list(l, r, out);
  }
  if (emptyMap(l) && emptyMap(r)) return v.leaf(l, r);
  const lo = isObject(l) ? (l as JsonObject) : undefined;
  const ro = isObject(r) ? (r as JsonObject) : undefined;
  const keys: string[] = [];
  const values: R[] = [];
  const child = (k: string, lv: JsonValue | undefined, rv: JsonValue | undefined): void => {
    const fe = fieldEntry(k);
    at.push(fe.pe);
    v.enter(fe.key, fe.pe);
    const m = pairWalk(lv, rv, childSchema(n, k), at, v);
    v.leave();
    at.pop();
    if (m !== undefined) {
      keys.push(k);
      values.push(m);
    }
  };
  if (lo) for (const k of Object.keys(lo)) child(k, lo[k], ro !== undefined && Object.hasOwn(ro, k) ? ro[k] : undefined);
  if (ro) for (const k of Object.keys(ro)) if (lo === undefined || !Object.hasOwn(lo, k)) child(k, undefined, ro[k]);
  return v.map(l, r, keys, values);
}

const noop = (): void => {};

const merger: PairVisitor<JsonValue> = {
  leaf: (l, r) => cloneJson(r !== undefined ? r : l),
  list: (_l, _r, items) => (items.length > 0 ? items : undefined),
  map: (_l, _r, keys, values) => {
    if (keys.length === 0) return undefined;
    const out: JsonObject = {};
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i]!;
    return out;
  },
  enter: noop,
  leave: noop,
};

/** Merges rhs into lhs: rhs wins at leaves; granular lists merge by key/value, granular maps by key. The result shares nothing with its inputs. */
export function merge(lhs: JsonValue | undefined, rhs: JsonValue | undefined, schema: Schema | undefined): JsonValue | undefined {
  return pairWalk(lhs, rhs, schema, [], merger);
}

export interface Comparison {
  added: FieldSet;
  removed: FieldSet;
  modified: FieldSet;
}

export function isSame(c: Comparison): boolean {
  return c.added.empty() && c.removed.empty() && c.modified.empty();
}

/** Which fields of lhs rhs adds, removes or changes (granular containers appear when added or removed). */
export function compare(lhs: JsonValue | undefined, rhs: JsonValue | undefined, schema: Schema | undefined): Comparison {
  const c: Comparison = { added: new FieldSet(), removed: new FieldSet(), modified: new FieldSet() };
  const keys: string[] = [];
  const pes: PathElement[] = [];
  const record = (set: FieldSet): void => {
    const n = keys.length;
    if (n === 0) return;
    let node = set;
    for (let i = 0; i < n - 1; i++) node = node.childAt(keys[i]!, pes[i]!);
    node.memberAt(keys[n - 1]!, pes[n - 1]!);
  };
  pairWalk<true>(lhs, rhs, schema, [], {
    leaf(l, r) {
      if (l === undefined) record(c.added);
      else if (r === undefined) record(c.removed);
      else if (!jsonEqual(l, r)) record(c.modified);
      return undefined;
    },
    list(l, r) {
      if (l === undefined) record(c.added);
      else if (r === undefined) record(c.removed);
      return undefined;
    },
    map(l, r) {
      if (l === undefined) record(c.added);
      else if (r === undefined) record(c.removed);
      return undefined;
    },
    enter(key, pe) {
      keys.push(key);
      pes.push(pe);
    },
    leave() {
      keys.pop();
      pes.pop();
    },
  });
  return c;
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const bo = b as JsonObject;
  let n = 0;
  for (const k in a) {
    if (!Object.hasOwn(bo, k) || !jsonEqual((a as JsonObject)[k], bo[k])) return false;
    n++;
  }
  for (const _ in bo) n--;
  return n === 0;
}

/** A deep copy of a JSON value. */
export function cloneJson<T extends JsonValue | undefined>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out: JsonValue[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneJson(v[i]!);
    return out as T;
  }
  const out: JsonObject = {};
  for (const k of Object.keys(v)) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: cloneJson((v as JsonObject)[k]), enumerable: true, writable: true, configurable: true });
    else out[k] = cloneJson((v as JsonObject)[k]!);
  }
  return out as T;
}

// ---------------------------------------------------------------------------
// removeItems.

/**
 * Removes every member of `set` (with everything beneath it) from a value.
 * A map entry whose value empties out is dropped, as the reference server's
 * typed round trip drops the resulting null. The result shares the parts it
 * keeps with `value`.
 */
export function removeItems(value: JsonValue, set: FieldSet, schema: Schema | undefined): JsonValue {
  return removeWalk(value, set.freeze(), schema, []) ?? null;
}

function removeWalk(v: JsonValue, set: FieldSet, s: Schema | undefined, path: PathElement[]): JsonValue | undefined {
  const n = resolve(s, v);
  if (n.kind === 'scalar' || n.kind === 'unknown') return v;
  if (n.atomic) return undefined;
  if (n.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0) return undefined;
    const out: JsonValue[] = [];
    for (const item of v) {
      const ie = itemEntry(n, item, path);
      if (set.isMemberKey(ie.key)) continue;
      const sub = set.childByKey(ie.key);
      if (sub.empty()) out.push(item);
      else {
        path.push(ie.pe);
        out.push(removeWalk(item, sub, n.item, path) ?? emptyLike(item));
        path.pop();
      }
    }
    return out.length > 0 ? out : undefined;
  }
  if (!isObject(v)) return undefined;
  const out: JsonObject = {};
  let any = false;
  for (const k of Object.keys(v)) {
    const fe = fieldEntry(k);
    if (set.isMemberKey(fe.key)) continue;
    const sub = set.childByKey(fe.key);
    if (sub.empty()) {
      out[k] = v[k] as JsonValue;
      any = true;
    } else {
      path.push(fe.pe);
      const r = removeWalk(v[k] as JsonValue, sub, childSchema(n, k), path);
      path.pop();
      if (r !== undefined) {
        out[k] = r;
        any = true;
      }
    }
  }
  return any ? out : undefined;
}

const emptyLike = (v: JsonValue): JsonValue => (Array.isArray(v) ? [] : isObject(v) ? {} : null);

// ---------------------------------------------------------------------------
// Schema-only walks over field sets.

function schemaOfChild(n: Node, pe: PathElement): Schema | undefined {
  if (pe.kind === 'field') return childSchema(n, pe.name);
  return n.kind === 'list' ? n.item : undefined;
}

const entriesOf = FieldSet.entries;

/** Adds, as members, the declared struct fields that a set only passes through (so that prune can remove them). */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  const n = topology(schema);
  const out = new FieldSet();
  for (const [k, e] of entriesOf(set)) {
    if (e.member || (e.child !== undefined && e.pe.kind === 'field' && isNamedField(n, e.pe.name))) out.memberAt(k, e.pe);
    if (e.child !== undefined) out.setChildAt(k, e.pe, ensureNamedFieldsAreMembers(e.child, schemaOfChild(n, e.pe)));
  }
  return out;
}

/** Whether some subtree of `set` lies under a node the schema now makes atomic. */
function needsReconcile(set: FieldSet, schema: Schema | undefined): boolean {
  const n = topology(schema);
  for (const e of entriesOf(set).values()) {
    if (e.child === undefined) continue;
    const cs = schemaOfChild(n, e.pe);
    if (isAtomicContainer(topology(cs)) || needsReconcile(e.child, cs)) return true;
  }
  return false;
}

/**
 * Reconciles a manager's set with the current schema: a subtree under a node
 * that is now atomic collapses into ownership of the node itself (granular →
 * atomic). Atomic → granular needs nothing. Returns the same set when
 * unchanged; the set becomes read-only and remembers the answer.
 */
export function reconcileWithSchema(set: FieldSet, schema: Schema | undefined): FieldSet {
  set.freeze();
  const memo = (set.memo ??= {});
  if (memo.reconciled !== undefined && memo.schema === schema) return memo.reconciled;
  const walk = (s: FieldSet, sch: Schema | undefined): FieldSet => {
    const n = topology(sch);
    const out = new FieldSet();
    for (const [k, e] of entriesOf(s)) {
      if (e.member) out.memberAt(k, e.pe);
      if (e.child === undefined) continue;
      const cs = schemaOfChild(n, e.pe);
      if (isAtomicContainer(topology(cs))) out.memberAt(k, e.pe);
      else out.setChildAt(k, e.pe, walk(e.child, cs));
    }
    return out;
  };
  const r = needsReconcile(set, schema) ? walk(set, schema).freeze() : set;
  memo.schema = schema;
  memo.reconciled = r;
  return r;
}

export { EMPTY as EMPTY_SET };
