// The field set of a create from nothing: what an Update's comparison of an
// empty object with the new one gives its writer — every leaf and granular
// container of the object (structured-merge-diff's compare with everything
// "added") — minus the ignored fields (their whole subtrees) and minus the
// members nobody owns (metadata, apiVersion, kind…), built in one walk
// instead of a comparison and two set differences. Creates of unstructured
// objects (custom resources, which start from {}) take it; the result is the
// same set, item for item (createset.test.ts checks it against the engine).
// A built-in kind's create starts from its Go zero object instead
// (createdFromZero): where that object has a value too, the walk does what
// the comparison does — a leaf is the writer's only when it differs, a
// granular container is walked but is no member itself
// (src/endpoints/createzero.test.ts checks it against the engine).
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { fieldEntry, FieldSet, type Entry, type PathElement } from './fieldpath.js';
import { emptyList, emptyMap, jsonEqual, type JsonObject } from './json.js';
import { childNode, duplicate, isLeaf, ItemFrame, itemKey, itemNode, resolve, topology, type Frame, type ListNode, type MapNode, type Node } from './topology.js';

export interface CreatedFieldSetOptions {
  /** Fields the write cannot set (their subtrees are left out, as recursiveDifference would). */
  readonly ignored?: FieldSet | undefined;
  /** Members nobody owns (left out as members, as difference would). */
  readonly notOwned?: FieldSet | undefined;
}

const entriesOf = FieldSet.entries;
const at = (e: Entry | undefined, key: string): Entry | undefined => (e?.child === undefined ? undefined : entriesOf(e.child).get(key));
const root = (set: FieldSet | undefined): Entry | undefined => (set === undefined ? undefined : { pe: { kind: 'field', name: '' }, member: false, child: set });

function emptyContainer(v: JsonValue): boolean {
  if (Array.isArray(v)) return v.length === 0;
  for (const _ in v as JsonObject) return false;
  return true;
}

/**
 * compare({}, obj).added, less `ignored` (recursively) and `notOwned` (as members),
 * for the object `obj` of `schema`. Throws TypedError where the comparison would
 * (duplicate or malformed items of associative lists).
 */
export function createdFieldSet(obj: JsonObject, schema: Schema | undefined, o: CreatedFieldSetOptions = {}): FieldSet {
  const out = new FieldSet();
  const n = resolve(topology(schema), obj);
  // An object the schema does not see as a granular map is one leaf, the root, which is never a member.
  if (n.kind !== 'map' || n.atomic) return out;
  new Builder().fields(obj, n, out, root(o.notOwned), root(o.ignored));
  return out;
}

/**
 * compare(zero, obj)'s added and modified fields, less `ignored` (recursively)
 * and `notOwned` (as members): the writer's set of a create that starts from
 * the Go zero object `zero`. Undefined where the one walk does not apply (the
 * zero object holds list items, or obj is no granular map): the engine compares.
 */
export function createdFromZero(obj: JsonObject, zero: JsonObject, schema: Schema | undefined, o: CreatedFieldSetOptions = {}): FieldSet | undefined {
  const n = resolve(topology(schema), obj);
  if (n.kind !== 'map' || n.atomic || hasListItems(zero)) return undefined;
  const out = new FieldSet();
  new Builder().fieldsOver(obj, zero, n, out, root(o.notOwned), root(o.ignored));
  return out;
}

/** Whether a list anywhere in `v` has items (a Go zero object's lists are null): memoized per zero object. */
const itemsIn = new WeakMap<object, boolean>();
function hasListItems(v: JsonObject): boolean {
  let has = itemsIn.get(v);
  if (has === undefined) itemsIn.set(v, (has = anyItems(v)));
  return has;
}
function anyItems(v: JsonValue | undefined): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (!isObject(v)) return false;
  for (const k in v as JsonObject) if (anyItems((v as JsonObject)[k])) return true;
  return false;
}

class Builder {
  /** The path, for the errors of list items. */
  private readonly stack: Frame[] = [];

