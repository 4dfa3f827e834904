// The engine against its plain form on random scenarios. The engine takes
// shortcuts (one walk that merges, compares and checks the applier's fields;
// no pruning when nothing can be pruned; memoized decoding and encoding;
// shared, copy-free set algebra); `reference` below is the algorithm
// without them, step by step as structured-merge-diff has it. Both run the
// same random applies and updates (Thing, unstructured, with and without
// ignored fields) and must give the same objects, managedFields bytes, no-op
// answers and errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { field, FieldSet } from './fieldpath.js';
import { Thing } from './fixtures.js';
import { ApplyConflictError, capUpdateManagers, conflict, decodeManaged, encodeManaged, incomingManaged, isResetRequest, managerId, type Conflict, type Managed, type ManagedEntry } from './managed.js';
import { prune } from './engine.js';
import { applyObject, ApplyBadRequestError, BEFORE_FIRST_APPLY, STRIPPED, updateObject } from './merge.js';
import { prng } from '../testing/prng.js';
import { compare, jsonEqual, merge, reconcileWithSchema, toFieldSet, type JsonObject } from './typed.js';

interface Op {
  kind: 'apply' | 'update';
  manager: string;
  force: boolean;
  body: JsonObject;
  ignored?: 'status' | 'spec';
}

// ---------------------------------------------------------------------------
// The reference: apply and update without shortcuts.

type Opts = { schema: Schema | undefined; apiVersion: string; ignored: FieldSet | undefined; now: () => string };
type Written = { object: JsonObject; changed: boolean };

const reconcileAll = (m: Managed, schema: Schema | undefined): Managed => new Map([...m].map(([id, e]) => [id, { ...e, fields: reconcileWithSchema(e.fields, schema) }]));

function updateManagers(o: Opts & { live: JsonValue; next: JsonValue; managed: Managed; workflow: string; force: boolean }) {
  const { live, next, managed, workflow, force } = o;
  let cmp = compare(live, next, o.schema);
  if (o.ignored) cmp = { added: cmp.added.recursiveDifference(o.ignored), removed: cmp.removed.recursiveDifference(o.ignored), modified: cmp.modified.recursiveDifference(o.ignored) };
  const changed = cmp.modified.union(cmp.added);
  const taken = new Map<string, FieldSet>();
  for (const [id, e] of managed) if (id !== workflow && !e.fields.intersection(changed).empty()) taken.set(id, e.fields.intersection(changed));
  if (!force && taken.size > 0) {
    const conflicts: Conflict[] = [];
    for (const id of [...taken.keys()].sort()) for (const p of taken.get(id)!.paths()) conflicts.push(conflict(managed.get(id)!, p));
    throw new ApplyConflictError(conflicts);
  }
  for (const [id, e] of managed) {
    if (id === workflow) continue;
    const f = e.fields.difference(taken.get(id) ?? new FieldSet()).difference(cmp.removed);
    if (f.empty()) managed.delete(id);
    else managed.set(id, { ...e, fields: f });
  }
  return cmp;
}

function strip(managed: Managed, id: string): void {
  const e = managed.get(id);
  if (!e) return;
  const f = e.fields.difference(STRIPPED);
  if (f.empty()) managed.delete(id);
  else managed.set(id, { ...e, fields: f });
}

function update(o: Opts & { live: JsonObject; updated: JsonObject; manager: string; managed: Managed }): Managed {
  const { live, updated, manager, managed: managed0 } = o;
  const info = { manager, operation: 'Update' as const, apiVersion: o.apiVersion };
  const managed = reconcileAll(managed0, o.schema);
  const cmp = updateManagers({ ...o, live, next: updated, managed, workflow: 'current-operation', force: true });
  let set = cmp.modified.union(cmp.added).difference(cmp.removed);
  if (o.ignored) set = set.recursiveDifference(o.ignored);
  set = set.difference(STRIPPED);
  if (!set.empty()) {
    const prev = managed.get(managerId(info));
    managed.set(managerId(info), { ...info, fields: prev ? set.union(prev.fields) : set, time: o.now() });
  }
  capUpdateManagers(managed);
  return managed;
}

