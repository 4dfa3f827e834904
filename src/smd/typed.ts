// Typed walks: a JSON object read through a structural schema (structured-merge-diff's
// `typed` package), as Kubernetes v1.26/1.27 (structured-merge-diff v4.2) has
// them: toFieldSet, compare, merge (keep right-hand side), removeItems,
// ensureNamedFieldsAreMembers and the schema-change reconciliation. The
// topology rules are in topology.ts, merge and compare in pairwalk.ts.
//
// The walks build field sets in place (no path arrays per node) and keep the
// current path on one stack for error messages.
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { fieldEntry, FieldSet, index, pathToString, type PathElement } from './fieldpath.js';
import type { JsonObject } from './json.js';
import { childNode, declared, duplicate, elementNode, framePath, isAtomicContainer, isLeaf, isNamedField, itemKey, ItemFrame, itemNode, nodeOfChild, resolve, topology, TypedError, type Frame, type MapNode, type Node } from './topology.js';

export type { JsonObject } from './json.js';
export { cloneJson, jsonEqual } from './json.js';
export { TypedError } from './topology.js';
export { compare, isSame, merge, mergeApply, type Comparison, type Ownership } from './pairwalk.js';

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
  const stack: Frame[] = [];
  let hollow = false;
  /** Walks v at entry `key` of `parent`; true when v was recorded as a leaf member there. */
  const visit = (v: JsonValue, t: Node, parent: FieldSet, key: string, pe: PathElement): boolean => {
    const n = resolve(t, v);
    if (isLeaf(n)) {
      parent.memberAt(key, pe);
      if (strict) declaredWithin(v, n, framePath(stack)); // an atomic value is one member, but its fields are typed too
      return true;
    }
    if (n.kind === 'list' ? !Array.isArray(v) || v.length === 0 : !isObject(v)) return false;
    children(n, v, parent.childAt(key, pe));
    parent.settle(key);
    return false;
  };
  /** The undeclared fields anywhere inside an atomic value (SMD validates the whole typed value); items by index. */
  const declaredWithin = (v: JsonValue, n: Node, path: PathElement[]): void => {
    if (n.kind === 'list') {
      if (Array.isArray(v)) v.forEach((item, i) => declaredWithin(item, resolve(itemNode(n), item), [...path, index(i)]));
      return;
    }
    if (n.kind !== 'map' || !isObject(v)) return;
    for (const k in v) {
      const d = declared(n, k);
      if ((n as MapNode).strict && d === undefined) {
        errors.push(`${pathToString([...path, fieldEntry(k).pe])}: field not declared in schema`);
        continue;
      }
      declaredWithin(v[k]!, resolve(d ? d.node : elementNode(n), v[k]!), [...path, fieldEntry(k).pe]);
    }
  };
  const children = (n: Node, v: JsonValue, node: FieldSet): void => {
    if (n.kind === 'list') {
      for (const item of v as JsonValue[]) {
        const f = new ItemFrame(itemKey(n, item, stack), n, item);
        if (node.isMemberKey(f.key)) throw duplicate(stack, f);
        const pe = f.pe;
        stack.push(f);
        const leaf = visit(item, itemNode(n), node, f.key, pe);
        stack.pop();
        node.memberAt(f.key, pe);
        if (!leaf && !node.hasChildKey(f.key)) hollow = true;
      }
      return;
    }
    const obj = v as JsonObject;
    for (const k in obj) {
      const d = declared(n, k);
      const fe = d ?? fieldEntry(k);
      if (strict && (n as MapNode).strict && d === undefined) {
        errors.push(`${pathToString([...framePath(stack), fe.pe])}: field not declared in schema`);
        continue;
      }
      stack.push(k);
      const leaf = visit(obj[k]!, d ? d.node : elementNode(n), node, fe.key, fe.pe);
      stack.pop();
      if (d === undefined) {
        node.memberAt(fe.key, fe.pe);
        if (!leaf && !node.hasChildKey(fe.key)) hollow = true;
      }
    }
  };
  const n = resolve(topology(schema), value);
  if (!isLeaf(n) && (n.kind === 'list' ? Array.isArray(value) : isObject(value))) children(n, value, root);
  if (errors.length === 1) throw new TypedError(errors[0]!);
  if (errors.length > 1) throw new TypedError(`errors:\n  ${errors.join('\n  ')}`);
  return { set: root, hollow };
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
  return removeWalk(value, set.freeze(), topology(schema), []) ?? null;
}

function removeWalk(v: JsonValue, set: FieldSet, t: Node, stack: Frame[]): JsonValue | undefined {
  const n = resolve(t, v);
  if (n.kind === 'scalar' || n.kind === 'unknown') return v;
  if (n.atomic) return undefined;
  if (n.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0) return undefined;
    const out: JsonValue[] = [];
    for (const item of v) {
      const key = itemKey(n, item, stack);
      if (set.isMemberKey(key)) continue;
      const sub = set.childByKey(key);
      if (sub.empty()) out.push(item);
      else {
        stack.push(new ItemFrame(key, n, item));
        out.push(removeWalk(item, sub, itemNode(n), stack) ?? emptyLike(item));
        stack.pop();
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
      stack.push(k);
      const r = removeWalk(v[k] as JsonValue, sub, childNode(n, k), stack);
      stack.pop();
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

const entriesOf = FieldSet.entries;

/** Adds, as members, the declared struct fields that a set only passes through (so that prune can remove them). */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  return ensureNamed(set, topology(schema));
}

function ensureNamed(set: FieldSet, n: Node): FieldSet {
  const out = new FieldSet();
  for (const [k, e] of entriesOf(set)) {
    if (e.member || (e.child !== undefined && e.pe.kind === 'field' && isNamedField(n, e.pe.name))) out.memberAt(k, e.pe);
    if (e.child !== undefined) out.setChildAt(k, e.pe, ensureNamed(e.child, nodeOfChild(n, e.pe)));
  }
  return out;
}

/** Whether some subtree of `set` lies under a node the schema now makes atomic. */
function needsReconcile(set: FieldSet, n: Node): boolean {
  for (const e of entriesOf(set).values()) {
    if (e.child === undefined) continue;
    const c = nodeOfChild(n, e.pe);
    if (isAtomicContainer(c) || needsReconcile(e.child, c)) return true;
  }
  return false;
}

/** Records that `set` needs no reconciling with `schema` (the engine's own results, made with that schema). */
export function markReconciled(set: FieldSet, schema: Schema | undefined): void {
  set.freeze();
  const memo = (set.memo ??= {});
  memo.schema = schema;
  memo.reconciled = set;
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
  const walk = (s: FieldSet, n: Node): FieldSet => {
    const out = new FieldSet();
    for (const [k, e] of entriesOf(s)) {
      if (e.member) out.memberAt(k, e.pe);
      if (e.child === undefined) continue;
      const c = nodeOfChild(n, e.pe);
      if (isAtomicContainer(c)) out.memberAt(k, e.pe);
      else out.setChildAt(k, e.pe, walk(e.child, c));
    }
    return out;
  };
  const t = topology(schema);
  const r = needsReconcile(set, t) ? walk(set, t).freeze() : set;
  memo.schema = schema;
  memo.reconciled = r;
  return r;
}