  /** Every entry of the map `obj` into `into`. */
  fields(obj: JsonObject, n: MapNode, into: FieldSet, sk: Entry | undefined, ig: Entry | undefined): void {
    for (const k in obj) {
      const { key, pe } = fieldEntry(k);
      this.stack.push(k);
      this.value(obj[k], childNode(n, k), into, key, pe, at(sk, key), at(ig, key));
      this.stack.pop();
    }
  }

  /** The entries of `obj` where the zero object is `zero` (null, or a map): beside a value of zero, as the comparison; elsewhere, added. */
  fieldsOver(obj: JsonObject, zero: JsonValue | undefined, n: MapNode, into: FieldSet, sk: Entry | undefined, ig: Entry | undefined): void {
    const z = isObject(zero) ? (zero as JsonObject) : undefined;
    for (const k in obj) {
      const { key, pe } = fieldEntry(k);
      this.stack.push(k);
      if (z !== undefined && Object.hasOwn(z, k) && z[k] !== undefined) this.over(obj[k], z[k], childNode(n, k), into, key, pe, at(sk, key), at(ig, key));
      else this.value(obj[k], childNode(n, k), into, key, pe, at(sk, key), at(ig, key));
      this.stack.pop();
    }
  }

  /**
   * `v` where the zero object has `z` (pairwalk's Comparer with both sides):
   * a leaf, values of different shapes, or two empty containers — the
   * writer's when they differ; a granular container — walked, no member.
   */
  private over(v: JsonValue | undefined, z: JsonValue, t: Node, into: FieldSet, key: string, pe: PathElement, sk: Entry | undefined, ig: Entry | undefined): void {
    if (v === undefined || ig?.member) return; // absent from obj: removed, nobody's
    const member = sk?.member !== true;
    const nz = resolve(t, z);
    const nv = resolve(t, v);
    const differs = () => {
      if (member && !jsonEqual(z, v)) into.memberAt(key, pe);
    };
    if (nz.kind !== nv.kind || isLeaf(nv)) return differs();
    if (nv.kind === 'list') {
      if (emptyList(z) && emptyList(v)) return differs();
      // the zero object's lists have no items (createdFromZero checked): every item of v is added
      this.items(v as JsonValue[], nv, into.childAt(key, pe), sk, ig);
    } else {
      if (emptyMap(z) && emptyMap(v)) return differs();
      this.fieldsOver(v as JsonObject, z, nv as MapNode, into.childAt(key, pe), sk, ig);
    }
    into.settle(key);
  }

  /** The value `v` (a node of topology `t`) at `key` of `into`: a leaf member, or a container member with its subtree. */
  private value(v: JsonValue | undefined, t: Node, into: FieldSet, key: string, pe: PathElement, sk: Entry | undefined, ig: Entry | undefined): void {
    if (ig?.member) return;
    const member = sk?.member !== true;
    const n = resolve(t, v);
    if (v === undefined || v === null || typeof v !== 'object' || isLeaf(n) || emptyContainer(v)) {
      if (member) into.memberAt(key, pe);
      return;
    }
    const child = into.childAt(key, pe);
    if (n.kind === 'list') this.items(v as JsonValue[], n, child, sk, ig);
    else if (n.kind === 'map') this.fields(v as JsonObject, n, child, sk, ig);
    if (member) into.memberAt(key, pe);
    into.settle(key);
  }

  /** The items of a granular list, each at its key or value; duplicates throw before any is added. */
  private items(items: JsonValue[], n: ListNode, into: FieldSet, sk: Entry | undefined, ig: Entry | undefined): void {
    const frames: ItemFrame[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const f = new ItemFrame(itemKey(n, item, this.stack), n, item);
      if (seen.has(f.key)) throw duplicate(this.stack, f);
      seen.add(f.key);
      frames.push(f);
    }
    const it = itemNode(n);
    for (const f of frames) {
      this.stack.push(f);
      this.value(f.item, it, into, f.key, f.pe, at(sk, f.key), at(ig, f.key));
      this.stack.pop();
    }
  }
}

/** Whether `v` is an object with no keys (what an unstructured create starts from). */
export function isEmptyObject(v: JsonValue | undefined): boolean {
  return isObject(v) && emptyContainer(v);
}
