// Replays the server-side apply exchanges of the golden transcripts
// (../shared/reference/transcripts/golden/apply-*.json, read at test time)
// through the engine, starting each step from the live object the reference
// server returned, and compares managedFields (manager, operation, apiVersion,
// time presence, fieldsV1 with key order), the object, no-op detection and
// conflict messages/causes.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { REFERENCE_DIR } from '../api/parity/reference.js';
import { ConfigMap } from '../api/core/v1/config.js';
import { list, obj, int32, ref, str, mapOf } from '../schema/dsl.js';
import { kind, LabelSelector, ObjectMeta } from '../schema/common.js';
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { ApplyConflictError } from './managed.js';
import { TypedError } from './typed.js';
import { applyObject, updateObject, type JsonObject } from './merge.js';

/** apps/v1 Deployment, reduced to what the transcripts touch (topology as the official OpenAPI). */
const Deployment = kind({
  spec: obj({
    replicas: int32(),
    selector: ref(LabelSelector),
    template: obj({
      metadata: ref(ObjectMeta),
      spec: obj({ containers: list(obj({ name: str().required(), image: str() })).patch('merge', 'name') }),
    }),
    strategy: obj({ type: str(), rollingUpdate: obj({ maxSurge: str(), maxUnavailable: str() }) }),
    revisionHistoryLimit: int32(),
    progressDeadlineSeconds: int32(),
  }),
  status: mapOf(str()),
}).schema;

const schemaFor = (path: string): { schema: Schema; apiVersion: string } | undefined =>
  path.includes('/configmaps/') ? { schema: ConfigMap.schema, apiVersion: 'v1' } : path.includes('/deployments/') ? { schema: Deployment, apiVersion: 'apps/v1' } : undefined;

const FIXED = '2023-01-01T00:00:00Z';
const restore = (v: unknown): JsonValue =>
  typeof v === 'string' ? (v === '<time>' ? FIXED : v) : Array.isArray(v) ? v.map(restore) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, restore(x)])) : (v as JsonValue);

/** RFC 7386 merge patch. */
function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...(target as JsonObject) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v as JsonValue);
  }
  return out;
}

/** The replace/add subset of RFC 6902 the transcripts use. */
function jsonPatch(target: JsonObject, ops: { op: string; path: string; value?: JsonValue }[]): JsonObject {
  const out = structuredClone(target);
  for (const op of ops) {
    assert.ok(op.op === 'replace' || op.op === 'add', `unsupported op ${op.op}`);
    const parts = op.path.split('/').slice(1);
    let node = out as JsonObject;
    for (const p of parts.slice(0, -1)) node = node[p] as JsonObject;
    node[parts[parts.length - 1]!] = op.value!;
  }
  return out;
}

const SERVER_SET = ['namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields'];
const withoutServerFields = (o: JsonObject): JsonObject => {
  const c = structuredClone(o);
  if (isObject(c.metadata)) for (const k of SERVER_SET) delete (c.metadata as JsonObject)[k];
  return c;
};

/** Every value of `sub` is in `sup` (the server adds defaults and metadata on create). */
function assertSubset(sub: JsonValue, sup: JsonValue, at: string): void {
  if (isObject(sub)) {
    assert.ok(isObject(sup), `${at}: expected an object`);
    for (const [k, v] of Object.entries(sub)) assertSubset(v as JsonValue, (sup as JsonObject)[k] as JsonValue, `${at}.${k}`);
  } else if (Array.isArray(sub)) {
    assert.ok(Array.isArray(sup) && sup.length === sub.length, `${at}: list length`);
    sub.forEach((x, i) => assertSubset(x, (sup as JsonValue[])[i]!, `${at}[${i}]`));
  } else assert.deepEqual(sub, sup, at);
}

type Entry = { manager: string; operation: string; apiVersion: string; time?: string; fieldsV1: unknown };
const shape = (entries: unknown): unknown[] =>
  ((entries ?? []) as Entry[]).map((e) => ({ manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, time: e.time !== undefined, fieldsV1: JSON.stringify(e.fieldsV1) }));

interface Step {
  name: string;
  request: { method: string; path: string; headers?: Record<string, string>; body?: unknown };
  response: { status: number; body: unknown };
}

/**
 * Steps where we follow the spec ("Apply", item 13) rather than the recorded
 * v1.26 server, with what we answer instead (managedFields entries as
 * manager/operation → fieldsV1).
 */
const SPEC_OVER_RECORDING: Record<string, Record<string, unknown>> = {
  // The spec: an empty list does not reset; the recording reset it.
  'apply-06-clear-managedfields.json empty-list-no-reset': {
    'alice/Apply': { 'f:data': { 'f:a': {} } },
    'before-first-apply/Update': { 'f:data': { '.': {}, 'f:a': {} } },
  },
  // The spec: the reset comes first and the change then belongs to the updater; the recording tracked nothing.
  'apply-06-clear-managedfields.json clear-and-change': { 'bob/Update': { 'f:data': { 'f:b': {} } } },
};

const dir = REFERENCE_DIR && join(REFERENCE_DIR, 'transcripts', 'golden');
const WITH_APPLY = ['apply-', 'dryrun-03-', 'fieldvalidation-03-'];
const files = dir && existsSync(dir) ? readdirSync(dir).filter((f) => WITH_APPLY.some((p) => f.startsWith(p))) : [];

