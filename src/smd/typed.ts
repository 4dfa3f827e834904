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
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { field, FieldSet, key, pathToString, valueOf, type Path, type PathElement } from './fieldpath.js';

export type JsonObject = { [key: string]: JsonValue };

export class TypedError extends Error {
  override name = 'TypedError';
}

type Node =
  | { kind: 'scalar' }
  | { kind: 'list'; atomic: boolean; keys: readonly string[] | undefined; item: Schema | undefined }
  | { kind: 'map'; atomic: boolean; fields: { readonly [name: string]: Schema } | undefined; element: Schema | undefined; strict: boolean }
  | { kind: 'unknown' };

const SCALAR: Node = { kind: 'scalar' };
const UNKNOWN: Node = { kind: 'unknown' };

/** The topology a schema gives a node, without looking at a value (`unknown` = unstructured). */
function topology(s: Schema | undefined): Node {
  if (s === undefined || s['x-kubernetes-int-or-string']) return s === undefined ? UNKNOWN : SCALAR;
  if (s.type === 'array' || (s.type === undefined && s.items !== undefined)) {
    const lt = s['x-kubernetes-list-type'];
    const item = s.items;
    if (lt === 'atomic') return { kind: 'list', atomic: true, keys: undefined, item };
    if (lt === 'set') return { kind: 'list', atomic: false, keys: undefined, item };
    if (lt === 'map') return { kind: 'list', atomic: false, keys: s['x-kubernetes-list-map-keys'] ?? [], item };
    const strategy = s['x-kubernetes-patch-strategy'];
    if (strategy !== undefined && strategy.split(',').includes('merge')) {
      const mk = s['x-kubernetes-patch-merge-key'];
      return { kind: 'list', atomic: false, keys: mk ? [mk] : undefined, item };
    }
    return { kind: 'list', atomic: true, keys: undefined, item };
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

const UNSTRUCTURED_LIST: Node = { kind: 'list', atomic: true, keys: undefined, item: undefined };
const UNSTRUCTURED_MAP: Node = { kind: 'map', atomic: false, fields: undefined, element: undefined, strict: false };

/** The topology used for a value: the schema's, or deduced from the value when unstructured or mismatched. */
function resolve(s: Schema | undefined, v: JsonValue | undefined): Node {
  const t = topology(s);
  const shape = v === undefined || v === null ? undefined : Array.isArray(v) ? 'list' : isObject(v) ? 'map' : 'scalar';
  if (t.kind === 'unknown') return shape === 'list' ? UNSTRUCTURED_LIST : shape === 'map' ? UNSTRUCTURED_MAP : SCALAR;
  if (shape !== undefined && t.kind !== shape) return SCALAR; // a value that does not fit its schema is treated as opaque
  return t;
}

const isAtomicContainer = (n: Node): boolean => (n.kind === 'list' || n.kind === 'map') && n.atomic;

function childSchema(n: Node, name: string): Schema | undefined {
  return n.kind === 'map' ? (n.fields?.[name] ?? n.element) : undefined;
}

const isNamedField = (n: Node, name: string): boolean => n.kind === 'map' && n.fields !== undefined && Object.hasOwn(n.fields, name);

/** The path element of a list item: its key (with key defaults from the item schema) or its value. */
export function listItemElement(n: Node & { kind: 'list' }, item: JsonValue, at: Path): PathElement {
  if (n.keys !== undefined) {
    if (!isObject(item)) throw new TypedError(`${pathToString(at)}: associative list with keys may not have ${item === null ? 'a null element' : 'non-map elements'}`);
    const props = n.item?.properties;
    const fields: { name: string; value: JsonValue }[] = [];
    for (const k of n.keys) {
      if (Object.hasOwn(item, k)) fields.push({ name: k, value: item[k] as JsonValue });
      else if (props?.[k]?.default !== undefined) fields.push({ name: k, value: props[k]!.default! });
      else throw new TypedError(`${pathToString(at)}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
    }
    return key(fields);
  }
  if (item === null) throw new TypedError(`${pathToString(at)}: associative list without keys has an element that's an explicit null`);
  if (Array.isArray(item)) throw new TypedError(`${pathToString(at)}: not supported: associative list with lists as elements`);
  if (isObject(item)) throw new TypedError(`${pathToString(at)}: associative list without keys has an element that's a map type`);
  return valueOf(item);
}

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
  const set = new FieldSet();
  const errors: string[] = [];
  const walk = (v: JsonValue, s: Schema | undefined, path: PathElement[]): void => {
    const n = resolve(s, v);
    if (n.kind === 'scalar' || n.kind === 'unknown') {
      set.insert(path);
    } else if (n.atomic) {
      set.insert(path);
    } else if (n.kind === 'list') {
      if (!Array.isArray(v)) return;
      const seen = new Set<string>();
      for (const item of v) {
        const pe = listItemElement(n, item, path);
        const p = [...path, pe];
        const id = JSON.stringify(pe);
        if (seen.has(id)) throw new TypedError(`${pathToString(path)}: duplicate entries for key ${pathToString([pe])}`);
        seen.add(id);
        walk(item, n.item, p);
        set.insert(p);
      }
    } else {
      if (!isObject(v)) return;
      for (const [k, child] of Object.entries(v)) {
        const p = [...path, field(k)];
        if (opts.strict && n.strict && !isNamedField(n, k)) {
          errors.push(`${pathToString(p)}: field not declared in schema`);
          continue;
        }
        walk(child as JsonValue, childSchema(n, k), p);
        if (!isNamedField(n, k)) set.insert(p);
      }
    }
  };
  walk(value, schema, []);
  if (errors.length === 1) throw new TypedError(errors[0]!);
  if (errors.length > 1) throw new TypedError(`errors:\n  ${errors.join('\n  ')}`);
  return set;
}

// ---------------------------------------------------------------------------
// merge and compare: one walk over two values (either may be absent).

interface Hooks {
  /** Called for leaves (scalars, atomic nodes, both-empty containers). */
  leaf?(path: Path, lhs: JsonValue | undefined, rhs: JsonValue | undefined): void;
  /** Called after descending into a granular list or map. */
  post?(path: Path, lhs: JsonValue | undefined, rhs: JsonValue | undefined): void;
}

const emptyList = (v: JsonValue | undefined): boolean => !Array.isArray(v) || v.length === 0;
const emptyMap = (v: JsonValue | undefined): boolean => !isObject(v) || Object.keys(v).length === 0;

function mergeWalk(lhs: JsonValue | undefined, rhs: JsonValue | undefined, s: Schema | undefined, path: PathElement[], hooks: Hooks): JsonValue | undefined {
  const nl = resolve(s, lhs);
  const nr = resolve(s, rhs);
  const n = rhs === undefined ? nl : nr;
  const leaf = (): JsonValue | undefined => {
    hooks.leaf?.(path, lhs, rhs);
    return rhs !== undefined ? rhs : lhs;
  };
  if (lhs !== undefined && rhs !== undefined && nl.kind !== nr.kind) return leaf();
  if (n.kind === 'scalar' || n.kind === 'unknown' || n.atomic) return leaf();
  let out: JsonValue | undefined;
  if (n.kind === 'list') {
    if (emptyList(lhs) && emptyList(rhs)) return leaf();
    out = mergeList(n, lhs, rhs, path, hooks);
  } else {
    if (emptyMap(lhs) && emptyMap(rhs)) return leaf();
    out = mergeMap(n, lhs, rhs, path, hooks);
  }
  hooks.post?.(path, lhs, rhs);
  return out;
}

function mergeList(n: Node & { kind: 'list' }, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: PathElement[], hooks: Hooks): JsonValue | undefined {
  const out: JsonValue[] = [];
  const rItems = Array.isArray(rhs) ? rhs : [];
  const lItems = Array.isArray(lhs) ? lhs : [];
  const rhsOrder: { id: string; pe: PathElement; v: JsonValue }[] = [];
  const observedR = new Map<string, JsonValue>();
  for (const item of rItems) {
    const pe = listItemElement(n, item, path);
    const id = JSON.stringify(pe);
    if (observedR.has(id)) throw new TypedError(`${pathToString(path)}: duplicate entries for key ${pathToString([pe])}`);
    observedR.set(id, item);
    rhsOrder.push({ id, pe, v: item });
  }
  const observedL = new Set<string>();
  for (const item of lItems) {
    const pe = listItemElement(n, item, path);
    const id = JSON.stringify(pe);
    if (observedL.has(id)) throw new TypedError(`${pathToString(path)}: duplicate entries for key ${pathToString([pe])}`);
    observedL.add(id);
    const m = mergeWalk(item, observedR.get(id), n.item, [...path, pe], hooks);
    if (m !== undefined) out.push(m);
  }
  for (const r of rhsOrder) {
    if (observedL.has(r.id)) continue;
    const m = mergeWalk(undefined, r.v, n.item, [...path, r.pe], hooks);
    if (m !== undefined) out.push(m);
  }
  return out.length > 0 ? out : undefined;
}

function mergeMap(n: Node & { kind: 'map' }, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: PathElement[], hooks: Hooks): JsonValue | undefined {
  const l = isObject(lhs) ? (lhs as JsonObject) : {};
  const r = isObject(rhs) ? (rhs as JsonObject) : {};
  const out: JsonObject = {};
  const keys = [...Object.keys(l), ...Object.keys(r).filter((k) => !Object.hasOwn(l, k))];
  for (const k of keys) {
    const m = mergeWalk(Object.hasOwn(l, k) ? l[k] : undefined, Object.hasOwn(r, k) ? r[k] : undefined, childSchema(n, k), [...path, field(k)], hooks);
    if (m !== undefined) out[k] = m;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Merges rhs into lhs: rhs wins at leaves; granular lists merge by key/value, granular maps by key. */
export function merge(lhs: JsonValue | undefined, rhs: JsonValue | undefined, schema: Schema | undefined): JsonValue | undefined {
  return mergeWalk(lhs, rhs, schema, [], {});
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
  mergeWalk(lhs, rhs, schema, [], {
    leaf(path, l, r) {
      if (l === undefined) c.added.insert(path);
      else if (r === undefined) c.removed.insert(path);
      else if (!jsonEqual(l, r)) c.modified.insert(path);
    },
    post(path, l, r) {
      if (l === undefined) c.added.insert(path);
      else if (r === undefined) c.removed.insert(path);
    },
  });
  return c;
}

export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as JsonValue[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const bo = b as JsonObject;
  return ka.length === Object.keys(bo).length && ka.every((k) => Object.hasOwn(bo, k) && jsonEqual((a as JsonObject)[k], bo[k]));
}

// ---------------------------------------------------------------------------
// removeItems.

/**
 * Removes every member of `set` (with everything beneath it) from a value.
 * A map entry whose value empties out is dropped, as the reference server's
 * typed round trip drops the resulting null.
 */
export function removeItems(value: JsonValue, set: FieldSet, schema: Schema | undefined): JsonValue {
  return removeWalk(value, set, schema, []) ?? null;
}

function removeWalk(v: JsonValue, set: FieldSet, s: Schema | undefined, path: PathElement[]): JsonValue | undefined {
  const n = resolve(s, v);
  if (n.kind === 'scalar' || n.kind === 'unknown') return v;
  if (n.atomic) return undefined;
  if (n.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0) return undefined;
    const out: JsonValue[] = [];
    for (const item of v) {
      const pe = listItemElement(n, item, path);
      if (set.hasMember(pe)) continue;
      const sub = set.withPrefix(pe);
      if (sub.empty()) out.push(item);
      else out.push(removeWalk(item, sub, n.item, [...path, pe]) ?? emptyLike(item));
    }
    return out.length > 0 ? out : undefined;
  }
  if (!isObject(v)) return undefined;
  const out: JsonObject = {};
  for (const [k, child] of Object.entries(v)) {
    const pe = field(k);
    if (set.hasMember(pe)) continue;
    const sub = set.withPrefix(pe);
    if (sub.empty()) out[k] = child as JsonValue;
    else {
      const r = removeWalk(child as JsonValue, sub, childSchema(n, k), [...path, pe]);
      if (r !== undefined) out[k] = r;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const emptyLike = (v: JsonValue): JsonValue => (Array.isArray(v) ? [] : isObject(v) ? {} : null);

// ---------------------------------------------------------------------------
// Schema-only walks over field sets.

function schemaOfChild(n: Node, pe: PathElement): Schema | undefined {
  if (pe.kind === 'field') return childSchema(n, pe.name);
  return n.kind === 'list' ? n.item : undefined;
}

/** Adds, as members, the declared struct fields that a set only passes through (so that prune can remove them). */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  const n = topology(schema);
  const out = new FieldSet();
  for (const pe of set.memberElements()) out.addMember(pe);
  for (const c of set.childEntries()) {
    if (c.pe.kind === 'field' && isNamedField(n, c.pe.name)) out.addMember(c.pe);
    out.setChild(c.pe, ensureNamedFieldsAreMembers(c.set, schemaOfChild(n, c.pe)));
  }
  return out;
}

/**
 * Reconciles a manager's set with the current schema: a subtree under a node
 * that is now atomic collapses into ownership of the node itself (granular →
 * atomic). Atomic → granular needs nothing. Returns the same set when unchanged.
 */
export function reconcileWithSchema(set: FieldSet, schema: Schema | undefined): FieldSet {
  let changed = false;
  const walk = (s: FieldSet, sch: Schema | undefined): FieldSet => {
    const n = topology(sch);
    const out = new FieldSet();
    for (const pe of s.memberElements()) out.addMember(pe);
    for (const c of s.childEntries()) {
      const cs = schemaOfChild(n, c.pe);
      if (isAtomicContainer(topology(cs))) {
        out.addMember(c.pe);
        changed = true;
      } else out.setChild(c.pe, walk(c.set, cs));
    }
    return out;
  };
  const r = walk(set, schema);
  return changed ? r : set;
}
