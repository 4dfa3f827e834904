// The apply and update engine (structured-merge-diff's merge.Updater plus the
// managedFields wrappers of Kubernetes' fieldmanager), as set algebra:
//
//   apply(live, config):
//     merged  = merge(live, config)            rhs wins; lists by key/value; atomic replaced
//     set     = toFieldSet(config) − ignored    the applier's new ownership
//     merged  = prune(merged)                  drop what the applier applied last time,
//                                              omits now, and nobody else owns
//     compare(live, merged) → for every other manager:
//        owned ∩ (modified ∪ added) ≠ ∅  → conflict (unless force: they lose it)
//        owned − removed
//   update(live, new):  same comparison, force always; the updater takes
//                       (modified ∪ added) − removed on top of what it had
//
// Around it, as the reference server: metadata/type fields are never owned
// (strip set); an apply that changes nothing does not touch the entry's time;
// the first apply to an object with no managedFields first records its
// existing fields under "before-first-apply"; a non-create update of an object
// with no managedFields is not tracked; Update entries are capped at 10.
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { field, FieldSet, pathToString } from './fieldpath.js';
import {
  ApplyConflictError,
  capUpdateManagers,
  compareEntries,
  conflict,
  decodeManaged,
  encodeManaged,
  incomingManaged,
  isResetRequest,
  managerId,
  type Conflict,
  type Managed,
  type ManagedEntry,
  type ManagerInfo,
} from './managed.js';
import { cloneJson, compare, ensureNamedFieldsAreMembers, fieldSetOf, jsonEqual, merge, reconcileWithSchema, removeItems, toFieldSet, type Comparison, type JsonObject } from './typed.js';

export type { Conflict, JsonObject };