describe('golden transcripts: server-side apply', () => {
  if (files.length === 0) {
    it('transcripts present', (t) => t.skip('../shared/reference/transcripts not found'));
    return;
  }
  for (const file of files) {
    it(file, () => {
      const steps = (JSON.parse(readFileSync(join(dir!, file), 'utf8')) as { steps: Step[] }).steps;
      const live = new Map<string, JsonObject>();
      let tick = 0;
      const now = (): string => new Date(Date.parse(FIXED) + 1000 * ++tick).toISOString().replace('.000Z', 'Z');
      let compared = 0;
      for (const step of steps) {
        const { method, path: full, headers = {}, body } = step.request;
        const [rawPath, query = ''] = full.split('?');
        const target = schemaFor(rawPath + '/');
        if (!target || method === 'GET' || method === 'DELETE') continue;
        const res = step.response;
        const isApply = method === 'PATCH' && headers['Content-Type'] === 'application/apply-patch+yaml';
        // Non-apply failures are validation, not field management.
        if (!isApply && res.status >= 400) continue;
        const path = method === 'POST' ? `${rawPath}/${((res.body as JsonObject).metadata as JsonObject).name as string}` : rawPath;
        const params = new URLSearchParams(query);
        const manager = params.get('fieldManager') ?? 'scenario-tool';
        const ctype = headers['Content-Type'] ?? '';
        const current = live.get(path!);
        const dryRun = params.get('dryRun') === 'All';
        const where = `${file} ${step.name}`;
        let result;
        try {
          if (isApply) {
            const config = (typeof body === 'string' ? parse(body) : body) as JsonObject;
            result = applyObject({ live: current, config, manager, apiVersion: target.apiVersion, force: params.get('force') === 'true', schema: target.schema, now });
          } else {
            // The request decides managedFields (reset rules); the server's answer is the persisted content.
            const requested =
              method === 'POST'
                ? (body as JsonObject)
                : method === 'PUT'
                  ? (restore(body) as JsonObject)
                  : ctype === 'application/json-patch+json'
                    ? jsonPatch(current!, body as { op: string; path: string; value?: JsonValue }[])
                    : (mergePatch(current, body as JsonValue) as JsonObject);
            const updated = restore(res.body) as JsonObject;
            const meta = updated.metadata as JsonObject;
            delete meta.managedFields;
            const requestedManaged = (requested.metadata as JsonObject | undefined)?.managedFields;
            if (requestedManaged !== undefined) meta.managedFields = requestedManaged;
            result = updateObject({ live: method === 'POST' ? undefined : current, updated, manager, apiVersion: target.apiVersion, schema: target.schema, now });
          }
        } catch (e) {
          if (e instanceof TypedError) {
            assert.equal(res.status, 500, `${where}: unexpected TypedError ${e.message}`);
            assert.ok((res.body as { message: string }).message.endsWith(`: ${e.message}`), `${where}: ${e.message}`);
            compared++;
            continue;
          }
          if (!(e instanceof ApplyConflictError)) throw e;
          assert.equal(res.status, 409, `${where}: unexpected conflict ${e.message}`);
          const status = res.body as { message: string; details: { causes: { reason: string; message: string; field: string }[] } };
          assert.equal(e.message, status.message, `${where}: message`);
          const sortByField = <T extends { field: string }>(xs: T[]): T[] => [...xs].sort((a, b) => (a.field < b.field ? -1 : 1));
          assert.deepEqual(sortByField(e.causes()), sortByField(status.details.causes), `${where}: causes`);
          compared++;
          continue;
        }
        assert.ok(res.status === 200 || res.status === 201, `${where}: engine succeeded but server answered ${res.status}`);
        const want = res.body as JsonObject;
        const wantMeta = (want.metadata ?? {}) as JsonObject;
        const gotMeta = (result.object.metadata ?? {}) as JsonObject;
        const ours = SPEC_OVER_RECORDING[where];
        if (ours) {
          const got = Object.fromEntries(((gotMeta.managedFields ?? []) as Entry[]).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));
          assert.deepEqual(got, ours, `${where}: managedFields (spec over recording)`);
          live.set(path!, restore(want) as JsonObject);
          compared++;
          continue;
        }
        assert.deepEqual(shape(gotMeta.managedFields), shape(wantMeta.managedFields), `${where}: managedFields`);
        if (current === undefined) assertSubset(withoutServerFields(result.object), withoutServerFields(want), where);
        else assert.deepEqual(withoutServerFields(result.object), withoutServerFields(want), `${where}: object`);
        if (current !== undefined && !dryRun) {
          const rvChanged = (current.metadata as JsonObject).resourceVersion !== wantMeta.resourceVersion;
          assert.equal(result.changed || !jsonEqualManaged(current, result.object), rvChanged, `${where}: write happened`);
        }
        if (!dryRun) live.set(path!, restore(want) as JsonObject);
        compared++;
      }
      assert.ok(compared > 0, 'nothing compared');
    });
  }
});

/** A write also happens when only managedFields changed. */
function jsonEqualManaged(a: JsonObject, b: JsonObject): boolean {
  return JSON.stringify(shape((a.metadata as JsonObject).managedFields)) === JSON.stringify(shape((b.metadata as JsonObject).managedFields));
}
