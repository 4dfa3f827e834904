// createdFieldSet against what it replaces: compare({}, obj).added, less the
// ignored fields (recursively) and the never-owned members, on a table of
// shapes and on random objects (Thing and unstructured); and the create it
// serves, through updateObject, against the engine's update.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonValue, Schema } from '../schema/model.js';
import { createdFieldSet, createdFromZero } from './createset.js';
import { field, FieldSet, pathToString } from './fieldpath.js';
import { Thing } from './fixtures.js';
import { decodeManaged } from './managed.js';
import { generalUpdate, STRIPPED, updateObject, type UpdateObjectOptions } from './merge.js';
import { prng } from '../testing/prng.js';
import { compare, type JsonObject } from './typed.js';

/** The engine's way: the comparison with an empty object, then the two differences. */
function reference(obj: JsonObject, schema: Schema | undefined, ignored?: FieldSet): FieldSet {
  let set = compare({}, obj, schema).added;
  if (ignored) set = set.recursiveDifference(ignored);
  return set.difference(STRIPPED);
}

const paths = (s: FieldSet): string[] => s.paths().map(pathToString).sort();
const outcome = (f: () => FieldSet): string[] | string => {
  try {
    return paths(f());
  } catch (err) {
    return `throws ${(err as Error).name}`;
  }
};
const same = (obj: JsonObject, schema: Schema | undefined, ignored?: FieldSet) => {
  const want = outcome(() => reference(obj, schema, ignored));
  const got = outcome(() => createdFieldSet(obj, schema, { notOwned: STRIPPED, ...(ignored ? { ignored } : {}) }));
  assert.deepEqual(got, want, JSON.stringify(obj));
  return got;
};

/** A create of `obj` through `f` (updateObject, or the engine's generalUpdate): the object as JSON and `changed`, or the error's name. */
function createOutcome(f: typeof updateObject, o: Omit<UpdateObjectOptions, 'updated'>, obj: JsonObject): { json: string; changed: boolean } | { error: string } {
  try {
    const r = f({ ...o, updated: structuredClone(obj) });
    return { json: JSON.stringify(r.object), changed: r.changed };
  } catch (err) {
    return { error: (err as Error).name };
  }
}

/** A random JSON value, three levels at most: scalars from `scalars`, lists, and maps keyed from `keys`. */
function randomJson(r: ReturnType<typeof prng>, scalars: readonly JsonValue[], keys: readonly string[], depth = 0): JsonValue {
  const k = r.int(depth > 2 ? 1 : 4);
  if (k === 0) return scalars[r.int(scalars.length)]!;
  if (k === 1) return Array.from({ length: r.int(3) }, () => randomJson(r, scalars, keys, depth + 1));
  const o: JsonObject = {};
  for (let i = r.int(4); i > 0; i--) o[keys[r.int(keys.length)]!] = randomJson(r, scalars, keys, depth + 1);
  return o;
}

const STATUS = FieldSet.of([field('status')]);
const SPEC_REPLICAS = FieldSet.of([field('spec'), field('replicas')]);
const meta = { name: 'x', namespace: 'ns', uid: 'u', generation: 1, creationTimestamp: '2024-01-01T00:00:00Z', labels: { app: 'a' } };