/** Fields no manager ever owns (Kubernetes' stripMetaManager). */
export const STRIPPED = FieldSet.of(
  [field('apiVersion')],
  [field('kind')],
  [field('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => [field('metadata'), field(n)]),
);

export const BEFORE_FIRST_APPLY = 'before-first-apply';
const CURRENT_OPERATION = 'current-operation';

/** A request the reference server rejects with 400 before merging. */
export class ApplyBadRequestError extends Error {
  override name = 'ApplyBadRequestError';
}

export interface EngineOptions {
  schema: Schema | undefined;
  /** The served groupVersion (e.g. "apps/v1"), recorded as the entry's apiVersion. */
  apiVersion: string;
  subresource?: string;
  /** Reset fields of the strategy (e.g. `status` on the main resource): never owned, never conflicting. */
  ignored?: FieldSet;
  /** The current time as RFC 3339 with seconds (e.g. "2024-01-01T00:00:00Z"). */
  now: () => string;
}

// ---------------------------------------------------------------------------
// Core: managed maps in, managed maps out.

function reconcileAll(managed: Managed, schema: Schema | undefined): Managed {
  const out: Managed = new Map();
  for (const [id, e] of managed) out.set(id, { ...e, fields: reconcileWithSchema(e.fields, schema) });
  return out;
}

function excluding(c: Comparison, ignored: FieldSet | undefined): Comparison {
  if (!ignored) return c;
  return { added: c.added.recursiveDifference(ignored), removed: c.removed.recursiveDifference(ignored), modified: c.modified.recursiveDifference(ignored) };
}

/** Takes changed fields away from other managers; throws conflicts when not forced. */
function updateManagers(o: { live: JsonValue; next: JsonValue; schema: Schema | undefined; managed: Managed; workflow: string; force: boolean; ignored: FieldSet | undefined }): Comparison {
  const cmp = excluding(compare(o.live, o.next, o.schema), o.ignored);
  const changed = cmp.modified.union(cmp.added);
  const taken = new Map<string, FieldSet>();
  for (const [id, e] of o.managed) {
    if (id === o.workflow) continue;
    const c = e.fields.intersection(changed);
    if (!c.empty()) taken.set(id, c);
  }
  if (!o.force && taken.size > 0) {
    const conflicts: Conflict[] = [];
    for (const id of [...taken.keys()].sort()) for (const p of taken.get(id)!.paths()) conflicts.push(conflict(o.managed.get(id)!, p));
    throw new ApplyConflictError(conflicts);
  }
  for (const [id, e] of o.managed) {
    if (id === o.workflow) continue;
    let f = e.fields;
    const t = taken.get(id);
    if (t) f = f.difference(t);
    if (!cmp.removed.empty()) f = f.difference(cmp.removed);
    if (f.empty()) o.managed.delete(id);
    else if (f !== e.fields) o.managed.set(id, { ...e, fields: f });
  }
  return cmp;
}

/**
 * Removes what the applier applied last time and omits now, unless someone (anyone) still owns it.
 *
 * Nothing is removed when the applier's new set (`current`, already in
 * `managed`) still has every member of `last` and no member of it is hollow
 * (a list item or map entry under which it sets nothing): every path of last
 * and each of its ancestors is then owned, so the first pass gives back
 * everything it takes, and no owned container can empty out. Then this is
 * the identity and the three passes below are skipped.
 */
function prune(merged: JsonValue, managed: Managed, last: FieldSet | undefined, schema: Schema | undefined, current?: { set: FieldSet; hollow: boolean }): JsonValue {
  if (!last || last.empty()) return merged;
  if (current && !current.hollow && last.isSubsetOf(current.set)) return merged;
  const ensure = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, schema);
  const lastE = ensure(last);
  let owned = new FieldSet();
  for (const e of managed.values()) owned = owned.union(e.fields);
  const mergedSet = ensure(toFieldSet(merged, schema));
  const pruned0 = removeItems(merged, lastE, schema);
  const pruned1 = removeItems(merged, mergedSet.difference(ensure(toFieldSet(pruned0, schema)).union(ensure(owned))), schema);
  return removeItems(merged, mergedSet.difference(ensure(toFieldSet(pruned1, schema))).intersection(lastE), schema);
}

/** Drops the never-owned fields from an entry; keeps `previous` (and its memoized encoding) when they are the same set. */
function strip(e: ManagedEntry | undefined, managed: Managed, id: string, previous?: FieldSet): void {
  if (!e) return;
  let f = e.fields.difference(STRIPPED);
  if (previous && f !== previous && f.equals(previous)) f = previous;
  if (f.empty()) managed.delete(id);
  else managed.set(id, { ...e, fields: f });
}

export interface ApplyInput extends EngineOptions {
  /** The live object without managedFields ({} or the kind's zero object on create). */
  live: JsonObject;
  config: JsonObject;
  manager: string;
  force: boolean;
  managed: Managed;
}

/**
 * One apply on decoded managed fields. Returns the merged object (`undefined`
 * when nothing changed) and the new managed map; throws ApplyConflictError,
 * or TypedError for a config the schema rejects (the reference server's 500
 * "failed to create typed patch object (<ns>/<name>; <gvk>): <message>").
 */
export function apply(o: ApplyInput): { object: JsonObject | undefined; managed: Managed } {
  const r = applyMerged(o);
  return { object: r.unchanged ? undefined : r.merged, managed: r.managed };
}

/** apply, with the merged object also when it equals the live one (it shares nothing with the inputs). */
function applyMerged(o: ApplyInput): { merged: JsonObject; unchanged: boolean; managed: Managed } {
  const info: ManagerInfo = { manager: o.manager, operation: 'Apply', apiVersion: o.apiVersion, ...(o.subresource ? { subresource: o.subresource } : {}) };
  const id = managerId(info);
  const applied = fieldSetOf(o.config, o.schema, true);
  let set = applied.set;
  const managed = reconcileAll(o.managed, o.schema);
  let merged = (merge(o.live, o.config, o.schema) ?? {}) as JsonValue;
  const previous = managed.get(id);
  if (o.ignored) set = set.recursiveDifference(o.ignored);
  managed.set(id, { ...info, fields: set, ...(previous?.time ? { time: previous.time } : {}) });
  // The hollow test was made on the set before ignored fields left it; it holds only when none did.
  merged = prune(merged, managed, previous?.fields, o.schema, set === applied.set ? applied : undefined);
  updateManagers({ live: o.live, next: merged, schema: o.schema, managed, workflow: id, force: o.force, ignored: o.ignored });
  const unchanged = jsonEqual(o.live, merged);
  const mine = managed.get(id);
  if (mine && !unchanged) mine.time = o.now();
  strip(managed.get(id), managed, id, previous?.fields);
  return { merged: merged as JsonObject, unchanged, managed };
}

export interface UpdateInput extends EngineOptions {
  /** The live object without managedFields ({} or the kind's zero object on create). */
  live: JsonObject;
  /** The object to persist, without managedFields. */
  updated: JsonObject;
  manager: string;
  managed: Managed;
}

/** The managed map after a non-apply write (never conflicts; the updater takes what changed). */
export function update(o: UpdateInput): Managed {
  const info: ManagerInfo = { manager: o.manager, operation: 'Update', apiVersion: o.apiVersion, ...(o.subresource ? { subresource: o.subresource } : {}) };
  const id = managerId(info);
  const managed = reconcileAll(o.managed, o.schema);
  const cmp = updateManagers({ live: o.live, next: o.updated, schema: o.schema, managed, workflow: CURRENT_OPERATION, force: true, ignored: o.ignored });
  let set = cmp.modified.union(cmp.added).difference(cmp.removed);
  if (o.ignored) set = set.recursiveDifference(o.ignored);
  set = set.difference(STRIPPED);
  if (!set.empty()) {
    const prev = managed.get(id);
    managed.set(id, { ...info, fields: prev ? set.union(prev.fields) : set, time: o.now() });
  }
  capUpdateManagers(managed);
  return managed;
}

// ---------------------------------------------------------------------------
// Whole objects: metadata.managedFields decoded, maintained and re-encoded.

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
