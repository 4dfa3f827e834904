// src/patch: the three PATCH body types of Kubernetes v1.27, as pure functions on
// JSON values, with errors typed for the HTTP layer.
//
//   application/json-patch+json            decodeJsonPatch → applyJsonPatch       (jsonpatch.ts)
//   application/merge-patch+json           decodeMergePatch → applyMergePatch      (mergepatch.ts)
//   application/strategic-merge-patch+json decodeStrategicPatch → applyStrategic   (strategic.ts,
//                                          driven by PatchMeta from meta.ts)
//
// Every failure is a PatchError; patchErrorToStatus (errors.ts) gives the Status the
// API server answers with. Module order: json, pointer, rawjson, gojson, gofmt → errors →
// jsonpatch, mergepatch → meta, directives → strategic-list → strategic.
// testkit.ts is test support only.
export { PatchError, type PatchErrorKind, isPatchError, patchErrorToStatus, UNPROCESSABLE_MESSAGE } from './errors.js';
export type { JsonObject, JsonPrimitive, JsonValue } from './json.js';
export { applyJsonPatch, decodeJsonPatch, runJsonPatch, type DecodedJsonPatch, type JsonPatchOp, type JsonPatchOperation, type JsonPatchOptions, type JsonPatchResult, type JsonPatchValidation, MAX_JSON_PATCH_COPY_BYTES, MAX_JSON_PATCH_OPERATIONS } from './jsonpatch.js';
export { applyMergePatch, createMergePatch, decodeMergePatch } from './mergepatch.js';
export { metaFromOpenAPI, parsePatchStrategy, type OpenAPIMetaOptions, type OpenAPISchema, type PatchKind, type PatchMeta, type PatchStrategy } from './meta.js';
export { applyStrategic, decodeStrategicPatch } from './strategic.js';
