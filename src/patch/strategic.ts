// application/strategic-merge-patch+json: a JSON merge patch whose lists merge as
// the schema says (PatchMeta), plus directives (directives.ts). Kubernetes v1.27
// semantics (apimachinery strategicpatch StrategicMergeMapPatch, server side):
//
//   mergeMap(live, patch):
//     1. "$patch" in the patch map: "replace" → the patch map without the directive;
//        "delete" → {}; anything else → 500 "unknown patch type: … in map: …"
//     2. "$retainKeys": [k…] → every other patch key (nulls and parallel lists
//        aside) must be listed (else 400), and live keys not listed are cleared
//     3. each "$setElementOrder/<f>": merge <f> now and order it by the list
//     4. every other key: null deletes; "$deleteFromPrimitiveList/<f>" removes values
//        from <f>; a key the live map lacks, or whose type differs, takes the patch
//        value (literal); maps merge recursively unless the field says "replace";
//        lists merge when the field says "merge" (strategic-list.ts), else are replaced
//
// The `retainKeys` patch strategy does nothing when applying (it tells clients to
// send $retainKeys). A "$patch: merge" directive is refused, as upstream refuses it.
// Pure: neither argument is modified. Errors are PatchErrors whose kinds map to the
// API server's answers (errors.ts). Strategic merge patch needs Go-typed schemas: for
// kinds without one (custom resources) the caller answers 415 and never calls this.
import { PatchError } from './errors.js';
import { DELETE_FROM_PRIMITIVE_LIST, ERR_BAD_RETAIN_KEYS, PATCH, RETAIN_KEYS, SET_ELEMENT_ORDER, listKeyOf, literal } from './directives.js';
import { goFormat, goTypeName } from './gofmt.js';
import { decodeObjectBody } from './gojson.js';
import { type JsonObject, type JsonValue, deepCopy, deepEqual, has, isObject, put } from './json.js';
import { NO_STRATEGY, type PatchMeta } from './meta.js';
import { type ListContext, badArgType, elementType, mergeSlice, noMergeKey, normalizeElementOrder, partition, same } from './strategic-list.js';

/** Applies a strategic merge patch to `original` as described by `meta` (undefined: no schema knowledge). */
export function applyStrategic(original: JsonObject, patch: JsonObject, meta: PatchMeta | undefined): JsonObject {
  return mergeMap(deepCopy(original), deepCopy(patch), meta);
}

/** Decodes a strategic merge patch body as v1.27 does (the error text has no "error decoding patch" prefix). */
export function decodeStrategicPatch(text: string): JsonObject {
  return decodeObjectBody(text, '');
}

const ctxFor = (meta: PatchMeta | undefined): ListContext => ({ mergeKey: meta?.mergeKey ?? '', items: meta?.items(), mergeMap });

/** Merges `patch` into `original`; both are this call's own copies and may be modified. */
function mergeMap(original: JsonObject, patch: JsonObject, meta: PatchMeta | undefined): JsonObject {
  if (has(patch, PATCH)) {
    const directive = patch[PATCH]!;
    if (directive === 'replace') {
      delete patch[PATCH];
      return literal(patch) as JsonObject;
    }
    if (directive === 'delete') return {};
    throw new PatchError('internal', `unknown patch type: ${goFormat(directive)} in map: ${goFormat(patch)}`);
  }
  retainKeys(original, patch);
  setElementOrder(original, patch, meta);

  for (const rawKey of Object.keys(patch)) {
    const value = patch[rawKey]!;
    let key = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      key = listKeyOf(rawKey, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (value === null) {
      delete original[key];
      continue;
    }
    const live = has(original, key) ? original[key]! : undefined;
    if (live === undefined || goTypeName(live) !== goTypeName(value)) {
      if (!isDeleteList) put(original, key, literal(value));
      continue;
    }
    if (isObject(live) && isObject(value)) {
      const field = meta?.field(key);
      const strategy = field?.strategy ?? NO_STRATEGY;
      put(original, key, strategy.replace ? (literal(value) as JsonObject) : mergeMap(live, value, field));
    } else if (Array.isArray(live) && Array.isArray(value)) {
      const field = meta?.field(key);
      const strategy = field?.strategy ?? NO_STRATEGY;
      put(original, key, strategy.merge ? mergeSlice(live, value, ctxFor(field), isDeleteList) : (literal(value) as JsonValue[]));
    } else put(original, key, value);
  }
  return original;
}

/** applyRetainKeysDirective (server side). */
function retainKeys(original: JsonObject, patch: JsonObject): void {
  if (!has(patch, RETAIN_KEYS)) return;
  const keys = patch[RETAIN_KEYS]!;
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(keys)) throw new PatchError('badDirective', ERR_BAD_RETAIN_KEYS);
  const listed = (k: string): boolean => keys.some((x) => x === k);
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!listed(k)) throw new PatchError('badDirective', ERR_BAD_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!listed(k)) delete original[k];
}

