// PATCH (spec "Patch and apply"): the media type picks the patch (JSON patch,
// merge patch, strategic merge patch driven by the kind's schema); the patched
// object then goes the whole write path of an update — typed decoding and
// fieldValidation, defaulting, strategy, validation, admission — with
// optimistic concurrency: a patch naming a resourceVersion that is no longer
// current is 409; one naming none is retried on conflicts.
import { newBadRequest, newUnsupportedMediaType } from '../api/meta/index.js';
import { applyJsonPatch, applyMergePatch, applyStrategic, decodeJsonPatch, decodeMergePatch, decodeStrategicPatch, isPatchError, metaFromOpenAPI, patchErrorToStatus, type JsonObject, type JsonValue, type OpenAPISchema, type PatchMeta } from '../patch/index.js';
import type { Schema } from '../schema/model.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const MEDIA_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/** The patch type of a Content-Type; anything else is 415 listing what is accepted. */
export function patchTypeOf(contentType: string | undefined, schemaKnown: boolean): PatchType {
  const type = MEDIA_TYPES[(contentType ?? '').split(';')[0]!.trim().toLowerCase()];
  const accepted = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml', ...(schemaKnown ? ['application/strategic-merge-patch+json'] : [])];
  if (!type || (type === 'strategic' && !schemaKnown)) throw newUnsupportedMediaType(accepted);
  return type;
}

/** A decoded patch document, ready to apply to each attempt's current object. */
export type DecodedPatch =
  | { readonly type: 'json'; readonly ops: JsonValue[] }
  | { readonly type: 'merge' | 'strategic'; readonly doc: JsonObject };

function asStatus<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (isPatchError(err)) throw patchErrorToStatus(err);
    throw err;
  }
}

export function decodePatch(type: Exclude<PatchType, 'apply'>, text: string): DecodedPatch {
  return asStatus(() => {
    if (type === 'json') return { type, ops: decodeJsonPatch(text) };
    return { type, doc: type === 'merge' ? decodeMergePatch(text) : decodeStrategicPatch(text) };
  });
}

const metas = new WeakMap<Schema, PatchMeta>();

function patchMetaOf(schema: Schema): PatchMeta {
  let m = metas.get(schema);
  if (!m) metas.set(schema, (m = metaFromOpenAPI(schema as unknown as OpenAPISchema)));
  return m;
}

/** Applies a decoded patch to (a copy of) the current object as its client sees it. */
export function applyPatch(current: JsonObject, patch: DecodedPatch, schema: Schema | undefined): JsonObject {
  return asStatus(() => {
    let out: JsonValue;
    if (patch.type === 'json') out = applyJsonPatch(current, patch.ops);
    else if (patch.type === 'merge') out = applyMergePatch(current, patch.doc);
    else out = applyStrategic(structuredClone(current), structuredClone(patch.doc), schema ? patchMetaOf(schema) : undefined);
    if (typeof out !== 'object' || out === null || Array.isArray(out)) throw newBadRequest(`the patched object must be a JSON object, not ${Array.isArray(out) ? 'an array' : String(out)}`);
    return out as JsonObject;
  });
}