const without = (obj: JsonObject): JsonObject => {
  const out = structuredClone(obj);
  if (isObject(out.metadata)) delete (out.metadata as JsonObject).managedFields;
  return out;
};
function withManaged(obj: JsonObject, managed: Managed): JsonObject {
  const out = without(obj);
  const encoded = encodeManaged(managed);
  if (encoded === undefined) return out;
  out.metadata = { ...(isObject(out.metadata) ? (out.metadata as JsonObject) : {}), managedFields: encoded as unknown as JsonValue };
  return out;
}

function referenceApply(o: Opts & { live: JsonObject | undefined; config: JsonObject; manager: string; force: boolean }): Written {
  const { live: liveObj, config, manager, force } = o;
  if (isObject(config.metadata) && config.metadata.managedFields !== undefined) throw new ApplyBadRequestError('metadata.managedFields must be nil');
  let managed = decodeManaged(liveObj && isObject(liveObj.metadata) ? (liveObj.metadata as JsonObject).managedFields : undefined);
  const live = liveObj ? without(liveObj) : {};
  if (managed.size === 0 && liveObj !== undefined) managed = update({ ...o, live: {}, updated: live, manager: BEFORE_FIRST_APPLY, managed });
  const info = { manager, operation: 'Apply' as const, apiVersion: o.apiVersion };
  const id = managerId(info);
  let set = toFieldSet(config, o.schema, { strict: true });
  managed = reconcileAll(managed, o.schema);
  let merged = (merge(live, config, o.schema) ?? {}) as JsonValue;
  const previous = managed.get(id);
  if (o.ignored) set = set.recursiveDifference(o.ignored);
  managed.set(id, { ...info, fields: set, ...(previous?.time ? { time: previous.time } : {}) } as ManagedEntry);
  merged = prune(merged, managed, previous && { fields: previous.fields, apiVersion: previous.apiVersion }, o);
  updateManagers({ ...o, live, next: merged, managed, workflow: id, force });
  const unchanged = jsonEqual(live, merged);
  const mine = managed.get(id);
  if (mine && !unchanged) mine.time = o.now();
  strip(managed, id);
  return { object: withManaged(unchanged ? live : (merged as JsonObject), managed), changed: !unchanged };
}

function referenceUpdate(o: Opts & { live: JsonObject | undefined; updated: JsonObject; manager: string }): Written {
  const { live: liveObj, updated: request, manager } = o;
  const liveMeta = liveObj && isObject(liveObj.metadata) ? (liveObj.metadata as JsonObject) : undefined;
  const reqMeta = isObject(request.metadata) ? (request.metadata as JsonObject) : undefined;
  let managed = incomingManaged({ live: liveMeta?.managedFields, request: reqMeta?.managedFields });
  const updated = without(request);
  const live = liveObj ? without(liveObj) : {};
  const changed = !jsonEqual(live, updated);
  if (managed.size === 0 && liveObj !== undefined && !isResetRequest(reqMeta?.managedFields)) return { object: updated, changed };
  managed = update({ ...o, live, updated, manager, managed });
  return { object: withManaged(updated, managed), changed };
}

// ---------------------------------------------------------------------------
// Random scenarios.

