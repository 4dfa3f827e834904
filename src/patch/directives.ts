// The strategic merge patch directives (keys and values that start with "$"), and
// how a value taken from the patch literally is cleaned.
//
//   $patch: replace | delete | merge       in a map, or as a list item
//   $retainKeys: [keys]                    clear the map's keys not listed
//   $setElementOrder/<list>: [items]       the order of <list> after the merge
//   $deleteFromPrimitiveList/<list>: [v]   remove values from a merged primitive list
import { PatchError } from './errors.js';
import { type JsonValue, isObject, put } from './json.js';

export const PATCH = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

// mergepatch's sentinel errors on the apply path (the API server answers them as 400/422)
export const ERR_BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
export const ERR_BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
export const ERR_BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
export const ERR_NO_LIST_OF_LISTS = 'lists of lists are not supported';

export function isDirectiveKey(k: string): boolean {
  return k === PATCH || k === RETAIN_KEYS || k.startsWith(SET_ELEMENT_ORDER) || k.startsWith(DELETE_FROM_PRIMITIVE_LIST);
}

/** "<prefix>/<list>" → "<list>"; anything else is the directive's format error (400). */
export function listKeyOf(key: string, prefix: typeof SET_ELEMENT_ORDER | typeof DELETE_FROM_PRIMITIVE_LIST): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw new PatchError('badDirective', prefix === SET_ELEMENT_ORDER ? ERR_BAD_SET_ELEMENT_ORDER : ERR_BAD_PRIMITIVE_LIST);
  }
  return key.slice(slash + 1);
}

/**
 * A patch value stored as it is (a new field, a replaced list, an appended list
 * item): map members that are null and directive keys are dropped at every depth.
 * v1.27 drops the nulls of new fields itself (discardNullValuesFromPatch) and leaves
 * the rest to its typed decoding, which discards unknown "$…" keys and null members;
 * for a schema-driven JSON store this is the same result.
 */
export function literal(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(literal);
  if (!isObject(v)) return v;
  const out: Record<string, JsonValue> = {};
  for (const k of Object.keys(v)) {
    const x = v[k]!;
    if (x !== null && !isDirectiveKey(k)) put(out, k, literal(x));
  }
  return out;
}
