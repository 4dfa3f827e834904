// application/merge-patch+json (RFC 7386): applyMergePatch, and createMergePatch,
// its inverse for documents without nulls (a null in a merge patch means "delete").
// Both are pure. The API server accepts only an object as a merge patch body:
// decodeMergePatch rejects anything else with the 400 text of v1.27's strict decoder
// ("error decoding patch: json: cannot unmarshal array into Go value of type
// map[string]interface {}"); evanphx's MergePatch would reject it too ("Invalid JSON
// Patch") when field validation is Ignore.
import { decodeObjectBody } from './gojson.js';
import { type JsonObject, type JsonValue, deepCopy, deepEqual, has, isObject, put } from './json.js';

/** RFC 7386 MergePatch(target, patch); neither argument is modified. */
export function applyMergePatch(target: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return deepCopy(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const k of Object.keys(patch)) {
    const v = patch[k]!;
    if (v === null) delete out[k];
    else put(out, k, applyMergePatch(has(out, k) ? out[k]! : null, v));
  }
  // untouched members still share structure with `target`: copy them so callers own the result
  for (const k of Object.keys(out)) if (!has(patch, k)) put(out, k, deepCopy(out[k]!));
  return out;
}

/** A merge patch that turns `original` into `modified` (exact when `modified` holds no nulls). */
export function createMergePatch(original: JsonValue, modified: JsonValue): JsonValue {
  if (!isObject(original) || !isObject(modified)) return deepCopy(modified);
  const patch: JsonObject = {};
  for (const k of Object.keys(original)) if (!has(modified, k)) put(patch, k, null);
  for (const k of Object.keys(modified)) {
    const m = modified[k]!;
    if (!has(original, k)) {
      put(patch, k, deepCopy(m));
      continue;
    }
    const o = original[k]!;
    if (isObject(o) && isObject(m)) {
      const sub = createMergePatch(o, m) as JsonObject;
      if (Object.keys(sub).length > 0) put(patch, k, sub);
    } else if (!deepEqual(o, m)) put(patch, k, deepCopy(m));
  }
  return patch;
}

/** Decodes a merge patch request body as the v1.27 API server does (default, Warn/Strict field validation). */
export function decodeMergePatch(text: string): JsonObject {
  return decodeObjectBody(text, 'error decoding patch: ');
}
