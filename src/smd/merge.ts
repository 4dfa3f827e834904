// Server-side apply and managedFields maintenance of whole objects (the
// managedFields wrappers of Kubernetes' fieldmanager) around the engine in
// engine.ts: metadata.managedFields is decoded, maintained and re-encoded;
// the first apply to an object with no managedFields first records its
// existing fields under "before-first-apply"; a non-create update of an
// object with no managedFields is not tracked.
import type { JsonValue } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { pathToString } from './fieldpath.js';
import { compareEntries, decodeManaged, encodeEntry, encodeManaged, incomingManaged, isResetRequest, type Conflict, type Managed } from './managed.js';
import { applyMerged, BEFORE_FIRST_APPLY, STRIPPED, update, type EngineOptions } from './engine.js';
import { createdFieldSet, createdFromZero, isEmptyObject } from './createset.js';
import { intern } from './intern.js';
import { fastUpdate } from './fastupdate.js';
import { cloneJson, jsonEqual, markReconciled, type JsonObject } from './typed.js';

export { apply, BEFORE_FIRST_APPLY, STRIPPED, update, type ApplyInput, type EngineOptions, type UpdateInput } from './engine.js';
export type { Conflict, JsonObject };

/** A request the reference server rejects with 400 before merging. */
export class ApplyBadRequestError extends Error {
  override name = 'ApplyBadRequestError';
}

/** The object without metadata.managedFields: itself when it has none, else a copy of its top level and metadata. */
function withoutManagedFields(obj: JsonObject): JsonObject {
  const meta = obj.metadata;
  if (!isObject(meta) || !Object.hasOwn(meta, 'managedFields')) return obj;
  const { managedFields: _, ...rest } = meta as JsonObject;
  return { ...obj, metadata: rest };
}

/** The object (without managedFields) with `managed` encoded into metadata.managedFields. */
function withManaged(obj: JsonObject, managed: Managed): JsonObject {
  const encoded = encodeManaged(managed);
  if (encoded === undefined) return obj;
  const meta = isObject(obj.metadata) ? (obj.metadata as JsonObject) : {};
  return { ...obj, metadata: { ...meta, managedFields: encoded as unknown as JsonValue } };
}

export interface WriteResult {
  /** The object to persist, with metadata.managedFields maintained. */
  object: JsonObject;
  /** False when the write changed nothing but (possibly) managedFields. */
  changed: boolean;
}

export interface ApplyObjectOptions extends Omit<EngineOptions, 'apiVersion'> {
  /** The live object; `undefined` when the apply creates it. */
  live: JsonObject | undefined;
  /** The applied (partial) object. */
  config: JsonObject;
  manager: string;
  apiVersion: string;
  force: boolean;
  /** The kind's zero object (what a create starts from); default {}. */
  empty?: JsonObject;
}

/**
 * Server-side apply of a whole object (PATCH application/apply-patch+yaml).
 * The result shares nothing with `live` or `config` except the FieldsV1
 * objects of metadata.managedFields, which are memoized: treat them as read-only.
 */
export function applyObject(o: ApplyObjectOptions): WriteResult {
  const meta = o.config.metadata;
  if (isObject(meta) && meta.managedFields !== undefined) throw new ApplyBadRequestError('metadata.managedFields must be nil');
  if (typeof o.config.apiVersion === 'string' && o.config.apiVersion !== o.apiVersion) {
    throw new ApplyBadRequestError(`Incorrect version specified in apply patch. Specified patch version: ${o.config.apiVersion}, expected: ${o.apiVersion}`);
  }
  let managed = decodeManaged(o.live && isObject(o.live.metadata) ? (o.live.metadata as JsonObject).managedFields : undefined);
  const empty = o.empty ?? {};
  const live = o.live ? withoutManagedFields(o.live) : empty;
  if (managed.size === 0 && o.live !== undefined) {
    managed = update({ ...o, live: empty, updated: live, manager: BEFORE_FIRST_APPLY, managed });
  }
  const r = applyMerged({ ...o, live, managed });
  // An apply that changes nothing leaves the object as it was, key order included.
  return { object: withManaged(r.unchanged ? cloneJson(live) : r.merged, r.managed), changed: !r.unchanged };
}

