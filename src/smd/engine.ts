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
import { intern } from './intern.js';
import { ApplyConflictError, capUpdateManagers, conflict, managerId, type Conflict, type Managed, type ManagedEntry, type ManagerInfo } from './managed.js';
import { compare, ensureNamedFieldsAreMembers, fieldSetOf, jsonEqual, markReconciled, mergeApply, reconcileWithSchema, removeItems, toFieldSet, TypedError, type Comparison, type JsonObject } from './typed.js';

/** Fields no manager ever owns (Kubernetes' stripMetaManager). */
export const STRIPPED = FieldSet.of(
  [field('apiVersion')],
  [field('kind')],
  [field('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => [field('metadata'), field(n)]),
);

export const BEFORE_FIRST_APPLY = 'before-first-apply';
const CURRENT_OPERATION = 'current-operation';

/**
 * The kind's other versions, for managers recorded in one (structured-merge-diff's
 * Converter): their sets are paths of that version, so the changes they are
 * checked against are computed there.
 */
export interface VersionConverter {
  /** Whether two apiVersions name the same version (e.g. two spellings of one group). */
  same(a: string, b: string): boolean;
  /** `value`, an object in version `from`, in version `to`; undefined when `to` is not a version of the kind (its managers are dropped, as Kubernetes drops them). */
  convert(value: JsonObject, from: string, to: string): JsonObject | undefined;
  /** The schema of a version of the kind. */
  schemaOf(apiVersion: string): Schema | undefined;
}

export interface EngineOptions {
  schema: Schema | undefined;
  /** The served groupVersion (e.g. "apps/v1"), recorded as the entry's apiVersion. */
  apiVersion: string;
  /** Converts to the versions other entries were recorded in; absent: every entry is read as in `apiVersion`. */
  converter?: VersionConverter;
  subresource?: string;
  /** Reset fields of the strategy (e.g. `status` on the main resource): never owned, never conflicting. */
  ignored?: FieldSet;
  /** The current time as RFC 3339 with seconds (e.g. "2024-01-01T00:00:00Z"). */
  now: () => string;
}

// ---------------------------------------------------------------------------
// Core: managed maps in, managed maps out.

/**
 * The versions managedFields entries are recorded in, as this write reads
 * them: the request's own (any spelling of it, or a version read alike) or
 * another version of the kind, reached through the converter.
 */
class Versions {
  constructor(private readonly o: Pick<EngineOptions, 'apiVersion' | 'schema' | 'converter'>) {}

  /** `version` as a key: the request's own as o.apiVersion, any other as itself. */
  name(version: string): string {
    const c = this.o.converter;
    return !c || version === this.o.apiVersion || c.same(version, this.o.apiVersion) ? this.o.apiVersion : version;
  }

  /** Whether entries of `version` are read as the request's own. */
  own(version: string): boolean {
    return this.name(version) === this.o.apiVersion;
  }

  schemaOf(version: string): Schema | undefined {
    return this.own(version) ? this.o.schema : this.o.converter!.schemaOf(version);
  }

  /** `value`, in version `from`, in version `to`; undefined when `to` is not a version of the kind. */
  convert(value: JsonValue, from: string, to: string): JsonValue | undefined {
    const a = this.name(from);
    const b = this.name(to);
    return a === b || !isObjectValue(value) ? value : this.o.converter!.convert(value, a, b);
  }
}

const isObjectValue = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function reconcileAll(managed: Managed, o: Pick<EngineOptions, 'apiVersion' | 'schema' | 'converter'>): Managed {
  const out: Managed = new Map();
  const versions = new Versions(o);
  for (const [id, e] of managed) out.set(id, { ...e, fields: reconcileWithSchema(e.fields, versions.schemaOf(e.apiVersion)) });
  return out;
}

/**
 * The sets a write leaves: interned (intern.ts), so what is memoized on them
 * is shared with every equal set; those in the request's version are made
 * with its schema, so they are recorded as reconciled with it.
 */
function settle(managed: Managed, o: Pick<EngineOptions, 'apiVersion' | 'schema' | 'converter'>): void {
  const versions = new Versions(o);
  for (const [id, e] of managed) {
    const fields = intern(e.fields);
    if (versions.own(e.apiVersion)) markReconciled(fields, o.schema);
    if (fields !== e.fields) managed.set(id, { ...e, fields });
  }
}

function excluding(c: Comparison, ignored: FieldSet | undefined): Comparison {
  if (!ignored) return c;
  return { added: c.added.recursiveDifference(ignored), removed: c.removed.recursiveDifference(ignored), modified: c.modified.recursiveDifference(ignored) };
}

/**
 * Takes changed fields away from other managers; throws conflicts when not
 * forced. A manager recorded in another version is checked against the
 * change as that version shows it; one whose version the kind no longer has
 * is dropped. Returns the comparison in the request's version.
 */
function updateManagers(o: { live: JsonValue; next: JsonValue; engine: Pick<EngineOptions, 'apiVersion' | 'schema' | 'converter'>; managed: Managed; workflow: string; force: boolean; ignored: FieldSet | undefined; comparison?: Comparison }): Comparison {
  const cmp = excluding(o.comparison ?? compare(o.live, o.next, o.engine.schema), o.ignored);
  const versions = new Versions(o.engine);
  // By version: the change as it shows there (null: not a version of the kind).
  const comparisons = new Map<string, Comparison | null>([[o.engine.apiVersion, cmp]]);
  const comparisonFor = (version: string): Comparison | null => {
    const v = versions.name(version);
    let c = comparisons.get(v);
    if (c === undefined) {
      const live = versions.convert(o.live, o.engine.apiVersion, v);
      const next = versions.convert(o.next, o.engine.apiVersion, v);
      c = live === undefined || next === undefined ? null : excluding(compare(live, next, versions.schemaOf(v)), o.ignored);
      comparisons.set(v, c);
    }
    return c;
  };
  const taken = new Map<string, FieldSet>();
  for (const [id, e] of o.managed) {
    if (id === o.workflow) continue;
    const c = comparisonFor(e.apiVersion);
    if (!c) {
      o.managed.delete(id);
      continue;
    }
    const t = e.fields.intersection(c.modified.union(c.added));
    if (!t.empty()) taken.set(id, t);
  }
  if (!o.force && taken.size > 0) {
    const conflicts: Conflict[] = [];
    for (const id of [...taken.keys()].sort()) for (const p of taken.get(id)!.paths()) conflicts.push(conflict(o.managed.get(id)!, p));
    throw new ApplyConflictError(conflicts);
  }
  for (const [id, e] of o.managed) {
    if (id === o.workflow) continue;
    const removed = comparisonFor(e.apiVersion)!.removed;
    let f = e.fields;
    const t = taken.get(id);
    if (t) f = f.difference(t);
    if (!removed.empty()) f = f.difference(removed);
    if (f.empty()) o.managed.delete(id);
    else if (f !== e.fields) o.managed.set(id, { ...e, fields: f });
  }
  return cmp;
}

/**
 * Removes what the applier applied last time (`last`, in the version it
 * applied with) and omits now, unless someone (anyone) still owns it. As
 * structured-merge-diff's prune: remove the last set (in its version), add
 * back what any manager owns (in each manager's version, the pruned one's
 * first), add back what the last set did not name, then return to the
 * request's version. One version throughout is the usual case: no conversion.
 */
export function prune(merged: JsonValue, managed: Managed, last: { fields: FieldSet; apiVersion: string } | undefined, engine: Pick<EngineOptions, 'apiVersion' | 'schema' | 'converter'>): JsonValue {
  if (!last || last.fields.empty()) return merged;
  const versions = new Versions(engine);
  const ensure = (s: FieldSet, schema: Schema | undefined): FieldSet => ensureNamedFieldsAreMembers(s, schema);
  const lastVersion = versions.name(last.apiVersion);
  const lastSchema = versions.schemaOf(lastVersion);
  // The merged object in the last applied version; a version the kind no longer has prunes nothing.
  const lastMerged = versions.convert(merged, engine.apiVersion, lastVersion);
  if (lastMerged === undefined) return merged;
  const lastE = ensure(last.fields, lastSchema);
  // Remove the last set, then add back what anyone owns, version by version (the pruned one's first:
  // converting may need what it holds).
  let at = lastVersion;
  let m: JsonValue = lastMerged;
  let p: JsonValue = removeItems(lastMerged, lastE, lastSchema);
  const ownedAt = new Map<string, FieldSet>();
  for (const e of managed.values()) {
    const v = versions.name(e.apiVersion);
    ownedAt.set(v, (ownedAt.get(v) ?? new FieldSet()).union(e.fields));
  }
  const order = [...ownedAt.keys()].sort((x, y) => Number(y === lastVersion) - Number(x === lastVersion));
  for (const v of order) {
    const mv = versions.convert(m, at, v);
    const pv = versions.convert(p, at, v);
    if (mv === undefined || pv === undefined) return merged;
    const schema = versions.schemaOf(v);
    const mergedSet = ensure(toFieldSet(mv, schema), schema);
    p = removeItems(mv, mergedSet.difference(ensure(toFieldSet(pv, schema), schema).union(ensure(ownedAt.get(v)!, schema))), schema);
    m = mv;
    at = v;
  }
  // Add back dangling items: of what the merge holds and pruning lost, only the last set's members go.
  const pl = versions.convert(p, at, lastVersion);
  if (pl === undefined) return merged;
  const mergedSet = ensure(toFieldSet(lastMerged, lastSchema), lastSchema);
  const result = removeItems(lastMerged, mergedSet.difference(ensure(toFieldSet(pl, lastSchema), lastSchema)).intersection(lastE), lastSchema);
  return versions.convert(result, lastVersion, engine.apiVersion) ?? merged;
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
  const managed = reconcileAll(o.managed, o);
  const previous = managed.get(id);
  const last = previous?.fields;
  // The applier's last set is paths of the version it applied with; only in this version can the walk check it.
  const sameVersion = !previous || new Versions(o).own(previous.apiVersion);
  const time = previous?.time ? { time: previous.time } : {};
  // One walk merges, compares live with the merge, and checks whether the config sets exactly what the applier owns.
  let walked: ReturnType<typeof mergeApply>;
  try {
    walked = mergeApply(o.live, o.config, o.schema, sameVersion && last && !last.empty() ? { expected: last, notOwned: STRIPPED, ignored: o.ignored } : undefined);
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
    // The config sets what the applier owns and more (e.g. a field another manager took from it): that union,
    // which shares the owned set's subtrees; otherwise the config's set from scratch.
    const applied = walked.extra ? { set: last!.union(walked.extra), hollow: false } : fieldSetOf(o.config, o.schema, true);
    let set = applied.set;
    if (o.ignored) set = set.recursiveDifference(o.ignored);
    managed.set(id, { ...info, fields: set, ...time });
    final = sameVersion && pruneKeepsAll(last, set, set === applied.set && !applied.hollow);
  }
  let merged = (walked.merged ?? {}) as JsonValue;
  // When the merge is final, the comparison of live with it came from the same walk.
  const comparison = final ? walked.comparison : undefined;
  if (!final) merged = prune(merged, managed, previous && { fields: previous.fields, apiVersion: previous.apiVersion }, o);
  updateManagers({ live: o.live, next: merged, engine: o, managed, workflow: id, force: o.force, ignored: o.ignored, ...(comparison ? { comparison } : {}) });
  // A merge that recorded a change did change something.
  const unchanged = comparison && !(comparison.added.empty() && comparison.modified.empty()) ? false : jsonEqual(o.live, merged);
  const mine = managed.get(id);
  if (mine && !unchanged) mine.time = o.now();
  strip(managed.get(id), managed, id, previous?.fields);
  settle(managed, o);
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
  const managed = reconcileAll(o.managed, o);
  const cmp = updateManagers({ live: o.live, next: o.updated, engine: o, managed, workflow: CURRENT_OPERATION, force: true, ignored: o.ignored });
  let set = cmp.modified.union(cmp.added).difference(cmp.removed);
  if (o.ignored) set = set.recursiveDifference(o.ignored);
  set = set.difference(STRIPPED);
  if (!set.empty()) {
    const prev = managed.get(id);
    managed.set(id, { ...info, fields: prev ? set.union(prev.fields) : set, time: o.now() });
  }
  capUpdateManagers(managed);
  settle(managed, o);
  return managed;
}

