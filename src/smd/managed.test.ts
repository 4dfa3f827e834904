// managedFields handling: item 2 (applied objects carry no managedFields),
// item 13 (reset rules), entry identity and order, time stamping, the
// before-first-apply entry, untracked updates, the update cap, decoding
// errors, and item 9 (topology changes without a version change).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { JsonValue } from '../schema/model.js';
import { field, FieldSet, toFieldsV1 } from './fieldpath.js';
import { capUpdateManagers, decodeManaged, encodeManaged, isResetRequest, ManagedFieldsError, managerId, type Managed } from './managed.js';
import { apply, applyObject, ApplyBadRequestError, updateObject, type JsonObject } from './merge.js';
import { Thing } from './fixtures.js';
import { TypedError } from './typed.js';
import { list, obj, str } from '../schema/dsl.js';
import { kind } from '../schema/common.js';

const y = (s: string): JsonObject => parse(s) as JsonObject;
const head = 'apiVersion: v1\nkind: Thing\nmetadata: {name: t}\n';
const clock = (): (() => string) => {
  let i = 0;
  return () => `2024-01-01T00:00:${String(i++).padStart(2, '0')}Z`;
};
const base = { apiVersion: 'v1', schema: Thing };
const mf = (o: JsonObject): { manager: string; operation: string; time?: string; fieldsV1: unknown }[] => ((o.metadata as JsonObject).managedFields ?? []) as never;