function scenarios(seed: number) {
  const rnd = prng(seed);
  const chance = (p: number): boolean => rnd.next() < p;
  const pick = <T>(xs: readonly T[]): T => xs[rnd.int(xs.length)]!;
  const strs = ['x', 'y', 'z', 'a<b'];
  const map = (): JsonObject => Object.fromEntries(['k1', 'k2', 'k.io/x'].filter(() => chance(0.5)).map((k) => [k, chance(0.05) ? null : pick(strs)]));
  const list = (): string[] => Array.from({ length: rnd.int(3) }, () => pick(strs));
  const container = (): JsonObject => {
    const c: JsonObject = { name: pick(['web', 'side', 'db']) };
    if (chance(0.6)) c.image = pick(['i:1', 'i:2']);
    if (chance(0.3)) c.ports = Array.from({ length: rnd.int(3) }, () => ({ containerPort: pick([80, 53]), ...(chance(0.5) ? { protocol: pick(['TCP', 'UDP']) } : {}) }));
    if (chance(0.2)) c.args = list();
    if (chance(0.03)) delete c.name;
    return c;
  };
  const spec = (): JsonObject => {
    const s: JsonObject = {};
    if (chance(0.5)) s.replicas = chance(0.05) ? null : rnd.int(4);
    if (chance(0.2)) s.paused = chance(0.5);
    if (chance(0.3)) s.selector = { matchLabels: map() };
    if (chance(0.5)) s.containers = Array.from({ length: rnd.int(3) }, container);
    if (chance(0.3)) s.tags = list();
    if (chance(0.3)) s.hosts = list();
    if (chance(0.3)) s.args = list();
    if (chance(0.4)) s.config = map();
    if (chance(0.3)) s.frozen = map();
    if (chance(0.03)) s.spam = 1;
    if (chance(0.03)) s.containers = [{}];
    return s;
  };
  const config = (): JsonObject => ({
    apiVersion: 'v1',
    kind: 'Thing',
    metadata: { name: 't', ...(chance(0.3) ? { labels: map() } : {}) },
    ...(chance(0.9) ? { spec: spec() } : {}),
    ...(chance(0.05) ? { status: { phase: 'x' } } : {}),
  });
  const edit = (obj: JsonObject): JsonObject => {
    const o = structuredClone(obj);
    const s = (o.spec ??= {}) as JsonObject;
    const r = rnd.int(4);
    if (r === 0) s.replicas = rnd.int(5);
    else if (r === 1) delete s[pick(Object.keys(s).concat('x'))];
    else if (r === 2) (o.metadata as JsonObject).labels = map();
    else o.status = { phase: pick(strs) };
    const m = rnd.int(5);
    if (m === 0) delete (o.metadata as JsonObject).managedFields;
    else if (m === 1) (o.metadata as JsonObject).managedFields = [{}];
    return o;
  };
  return { config, edit, chance, pick, int: rnd.int };
}

/** `v` with every object and array in it frozen: a write to it throws (modules are strict). */
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const child of Object.values(v)) deepFreeze(child);
  }
  return v;
}

describe('the engine against the reference algorithm', () => {
  for (const [name, schema] of [['Thing', Thing], ['no schema', undefined]] as const) {
    it(`gives the same objects, managedFields, no-op answers and errors (${name}, seeded)`, () => {
      const g = scenarios(name === 'Thing' ? 11 : 12);
      let compared = 0;
      for (let sc = 0; sc < 250; sc++) {
        let mine: JsonObject | undefined;
        let theirs: JsonObject | undefined;
        const last: Record<string, JsonObject> = {};
        for (let step = 0; step < 6; step++) {
          const manager = g.pick(['m1', 'm2', 'm3']);
          const apply = mine === undefined || g.chance(0.7);
          // Re-applying the same configuration is the engine's shortcut; changing it takes the long way.
          const body = apply ? (last[manager] && g.chance(0.5) ? structuredClone(last[manager]) : g.config()) : g.edit(mine!);
          if (apply) last[manager] = body;
          const op: Op = { kind: apply ? 'apply' : 'update', manager, force: g.chance(0.5), body, ...(g.chance(0.3) ? { ignored: g.pick(['status', 'spec'] as const) } : {}) };
          let t = 0;
          const opts = () => ({ schema, apiVersion: 'v1', ignored: op.ignored ? FieldSet.of([field(op.ignored)]) : undefined, now: () => `2024-01-01T00:00:0${t++ % 10}Z` });
          const run = (f: () => { object: JsonObject; changed: boolean }): { text: string; object?: JsonObject } => {
            t = 0;
            try {
              const r = f();
              return { text: `${r.changed} ${JSON.stringify(r.object)}`, object: r.object };
            } catch (err) {
              return { text: `${(err as Error).name}: ${(err as Error).message}` };
            }
          };
          const o1 = opts();
          const a = run(() =>
            op.kind === 'apply'
              // Live (and an applied config) frozen: the store hands the engine the object it read without a copy.
              ? applyObject({ ...o1, live: deepFreeze(mine), config: deepFreeze(structuredClone(op.body)), manager, force: op.force, ...(o1.ignored ? { ignored: o1.ignored } : {}) })
              : updateObject({ ...o1, live: deepFreeze(mine), updated: structuredClone(op.body), manager, ...(o1.ignored ? { ignored: o1.ignored } : {}) }),
          );
          const o2 = opts();
          const b = run(() => (op.kind === 'apply' ? referenceApply({ ...o2, live: theirs, config: structuredClone(op.body), manager, force: op.force }) : referenceUpdate({ ...o2, live: theirs, updated: structuredClone(op.body), manager })));
          assert.equal(a.text, b.text, `scenario ${sc} step ${step}: ${JSON.stringify(op)}`);
          compared++;
          if (a.object) {
            // Hand the engine its own result half of the time (memoized decoding), a parsed copy otherwise.
            mine = g.chance(0.5) ? a.object : (JSON.parse(JSON.stringify(a.object)) as JsonObject);
            theirs = b.object;
          }
        }
      }
      assert.equal(compared, 1500);
    });
  }
});