describe('createdFieldSet: the field set of a create from nothing', () => {
  const cases: { name: string; obj: JsonObject; schema: Schema | undefined; ignored?: FieldSet; want: string[] | string }[] = [
    { name: 'unstructured: leaves and granular maps; metadata only for what someone may own', obj: { apiVersion: 'g/v1', kind: 'K', metadata: meta, spec: { a: 1, b: { c: 'x' }, list: [1, 2] } }, schema: undefined,
      want: ['.metadata.labels', '.metadata.labels.app', '.spec', '.spec.a', '.spec.b', '.spec.b.c', '.spec.list'] },
    { name: 'nothing but never-owned fields: empty', obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x' } }, schema: undefined, want: [] },
    { name: 'empty containers, null and undefined are leaves', obj: { spec: { m: {}, l: [], n: null, u: undefined as unknown as JsonValue } }, schema: undefined,
      want: ['.spec', '.spec.l', '.spec.m', '.spec.n', '.spec.u'] },
    { name: 'ignored subtrees are left out whole', obj: { spec: { a: 1 }, status: { ready: true, deep: { x: 1 } } }, schema: undefined, ignored: STATUS, want: ['.spec', '.spec.a'] },
    { name: 'an ignored leaf under a map that keeps others', obj: { spec: { replicas: 2, paused: true } }, schema: Thing, ignored: SPEC_REPLICAS, want: ['.spec', '.spec.paused'] },
    { name: 'an ignored leaf that was the only one: its map stays (it is a member itself)', obj: { spec: { replicas: 2 } }, schema: Thing, ignored: SPEC_REPLICAS, want: ['.spec'] },
    { name: 'Thing: map list items by key, sets by value, atomic lists and maps as leaves', schema: Thing,
      obj: { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }], hosts: ['h1', 'h2'], args: ['x'], frozen: { a: 'b' }, config: { k: 'v' } } },
      want: ['.spec', '.spec.args', '.spec.config', '.spec.config.k', '.spec.containers', '.spec.containers[name="c"]', '.spec.containers[name="c"].image', '.spec.containers[name="c"].name',
        '.spec.containers[name="c"].ports', '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]', '.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].containerPort', '.spec.frozen', '.spec.hosts', '.spec.hosts[="h1"]', '.spec.hosts[="h2"]'] },
    { name: 'a value that does not fit its schema is a leaf', obj: { spec: { containers: 'not a list', config: 5 } }, schema: Thing, want: ['.spec', '.spec.config', '.spec.containers'] },
    { name: 'duplicate keys of a map list throw, as the comparison does', obj: { spec: { containers: [{ name: 'c' }, { name: 'c' }] } }, schema: Thing, want: 'throws TypedError' },
    { name: 'an item without its key throws', obj: { spec: { containers: [{ image: 'i' }] } }, schema: Thing, want: 'throws TypedError' },
    { name: 'duplicate values of a set throw', obj: { spec: { hosts: ['a', 'a'] } }, schema: Thing, want: 'throws TypedError' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(same(c.obj, c.schema, c.ignored), c.want);
    });
  }

  it('is the comparison’s set on random objects, Thing and unstructured, with and without ignored fields', () => {
    const r = prng(23);
    const value = (depth: number) => randomJson(r, [null, 1, 'a', 'b', true, 0], ['a', 'b', 'c', 'd'], depth);
    const thingSpec = (): JsonObject => {
      const spec: JsonObject = {};
      if (r.int(2)) spec.replicas = r.int(3);
      if (r.int(2)) spec.containers = Array.from({ length: r.int(3) }, () => ({ name: ['x', 'y', 'z'][r.int(3)]!, ...(r.int(2) ? { image: 'i' } : {}), ...(r.int(2) ? { ports: [{ containerPort: 80 + r.int(2) }] } : {}) }));
      if (r.int(2)) spec.hosts = Array.from({ length: r.int(3) }, () => ['p', 'q', 'r'][r.int(3)]!);
      if (r.int(2)) spec.config = r.int(4) === 0 ? {} : { k: 'v', ...(r.int(2) ? { j: 'w' } : {}) };
      if (r.int(2)) spec.frozen = { a: 'b' };
      if (r.int(2)) spec.args = ['x'];
      if (r.int(4) === 0) spec.selector = { matchLabels: { a: 'b' } };
      return spec;
    };
    let throws = 0;
    for (let i = 0; i < 400; i++) {
      const thing = i % 2 === 0;
      const obj: JsonObject = { apiVersion: 'v1', kind: 'Thing', metadata: r.int(2) ? meta : { name: 'x' }, spec: thing ? thingSpec() : value(0) };
      if (r.int(3) === 0) obj.status = value(1);
      const ignored = [undefined, STATUS, SPEC_REPLICAS][r.int(3)];
      if (typeof same(obj, thing ? Thing : undefined, ignored) === 'string') throws++;
      else {
        // the whole create, fast path against the engine
        const o = { manager: 'm', apiVersion: 'v1', schema: thing ? Thing : undefined, now: () => 't', ...(ignored ? { ignored } : {}), live: undefined, empty: {} };
        assert.equal(JSON.stringify(updateObject({ ...o, updated: structuredClone(obj) }).object), JSON.stringify(generalUpdate({ ...o, updated: structuredClone(obj) }).object));
      }
    }
    assert.ok(throws > 0, 'some random objects have duplicate items');
  });

  it('from a zero object: the comparison\'s added and modified fields, on random objects and zero objects; the engine\'s create', () => {
    const r = prng(41);
    const value = (depth: number) => randomJson(r, [null, 1, 'a', true, 0], ['a', 'b', 'c'], depth);
    const thingSpec = (zero: boolean): JsonObject => {
      const spec: JsonObject = {};
      if (r.int(2)) spec.replicas = zero ? r.int(2) : r.int(3);
      if (r.int(2)) spec.containers = zero && r.int(2) ? null : Array.from({ length: r.int(3) }, () => ({ name: ['x', 'y'][r.int(2)]!, ...(r.int(2) ? { image: 'i' } : {}) }));
      if (r.int(2)) spec.hosts = zero && r.int(2) ? [] : Array.from({ length: r.int(2) }, () => ['p', 'q'][r.int(2)]!);
      if (r.int(2)) spec.config = r.int(3) === 0 ? {} : r.int(2) ? null : { k: 'v' };
      if (r.int(2)) spec.frozen = r.int(2) ? { a: 'b' } : {};
      if (r.int(3) === 0) spec.selector = r.int(2) ? null : { matchLabels: { a: 'b' } };
      return spec;
    };
    let walked = 0;
    let compared = 0;
    for (let i = 0; i < 600; i++) {
      const thing = i % 2 === 0;
      const schema = thing ? Thing : undefined;
      const obj: JsonObject = { apiVersion: 'v1', kind: 'Thing', metadata: r.int(2) ? meta : { name: 'x', ...(r.int(2) ? { creationTimestamp: null } : {}) }, spec: thing ? thingSpec(false) : value(0) };
      if (r.int(3) === 0) obj.status = r.int(2) ? {} : value(1);
      const zero: JsonObject = { metadata: { creationTimestamp: null }, ...(r.int(3) ? { spec: thing ? thingSpec(true) : value(1) } : {}), ...(r.int(2) ? { status: r.int(2) ? {} : value(1) } : {}) };
      const ignored = [undefined, STATUS, SPEC_REPLICAS][r.int(3)];
      const want = outcome(() => {
        const c = compare(zero, obj, schema);
        let set = c.modified.union(c.added);
        if (ignored) set = set.recursiveDifference(ignored);
        return set.difference(STRIPPED);
      });
      const got = outcome(() => createdFromZero(obj, zero, schema, { notOwned: STRIPPED, ...(ignored ? { ignored } : {}) }) ?? FieldSet.of([field('compared')]));
      if (Array.isArray(got) && got[0] === '.compared') compared++;
      else {
        walked++;
        assert.deepEqual(got, want, JSON.stringify({ zero, obj }));
      }
      // the whole create, whichever way it goes, against the engine
      const o = { manager: 'm', apiVersion: 'v1', schema, now: () => 't', ...(ignored ? { ignored } : {}), live: undefined, empty: zero };
      assert.deepEqual(createOutcome(updateObject, o, obj), createOutcome(generalUpdate, o, obj), JSON.stringify({ zero, obj }));
    }
    assert.ok(walked > 100 && compared > 10, `walked ${walked}, compared ${compared}: both ways are tried`);
  });

  it('a create through updateObject: the same object, managedFields bytes and answer as the engine', () => {
    const now = () => '2024-01-01T00:00:00Z';
    const creates: { schema: Schema | undefined; obj: JsonObject; manager?: string; subresource?: string; ignored?: FieldSet }[] = [
      { schema: undefined, obj: { apiVersion: 'g/v1', kind: 'K', metadata: meta, spec: { a: 1, b: { c: [1] } } } },
      { schema: undefined, obj: { apiVersion: 'g/v1', kind: 'K', metadata: meta, spec: { a: 1 }, status: { s: 1 } }, ignored: STATUS },
      { schema: undefined, obj: { apiVersion: 'g/v1', kind: 'K', metadata: meta, spec: { a: 1 } }, manager: '' },
      { schema: undefined, obj: { apiVersion: 'g/v1', kind: 'K', metadata: meta, status: { a: 1 } }, subresource: 'status' },
      { schema: undefined, obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'only-never-owned' } } },
      { schema: undefined, obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'sent', managedFields: [{ manager: 'x', operation: 'Update', apiVersion: 'g/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] }, spec: { a: 1 } } },
      { schema: Thing, obj: { apiVersion: 'v1', kind: 'Thing', metadata: meta, spec: { hosts: ['a'], replicas: 1, containers: [{ name: 'c' }] } } },
      { schema: Thing, obj: { apiVersion: 'v1', kind: 'Thing', metadata: meta, spec: { hosts: ['a', 'a'] } } },
    ];
    for (const c of creates) {
      const o = { manager: c.manager ?? 'm', apiVersion: 'v1', schema: c.schema, now, ...(c.ignored ? { ignored: c.ignored } : {}), ...(c.subresource ? { subresource: c.subresource } : {}), live: undefined, empty: {} };
      assert.deepEqual(createOutcome(updateObject, o, c.obj), createOutcome(generalUpdate, o, c.obj), JSON.stringify(c));
    }
    // and the fast path is taken: the entry of a create from nothing is written once, in encodeManaged's field order
    const r = updateObject({ manager: 'm', apiVersion: 'g/v1', schema: undefined, now, live: undefined, updated: { metadata: { name: 'x' }, spec: { a: 1 } } });
    assert.deepEqual(Object.keys(((r.object.metadata as JsonObject).managedFields as JsonObject[])[0]!), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    assert.deepEqual(paths(decodeManaged((r.object.metadata as JsonObject).managedFields).values().next().value!.fields), ['.spec', '.spec.a']);
  });
});