describe('managedFields', () => {
  it('item 2: an applied object must not carry managedFields; the version must match', () => {
    assert.throws(() => applyObject({ ...base, now: clock(), live: undefined, manager: 'a', force: false, config: y('apiVersion: v1\nkind: Thing\nmetadata: {name: t, managedFields: []}') }), ApplyBadRequestError);
    assert.throws(() => applyObject({ ...base, now: clock(), live: undefined, manager: 'a', force: false, config: y('apiVersion: v2\nkind: Thing') }), /Specified patch version: v2, expected: v1/);
  });

  it('undeclared fields in an applied object are rejected as Kubernetes does', () => {
    assert.throws(() => applyObject({ ...base, now: clock(), live: undefined, manager: 'a', force: false, config: y(head + 'spam: 1') }), (e: unknown) => e instanceof TypedError && e.message === '.spam: field not declared in schema');
  });

  it('item 13: [{}] resets, [] and an absent list keep the live entries; a reset with a change gives the change to the updater', () => {
    assert.equal(isResetRequest([{}]), true);
    assert.equal(isResetRequest([]), false);
    assert.equal(isResetRequest(undefined), false);
    assert.equal(isResetRequest([{ manager: 'x' }]), false);
    const now = clock();
    const live = applyObject({ ...base, now, live: undefined, manager: 'a', force: false, config: y(head + 'spec: {replicas: 1}') }).object;
    const kept = updateObject({ ...base, now, live, manager: 'b', updated: { ...live, spec: { replicas: 1, paused: true } } });
    assert.deepEqual(mf(kept.object).map((e) => e.manager), ['a', 'b']);
    const emptyList = updateObject({ ...base, now, live, manager: 'b', updated: { ...live, metadata: { name: 't', managedFields: [] } } });
    assert.deepEqual(mf(emptyList.object).map((e) => e.manager), ['a']);
    const cleared = updateObject({ ...base, now, live, manager: 'b', updated: { ...live, metadata: { name: 't', managedFields: [{}] } } });
    assert.equal((cleared.object.metadata as JsonObject).managedFields, undefined);
    const clearedAndChanged = updateObject({ ...base, now, live, manager: 'b', updated: { ...live, metadata: { name: 't', managedFields: [{}] }, spec: { replicas: 2 } } });
    assert.deepEqual(clearedAndChanged.object.spec, { replicas: 2 });
    assert.deepEqual(mf(clearedAndChanged.object).map((e) => [e.manager, e.fieldsV1]), [['b', { 'f:spec': { 'f:replicas': {} } }]]);
  });

  it('the first apply to an untracked object records existing fields under before-first-apply', () => {
    const r = applyObject({ ...base, now: clock(), live: y(head + 'spec: {replicas: 1}'), manager: 'a', force: false, config: y(head + 'spec: {replicas: 1}') });
    assert.equal(r.changed, false);
    assert.deepEqual(
      mf(r.object).map((e) => [e.manager, e.operation, e.time !== undefined, e.fieldsV1]),
      [
        ['a', 'Apply', false, { 'f:spec': { 'f:replicas': {} } }],
        ['before-first-apply', 'Update', true, { 'f:spec': { '.': {}, 'f:replicas': {} } }],
      ],
    );
  });

  it('entries: one Apply entry per manager across versions, one Update entry per manager and version; ordered as Kubernetes', () => {
    const m: Managed = new Map();
    const add = (manager: string, operation: 'Apply' | 'Update', apiVersion: string, time?: string): void => {
      const e = { manager, operation, apiVersion, fields: FieldSet.of([field(manager)]), ...(time ? { time } : {}) };
      m.set(managerId(e), e);
    };
    add('z', 'Update', 'v1', '2024-01-01T00:00:01Z');
    add('b', 'Update', 'v2', '2024-01-01T00:00:01Z');
    add('b', 'Update', 'v1', '2024-01-01T00:00:01Z');
    add('y', 'Apply', 'v1', '2024-01-01T00:00:05Z');
    add('x', 'Apply', 'v2');
    assert.equal(managerId({ manager: 'x', operation: 'Apply', apiVersion: 'v2' }), '{"manager":"x","operation":"Apply"}');
    assert.equal(managerId({ manager: 'b', operation: 'Update', apiVersion: 'v1', subresource: 'status' }), '{"manager":"b","operation":"Update","apiVersion":"v1","subresource":"status"}');
    const enc = encodeManaged(m)!;
    assert.deepEqual(enc.map((e) => `${e.manager}/${e.operation}/${e.apiVersion}`), ['x/Apply/v2', 'y/Apply/v1', 'b/Update/v1', 'b/Update/v2', 'z/Update/v1']);
    assert.deepEqual(Object.keys(enc[1]!), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    const back = decodeManaged(enc);
    assert.deepEqual([...back.keys()].sort(), [...m.keys()].sort());
  });

  it('rejects malformed entries as Kubernetes does', () => {
    assert.throws(() => decodeManaged([{ manager: 'a', operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1' }]), /operation must be `Apply` or `Update`/);
    assert.throws(() => decodeManaged([{ manager: 'a', operation: 'Update', fieldsType: 'FieldsV1' }]), /apiVersion must not be empty/);
    assert.throws(() => decodeManaged([{ manager: 'a', operation: 'Update', apiVersion: 'v1' }]), ManagedFieldsError);
  });

  it('caps Update entries at 10 by merging the oldest into ancient-changes', () => {
    const m: Managed = new Map();
    for (let i = 0; i < 12; i++) {
      const e = { manager: `m${String(i).padStart(2, '0')}`, operation: 'Update' as const, apiVersion: 'v1', time: `2024-01-01T00:00:${String(i).padStart(2, '0')}Z`, fields: FieldSet.of([field(`f${i}`)]) };
      m.set(managerId(e), e);
    }
    capUpdateManagers(m);
    assert.equal(m.size, 10);
    const bucket = m.get(managerId({ manager: 'ancient-changes', operation: 'Update', apiVersion: 'v1' }))!;
    assert.deepEqual(toFieldsV1(bucket.fields), { 'f:f0': {}, 'f:f1': {}, 'f:f2': {} });
    assert.equal(bucket.time, '2024-01-01T00:00:02Z');
  });

  it('item 9: granular → atomic makes whoever owned an element own the whole structure', () => {
    const granular = kind({ spec: obj({ items: list(obj({ name: str().required(), v: str() })).map('name') }) }).schema;
    const atomic = kind({ spec: obj({ items: list(obj({ name: str().required(), v: str() })).atomic() }) }).schema;
    const now = clock();
    const r1 = applyObject({ apiVersion: 'v1', schema: granular, now, live: undefined, manager: 'a', force: false, config: y(head + 'spec: {items: [{name: x, v: "1"}]}') });
    const m = decodeManaged((r1.object.metadata as JsonObject).managedFields);
    const live = { ...r1.object, metadata: { name: 't' } };
    const config = y(head + 'spec: {items: [{name: x, v: "2"}]}');
    assert.throws(() => apply({ apiVersion: 'v1', schema: atomic, now, live, config, manager: 'b', force: false, managed: m }), /conflict with "a": \.spec\.items$/);
    // Under the old granular schema the same change of another field of the item conflicts only on that field.
    assert.throws(() => apply({ apiVersion: 'v1', schema: granular, now, live, config, manager: 'b', force: false, managed: m }), /conflict with "a": \.spec\.items\[name="x"\]\.v$/);
  });
});

describe('managedFields order (Kubernetes\' sortEncodedManagedFields, on every encode)', () => {
  type Row = [manager: string, operation: 'Apply' | 'Update', apiVersion: string, subresource?: string, time?: string];
  const rows: { name: string; entries: Row[]; want: string[] }[] = [
    { name: 'Apply before Update, whatever the times', entries: [['u', 'Update', 'v1', undefined, '2020-01-01T00:00:00Z'], ['a', 'Apply', 'v1', undefined, '2030-01-01T00:00:00Z']], want: ['a/Apply', 'u/Update'] },
    { name: 'then by time in whole seconds, an entry without time counting as 0 (first)', entries: [['a', 'Update', 'v1', undefined, '2024-01-01T00:00:02Z'], ['z', 'Update', 'v1'], ['m', 'Update', 'v1', undefined, '2024-01-01T00:00:01Z']], want: ['z/Update', 'm/Update', 'a/Update'] },
    { name: 'times within one second tie and fall to the manager', entries: [['b', 'Update', 'v1', undefined, '2024-01-01T00:00:01.100Z'], ['a', 'Update', 'v1', undefined, '2024-01-01T00:00:01.900Z']], want: ['a/Update', 'b/Update'] },
    { name: 'then manager, in byte order (upper case first)', entries: [['b', 'Apply', 'v1'], ['B', 'Apply', 'v1'], ['a', 'Apply', 'v1']], want: ['B/Apply', 'a/Apply', 'b/Apply'] },
    { name: 'then apiVersion', entries: [['m', 'Update', 'v2'], ['m', 'Update', 'v1']], want: ['m/Update/v1', 'm/Update/v2'] },
    { name: 'then subresource, none first', entries: [['m', 'Update', 'v1', 'status'], ['m', 'Update', 'v1', 'scale'], ['m', 'Update', 'v1']], want: ['m/Update/v1', 'm/Update/v1/scale', 'm/Update/v1/status'] },
    {
      name: 'a scaler (no time) before the creator (timed), the status writer by its time',
      entries: [['creator', 'Update', 'apps/v1', undefined, '2024-01-01T00:00:05Z'], ['kubectl', 'Update', 'apps/v1', 'scale'], ['controller', 'Update', 'apps/v1', 'status', '2024-01-01T00:00:03Z']],
      want: ['kubectl/Update/apps/v1/scale', 'controller/Update/apps/v1/status', 'creator/Update/apps/v1'],
    },
    { name: 'a time that does not parse sorts as no time (Kubernetes would have refused it when decoding; we never fail a sort)', entries: [['b', 'Update', 'v1', undefined, '2024-01-01T00:00:01Z'], ['a', 'Update', 'v1', undefined, 'not a time']], want: ['a/Update', 'b/Update'] },
  ];
  const label = (e: { manager?: string; operation: string; apiVersion: string; subresource?: string }, full: boolean) => [e.manager, e.operation, ...(full ? [e.apiVersion] : []), ...(e.subresource ? [e.subresource] : [])].join('/');
  for (const r of rows) {
    it(r.name, () => {
      const full = r.want.some((w) => w.split('/').length > 2);
      // Every order of the input encodes to the same list.
      for (const entries of [r.entries, [...r.entries].reverse()]) {
        const m: Managed = new Map();
        for (const [manager, operation, apiVersion, subresource, time] of entries) {
          const e = { manager, operation, apiVersion, fields: FieldSet.of([field('x')]), ...(subresource ? { subresource } : {}), ...(time ? { time } : {}) };
          m.set(managerId(e), e);
        }
        assert.deepEqual(encodeManaged(m)!.map((e) => label(e, full)), r.want);
      }
    });
  }
  it('an update re-sorts the entries a request sent in another order', () => {
    const sent = [
      { manager: 'z', operation: 'Update', apiVersion: 'v1', time: '2024-01-01T00:00:09Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:z': {} } } },
      { manager: 'a', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
    ];
    const live = y(`${head}data: {a: "1", z: "1"}`);
    const updated = { ...y(`${head}data: {a: "1", z: "1", b: "1"}`), metadata: { name: 't', managedFields: sent as unknown as JsonValue } } as JsonObject;
    const out = updateObject({ ...base, now: () => '2024-01-01T00:00:05Z', live, updated, manager: 'b' }).object;
    assert.deepEqual(mf(out).map((e) => `${e.manager}${e.time ? '@' + e.time.slice(-3, -1) : ''}`), ['a', 'b@05', 'z@09']);
  });
});

export type { JsonValue };
