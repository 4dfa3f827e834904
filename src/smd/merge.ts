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
  managerId,
  type Conflict,
  type Managed,
  type ManagedEntry,
  type ManagerInfo,
} from './managed.js';
import { compare, ensureNamedFieldsAreMembers, jsonEqual, merge, reconcileWithSchema, removeItems, toFieldSet, type Comparison, type JsonObject } from './typed.js';

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

/** Removes what the applier applied last time and omits now, unless someone (anyone) still owns it. */
function prune(merged: JsonValue, managed: Managed, last: FieldSet | undefined, schema: Schema | undefined): JsonValue {
  if (!last || last.empty()) return merged;
  const ensure = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, schema);
  const lastE = ensure(last);
  let owned = new FieldSet();
  for (const e of managed.values()) owned = owned.union(e.fields);
  const mergedSet = ensure(toFieldSet(merged, schema));
  const pruned0 = removeItems(merged, lastE, schema);
  const pruned1 = removeItems(merged, mergedSet.difference(ensure(toFieldSet(pruned0, schema)).union(ensure(owned))), schema);
  return removeItems(merged, mergedSet.difference(ensure(toFieldSet(pruned1, schema))).intersection(lastE), schema);
}

function strip(e: ManagedEntry | undefined, managed: Managed, id: string): void {
  if (!e) return;
  const f = e.fields.difference(STRIPPED);
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
  const info: ManagerInfo = { manager: o.manager, operation: 'Apply', apiVersion: o.apiVersion, ...(o.subresource ? { subresource: o.subresource } : {}) };
  const id = managerId(info);
  let set = toFieldSet(o.config, o.schema, { strict: true });
  const managed = reconcileAll(o.managed, o.schema);
  let merged = (merge(o.live, o.config, o.schema) ?? {}) as JsonValue;
  const previous = managed.get(id);
  if (o.ignored) set = set.recursiveDifference(o.ignored);
  managed.set(id, { ...info, fields: set, ...(previous?.time ? { time: previous.time } : {}) });
  merged = prune(merged, managed, previous?.fields, o.schema);
  updateManagers({ live: o.live, next: merged, schema: o.schema, managed, workflow: id, force: o.force, ignored: o.ignored });
  const unchanged = jsonEqual(o.live, merged);
  const mine = managed.get(id);
  if (mine && !unchanged) mine.time = o.now();
  strip(managed.get(id), managed, id);
  return { object: unchanged ? undefined : (merged as JsonObject), managed };
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

const clone = <T extends JsonValue>(v: T): T => structuredClone(v);

function withoutManagedFields(obj: JsonObject): JsonObject {
  const out = clone(obj);
  if (isObject(out.metadata)) delete (out.metadata as JsonObject).managedFields;
  return out;
}

function withManaged(obj: JsonObject, managed: Managed): JsonObject {
  const out = withoutManagedFields(obj);
  const encoded = encodeManaged(managed);
  if (encoded === undefined) return out;
  const meta = isObject(out.metadata) ? (out.metadata as JsonObject) : {};
  out.metadata = { ...meta, managedFields: encoded as unknown as JsonValue };
  return out;
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

/** Server-side apply of a whole object (PATCH application/apply-patch+yaml). */
export function applyObject(o: ApplyObjectOptions): WriteResult {
  const meta = o.config.metadata;
  if (isObject(meta) && meta.managedFields !== undefined) throw new ApplyBadRequestError('metadata.managedFields must be nil');
  if (typeof o.config.apiVersion === 'string' && o.config.apiVersion !== o.apiVersion) {
    throw new ApplyBadRequestError(`Incorrect version specified in apply patch. Specified patch version: ${o.config.apiVersion}, expected: ${o.apiVersion}`);
  }
  let managed = decodeManaged(o.live && isObject(o.live.metadata) ? (o.live.metadata as JsonObject).managedFields : undefined);
  const empty = o.empty ?? {};
  const live = o.live ? withoutManagedFields(o.live) : clone(empty);
  if (managed.size === 0 && o.live !== undefined) {
    managed = update({ ...o, live: clone(empty), updated: live, manager: BEFORE_FIRST_APPLY, managed });
  }
  const r = apply({ ...o, live, managed });
  return { object: withManaged(r.object ?? live, r.managed), changed: r.object !== undefined };
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

/** managedFields maintenance for POST, PUT and non-apply PATCH. */
export function updateObject(o: UpdateObjectOptions): WriteResult {
  const liveMeta = o.live && isObject(o.live.metadata) ? (o.live.metadata as JsonObject) : undefined;
  const reqMeta = isObject(o.updated.metadata) ? (o.updated.metadata as JsonObject) : undefined;
  let managed = incomingManaged({ live: liveMeta?.managedFields, request: reqMeta?.managedFields, ...(o.subresource ? { subresource: o.subresource } : {}) });
  const updated = withoutManagedFields(o.updated);
  const live = o.live ? withoutManagedFields(o.live) : clone(o.empty ?? {});
  const changed = !jsonEqual(live, updated);
  const isCreate = o.isCreate ?? o.live === undefined;
  if (managed.size === 0 && !isCreate) return { object: updated, changed };
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
