// Strategic merge patch for lists (apimachinery strategicpatch mergeSlice and its
// ordering helpers). A list whose field declares patchStrategy "merge":
//
//   primitives   a set: original ∪ patch, duplicates removed; a parallel
//                $deleteFromPrimitiveList/<field> removes values instead
//   maps         items matched by the merge key: matched items merge recursively,
//                new items are appended; items {"$patch": "delete", <key>: v} delete
//                every match, an item {"$patch": "replace"} makes the other patch
//                items the whole list; {"$patch": "merge"} is refused (500, as upstream)
//
// Order afterwards: items named by the patch keep the patch's order, the others keep
// the live order, and the two sequences are interleaved by the live order — so a new
// item lands before the first live item that follows it (patch items that are not
// live go first). $setElementOrder/<field> replaces "the patch's order" with its own.
import { PatchError } from './errors.js';
import { ERR_NO_LIST_OF_LISTS, PATCH, literal } from './directives.js';
import { goFormat, goTypeName } from './gofmt.js';
import { type JsonObject, type JsonValue, deepEqual, has, isObject } from './json.js';
import type { PatchMeta } from './meta.js';

export type MergeMap = (original: JsonObject, patch: JsonObject, meta: PatchMeta | undefined) => JsonObject;

export interface ListContext {
  /** The field's patchMergeKey ("" for primitive lists). */
  readonly mergeKey: string;
  readonly items: PatchMeta | undefined;
  readonly mergeMap: MergeMap;
}

const internal = (message: string): PatchError => new PatchError('internal', message);

export function noMergeKey(m: JsonValue, key: string): PatchError {
  return internal(`map: ${goFormat(m)} does not contain declared merge key: ${key}`);
}

export function badArgType(expected: string, actual: JsonValue): PatchError {
  return internal(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}

/** Go `==` on decoded JSON values (maps never compare equal there; here they compare structurally). */
export function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a === b || (typeof a === 'object' && typeof b === 'object' && deepEqual(a, b));
}

/** The one element type of all the lists (sliceElementType): 'map', a scalar type name, or an error. */
export function elementType(...lists: readonly (readonly JsonValue[])[]): string {
  let type: string | undefined;
  for (const l of lists) {
    for (const v of l) {
      const t = goTypeName(v);
      if (type === undefined) {
        if (Array.isArray(v)) throw new PatchError('unprocessable', ERR_NO_LIST_OF_LISTS);
        type = t;
      } else if (t !== type) throw internal(`list element types are not identical: ${goFormat(lists as JsonValue[][])}`);
    }
  }
  if (type === undefined) throw internal('no elements in any of the given slices');
  return type === 'map[string]interface {}' ? 'map' : type;
}

export function mergeSlice(original: JsonValue[], patch: JsonValue[], ctx: ListContext, isDeleteList: boolean): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const isMap = elementType(original, patch) === 'map';
  if (!isMap) {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => same(d, v)));
    const merged: JsonValue[] = [];
    for (const v of [...original, ...patch]) if (!merged.some((m) => same(m, v))) merged.push(v);
    const [inPatch, serverOnly] = partition(merged, patch, '');
    return normalizeElementOrder({ inPatch, serverOnly, patchOrder: patch, serverOrder: original, mergeKey: '' });
  }
  if (!ctx.mergeKey) throw internal('cannot merge lists without merge key for struct');
  const [live, rest] = specialElements(original as JsonObject[], patch as JsonObject[], ctx.mergeKey);
  const merged = mergeItems(live, rest, ctx);
  const [inPatch, serverOnly] = partition(merged, rest, ctx.mergeKey);
  return normalizeElementOrder({ inPatch, serverOnly, patchOrder: rest, serverOrder: live, mergeKey: ctx.mergeKey });
}

