// Server-side apply (structured-merge-diff in TypeScript). Import order, strict:
//   fieldpath (path → fieldset → fieldsv1: paths, FieldSet, FieldsV1)
//   → json, topology → pairwalk → typed (schema walks) → managed
//   (managedFields entries, conflicts) → engine (apply/update on decoded
//   entries) → merge (whole objects).
// Edges use applyObject/updateObject; ApplyConflictError → 409 with
// .message and .causes(); ApplyBadRequestError → 400; TypedError → 500
// "failed to create typed patch object (<ns>/<name>; <gvk>): <message>".
// FieldSets are read-only once used in set algebra or encoded, and the
// FieldsV1 objects in results are memoized and shared: never modify them.
export { encodedFieldsV1JSON, FieldSet, fromFieldsV1, toFieldsV1, pathToString, type FieldsV1, type Path, type PathElement } from './fieldpath.js';
export { TypedError, toFieldSet, compare, merge, removeItems } from './typed.js';
export { ApplyConflictError, conflictCauses, conflictMessage, decodeManaged, encodeManaged, incomingManaged, isResetRequest, ManagedFieldsError, type Conflict, type Managed } from './managed.js';
export { apply, applyObject, ApplyBadRequestError, BEFORE_FIRST_APPLY, STRIPPED, update, updateObject, type ApplyObjectOptions, type UpdateObjectOptions, type WriteResult } from './merge.js';
export type { VersionConverter } from './engine.js';