describe('the engine against the reference algorithm: prune corner cases', () => {
  it('a member under which the config sets nothing (hollow) still takes prune, which can empty it out', () => {
    // Nobody may own spec.x.a (ignored), so when m applies {x: {}} again, prune's passes empty x out and drop spec.
    const ignored = FieldSet.of([field('spec'), field('x'), field('a')]);
    const run = (engine: 'engine' | 'reference'): JsonObject => {
      let t = 0;
      const o = { schema: undefined, apiVersion: 'v1', ignored, now: () => `2024-01-01T00:00:0${t++}Z` };
      const head = { apiVersion: 'v1', kind: 'X', metadata: { name: 'x' } };
      const update = engine === 'engine' ? updateObject : referenceUpdate;
      const apply = (live: JsonObject): JsonObject => (engine === 'engine' ? applyObject : referenceApply)({ ...o, live, config: { ...head, spec: { x: {} } }, manager: 'm', force: false }).object;
      const created = update({ ...o, live: undefined, updated: { ...head, spec: { x: { a: 1 } } }, manager: 'u' }).object;
      const once = apply(created);
      assert.deepEqual(once.spec, { x: { a: 1 } });
      return apply(JSON.parse(JSON.stringify(once)) as JsonObject);
    };
    const got = run('engine');
    assert.equal(got.spec, undefined);
    assert.equal(JSON.stringify(got), JSON.stringify(run('reference')));
  });
});

describe('the engine against the reference algorithm: a config of another shape than live', () => {
  it('a map applied where live holds a scalar is owned field by field, as toFieldSet reads the config', () => {
    const run = (engine: 'engine' | 'reference'): string => {
      let t = 0;
      const o = { schema: Thing, apiVersion: 'v1', ignored: undefined, now: () => `2024-01-01T00:00:0${t++}Z` };
      const head = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 't' } };
      const apply = engine === 'engine' ? applyObject : referenceApply;
      const update = engine === 'engine' ? updateObject : referenceUpdate;
      let live = apply({ ...o, live: undefined, config: { ...head, spec: { replicas: 1 } }, manager: 'm', force: false }).object;
      live = update({ ...o, live, updated: { ...live, spec: { replicas: 1, config: 'not a map' } }, manager: 'u' }).object;
      return JSON.stringify(apply({ ...o, live, config: { ...head, spec: { replicas: 1, config: { k: 'v' } } }, manager: 'm', force: true }).object);
    };
    const got = run('engine');
    assert.match(got, /"manager":"m","operation":"Apply","apiVersion":"v1","time":"[^"]+","fieldsType":"FieldsV1","fieldsV1":\{"f:spec":\{"f:config":\{"f:k":\{\}\},"f:replicas":\{\}\}\}/);
    assert.equal(got, run('reference'));
  });
});