/** Applies $patch items: returns the live list after deletions and the patch items left to merge. */
function specialElements(original: JsonObject[], patch: JsonObject[], mergeKey: string): [JsonObject[], JsonObject[]] {
  let live = original;
  const rest: JsonObject[] = [];
  let replace = false;
  for (const item of patch) {
    if (!has(item, PATCH)) {
      rest.push(item);
      continue;
    }
    const directive = item[PATCH]!;
    if (directive === 'delete') {
      if (!has(item, mergeKey)) throw noMergeKey(item, mergeKey);
      live = live.filter((o) => !(has(o, mergeKey) && same(o[mergeKey], item[mergeKey])));
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw internal('merging lists cannot yet be specified in the patch');
    else throw internal(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(item)}`);
  }
  if (replace) return [rest.map((i) => literal(i) as JsonObject), []];
  return [live, rest];
}

function mergeItems(live: JsonObject[], patch: JsonObject[], ctx: ListContext): JsonValue[] {
  const out: JsonObject[] = live.slice();
  for (const item of patch) {
    if (!has(item, ctx.mergeKey)) throw noMergeKey(item, ctx.mergeKey);
    const i = out.findIndex((o) => has(o, ctx.mergeKey) && same(o[ctx.mergeKey], item[ctx.mergeKey]));
    if (i >= 0) out[i] = ctx.mergeMap(out[i]!, item, ctx.items);
    else out.push(literal(item) as JsonObject);
  }
  return out;
}

/** Splits `list` into the items present in `by` (by merge key, or by value) and the rest. */
export function partition(list: readonly JsonValue[], by: readonly JsonValue[], mergeKey: string): [JsonValue[], JsonValue[]] {
  const inBy: JsonValue[] = [];
  const rest: JsonValue[] = [];
  for (const v of list) {
    let found: boolean;
    if (!mergeKey) found = by.some((b) => same(b, v));
    else {
      if (!isObject(v)) throw badArgType('map[string]interface {}', v);
      if (!has(v, mergeKey)) throw noMergeKey(v, mergeKey);
      found = by.some((b) => {
        if (!isObject(b)) throw internal('value for key 0 is not a map.');
        return has(b, mergeKey) && same(b[mergeKey], v[mergeKey]);
      });
    }
    (found ? inBy : rest).push(v);
  }
  return [inBy, rest];
}

function indexIn(list: readonly JsonValue[], v: JsonValue, mergeKey: string): number {
  const key = (x: JsonValue): JsonValue | undefined => (mergeKey ? (isObject(x) ? x[mergeKey] : undefined) : x);
  const want = key(v);
  return list.findIndex((x) => same(key(x) ?? null, want ?? null));
}

/** normalizeSliceOrder: sort by position in `order` (stable), "$patch: delete" items last. */
function sortByOrder(toSort: JsonValue[], order: readonly JsonValue[], mergeKey: string): JsonValue[] {
  let items = toSort;
  let deletes: JsonValue[] = [];
  if (mergeKey) {
    for (const l of [toSort, order]) {
      for (const v of l) {
        if (!isObject(v)) throw badArgType('map[string]interface {}', v);
        if (!has(v, mergeKey)) throw noMergeKey(v, mergeKey);
      }
    }
    items = toSort.filter((v) => !(isObject(v) && v[PATCH] === 'delete'));
    deletes = toSort.filter((v) => isObject(v) && v[PATCH] === 'delete');
  }
  const keyed = items.map((v, i) => ({ v, i, at: indexIn(order, v, mergeKey) }));
  keyed.sort((a, b) => (a.at >= 0 && b.at >= 0 ? a.at - b.at : 0) || a.i - b.i);
  return [...keyed.map((k) => k.v), ...deletes];
}

export interface ElementOrder {
  readonly inPatch: JsonValue[];
  readonly serverOnly: JsonValue[];
  readonly patchOrder: readonly JsonValue[];
  readonly serverOrder: readonly JsonValue[];
  readonly mergeKey: string;
}

/** normalizeElementOrder + mergeSortedSlice: both sorted, then interleaved by the live order. */
export function normalizeElementOrder(o: ElementOrder): JsonValue[] {
  const right = sortByOrder(o.inPatch, o.patchOrder, o.mergeKey);
  const left = sortByOrder(o.serverOnly, o.serverOrder, o.mergeKey);
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]!);
    else if (i >= left.length) out.push(right[j++]!);
    else {
      const li = indexIn(o.serverOrder, left[i]!, o.mergeKey);
      const ri = indexIn(o.serverOrder, right[j]!, o.mergeKey);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]!);
      else out.push(right[j++]!);
    }
  }
  return out;
}