export interface UpdateObjectOptions extends Omit<EngineOptions, 'apiVersion'> {
  /** The live object; `undefined` on create. */
  live: JsonObject | undefined;
  /** The object about to be persisted, as the request produced it (it may carry managedFields). */
  updated: JsonObject;
  manager: string;
  apiVersion: string;
  /** Whether this write creates the object (default: live is undefined). Creates are always tracked. */
  isCreate?: boolean;
  empty?: JsonObject;
}

/**
 * managedFields maintenance for POST, PUT and non-apply PATCH. The result
 * may share parts with `updated` (never with `live`); its FieldsV1 objects
 * are memoized: treat them as read-only.
 */
export function updateObject(o: UpdateObjectOptions): WriteResult {
  if (o.live && !o.isCreate) {
    const fast = fastUpdate(o as UpdateObjectOptions & { live: JsonObject });
    if (fast) return fast;
  }
  if (o.live === undefined && o.isCreate !== false) {
    const created = createdDirectly(o);
    if (created) return created;
  }
  return generalUpdate(o);
}

/**
 * A create whose body names no managedFields: the engine would compare the
 * object a create starts from with the new one, give its writer what was
 * added or changed and record one Update entry — here that set is made
 * directly and the entry written once (encodeEntry), without the engine's
 * bookkeeping of other managers (there are none). From nothing (an
 * unstructured kind starts from {}) the set is built in one walk
 * (createset.ts); from a kind's Go zero object it is that comparison's
 * added and modified fields, in one walk too. Undefined when managedFields
 * were sent or the zero object holds list items: the engine decides.
 */
function createdDirectly(o: UpdateObjectOptions): WriteResult | undefined {
  const meta = o.updated.metadata;
  if (!isObject(meta) || Object.hasOwn(meta, 'managedFields')) return undefined;
  const empty = o.empty ?? {};
  const fromNothing = isEmptyObject(empty);
  const sets = { ignored: o.ignored, notOwned: STRIPPED };
  const set = fromNothing ? createdFieldSet(o.updated, o.schema, sets) : createdFromZero(o.updated, empty, o.schema, sets);
  if (set === undefined) return undefined; // a zero object with list items: the engine compares
  const changed = fromNothing ? !isEmptyObject(o.updated) : !jsonEqual(empty, o.updated);
  if (set.empty()) return { object: o.updated, changed };
  // As the engine leaves a set: interned, and known to be reconciled with the schema it was made with.
  const fields = intern(set);
  markReconciled(fields, o.schema);
  const entry = encodeEntry({ manager: o.manager, operation: 'Update', apiVersion: o.apiVersion, time: o.now(), fields, ...(o.subresource ? { subresource: o.subresource } : {}) });
  return { object: { ...o.updated, metadata: { ...(meta as JsonObject), managedFields: [entry] as unknown as JsonValue } }, changed };
}

/** updateObject through the engine, whatever the change (exported for the fast path's equivalence test). */
export function generalUpdate(o: UpdateObjectOptions): WriteResult {
  const liveMeta = o.live && isObject(o.live.metadata) ? (o.live.metadata as JsonObject) : undefined;
  const reqMeta = isObject(o.updated.metadata) ? (o.updated.metadata as JsonObject) : undefined;
  let managed = incomingManaged({ live: liveMeta?.managedFields, request: reqMeta?.managedFields, ...(o.subresource ? { subresource: o.subresource } : {}) });
  const updated = withoutManagedFields(o.updated);
  const live = o.live ? withoutManagedFields(o.live) : (o.empty ?? {});
  const changed = !jsonEqual(live, updated);
  const isCreate = o.isCreate ?? o.live === undefined;
  // An object nobody tracks stays untracked, except after a reset: the reset
  // comes first and the request's other changes then belong to its manager (item 13).
  const reset = !o.subresource && isResetRequest(reqMeta?.managedFields);
  if (managed.size === 0 && !isCreate && !reset) return { object: updated, changed };
  managed = update({ ...o, live, updated, managed });
  return { object: withManaged(updated, managed), changed };
}

/** For diagnostics: every entry's paths, one per line. */
export function describeManaged(managed: Managed): string {
  return [...managed.values()]
    .sort(compareEntries)
    .map((e) => `${e.manager}/${e.operation}: ${e.fields.paths().map(pathToString).join(' ')}`)
    .join('\n');
}