/** mergePatchIntoOriginal: each $setElementOrder/<f> merges <f> and fixes its order. */
function setElementOrder(original: JsonObject, patch: JsonObject, meta: PatchMeta | undefined): void {
  for (const directiveKey of Object.keys(patch)) {
    if (!directiveKey.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[directiveKey]!;
    delete patch[directiveKey];
    if (!Array.isArray(order)) throw badArgType('[]interface {}', order);
    const key = listKeyOf(directiveKey, SET_ELEMENT_ORDER);
    const liveValue = has(original, key) ? original[key]! : undefined;
    const patchValue = has(patch, key) ? patch[key]! : undefined;
    if (liveValue !== undefined && !Array.isArray(liveValue)) throw badArgType('[]interface {}', liveValue);
    if (patchValue !== undefined && !Array.isArray(patchValue)) throw badArgType('[]interface {}', patchValue);
    const field = meta?.field(key);
    const strategy = field?.strategy ?? NO_STRATEGY;
    const ctx = ctxFor(field);
    checkOrder(patchValue ?? [], order, ctx.mergeKey);

    let merged: JsonValue[];
    if (liveValue && patchValue) merged = strategy.merge ? mergeSlice(liveValue, patchValue, ctx, false) : (literal(patchValue) as JsonValue[]);
    else if (patchValue) merged = literal(patchValue) as JsonValue[];
    else if (liveValue) merged = liveValue;
    else continue;

    const isMap = elementType(liveValue ?? [], patchValue ?? []) === 'map';
    if (isMap && !ctx.mergeKey) throw new PatchError('internal', 'cannot merge lists without merge key for struct');
    const mergeKey = isMap ? ctx.mergeKey : '';
    const [inPatch, serverOnly] = partition(merged, order, mergeKey);
    put(original, key, normalizeElementOrder({ inPatch, serverOnly, patchOrder: order, serverOrder: liveValue ?? [], mergeKey }));
    delete patch[key];
  }
}

/** validatePatchWithSetOrderList: the patch items (deletions aside) appear in the order's relative order. */
function checkOrder(patchList: readonly JsonValue[], order: readonly JsonValue[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey) {
    for (const v of patchList) if (!isObject(v)) throw badArgType('map[string]interface {}', v);
    items = patchList.filter((v) => (v as JsonObject)[PATCH] !== 'delete');
  }
  const keyOf = (v: JsonValue): JsonValue => {
    if (!mergeKey) return v;
    if (!isObject(v)) throw badArgType('map[string]interface {}', v);
    if (!has(v, mergeKey)) throw noMergeKey(v, mergeKey);
    return v[mergeKey]!;
  };
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p]!;
    if (isObject(item) && has(item, PATCH)) {
      p++;
      continue;
    }
    if (mergeKey ? same(keyOf(item), keyOf(order[o]!)) : deepEqual(item, order[o]!)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw new PatchError('internal', `The order in patch list:\n${goFormat(patchList as JsonValue[])}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goFormat(order as JsonValue[])}\n`);
  }
}
