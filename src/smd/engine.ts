// The apply and update engine on decoded managedFields (structured-merge-diff's
// merge.Updater), as set algebra:
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
// Metadata/type fields are never owned (the strip set); an apply that changes
// nothing does not touch the entry's time; Update entries are capped at 10.
//
// The usual apply, a manager applying again the fields it owns, takes one walk
// (mergeApply): it merges, compares live with the merge, and checks the
// config's field set against the applier's entry; prune then has nothing to
// do and the entry stays as it is. Anything else takes the steps above.
import type { JsonValue, Schema } from '../schema/model.js';
import { field, FieldSet } from './fieldpath.js';
import { ApplyConflictError, capUpdateManagers, conflict, managerId, type Conflict, type Managed, type ManagedEntry, type ManagerInfo } from './managed.js';
import { compare, ensureNamedFieldsAreMembers, fieldSetOf, jsonEqual, mergeApply, reconcileWithSchema, removeItems, toFieldSet, TypedError, type Comparison, type JsonObject } from './typed.js';

/** Fields no manager ever owns (Kubernetes' stripMetaManager). */
export const STRIPPED = FieldSet.of(
  [field('apiVersion')],
  [field('kind')],
  [field('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => [field('metadata'), field(n)]),
);

export const BEFORE_FIRST_APPLY = 'before-first-apply';
const CURRENT_OPERATION = 'current-operation';

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
function updateManagers(o: { live: JsonValue; next: JsonValue; schema: Schema | undefined; managed: Managed; workflow: string; force: boolean; ignored: FieldSet | undefined; comparison?: Comparison }): Comparison {
  const cmp = excluding(o.comparison ?? compare(o.live, o.next, o.schema), o.ignored);
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
export function prune(merged: JsonValue, managed: Managed, last: FieldSet | undefined, schema: Schema | undefined): JsonValue {
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

/**
 * Whether prune has nothing to remove: there was no last set, or the new set
 * still has every member of it and (`solid`) no member of the new set is
 * hollow (a list item or map entry under which it sets nothing) and none of
 * it was ignored. Every path of last and each of its ancestors is then owned,
 * so prune's first pass gives back everything it takes, and no owned
 * container can empty out: prune is the identity.
 */
function pruneKeepsAll(last: FieldSet | undefined, set: FieldSet, solid: boolean): boolean {
  return !last || last.empty() || (solid && last.isSubsetOf(set));
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
export function applyMerged(o: ApplyInput): { merged: JsonObject; unchanged: boolean; managed: Managed } {
  const info: ManagerInfo = { manager: o.manager, operation: 'Apply', apiVersion: o.apiVersion, ...(o.subresource ? { subresource: o.subresource } : {}) };
  const id = managerId(info);
  const managed = reconcileAll(o.managed, o.schema);
  const previous = managed.get(id);
  const last = previous?.fields;
  const time = previous?.time ? { time: previous.time } : {};
  // One walk merges, compares live with the merge, and checks whether the config sets exactly what the applier owns.
  let walked: ReturnType<typeof mergeApply>;
  try {
    walked = mergeApply(o.live, o.config, o.schema, last && !last.empty() ? { expected: last, notOwned: STRIPPED, ignored: o.ignored } : undefined);
  } catch (err) {
    // The reference reads the config's field set before merging: its errors come first.
    if (err instanceof TypedError) fieldSetOf(o.config, o.schema, true);
    throw err;
  }
  let final: boolean;
  if (walked.owns) {
    // The applier applies again exactly what it owns (the usual case): its entry stays as it is, and nothing is pruned.
    managed.set(id, { ...info, fields: last!, ...time });
    final = true;
  } else {
    const applied = fieldSetOf(o.config, o.schema, true);
    let set = applied.set;
    if (o.ignored) set = set.recursiveDifference(o.ignored);
    managed.set(id, { ...info, fields: set, ...time });
    final = pruneKeepsAll(last, set, set === applied.set && !applied.hollow);
  }
  let merged = (walked.merged ?? {}) as JsonValue;
  // When the merge is final, the comparison of live with it came from the same walk.
  const comparison = final ? walked.comparison : undefined;
  if (!final) merged = prune(merged, managed, last, o.schema);
  updateManagers({ live: o.live, next: merged, schema: o.schema, managed, workflow: id, force: o.force, ignored: o.ignored, ...(comparison ? { comparison } : {}) });
  // A merge that recorded a change did change something.
  const unchanged = comparison && !(comparison.added.empty() && comparison.modified.empty()) ? false : jsonEqual(o.live, merged);
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

