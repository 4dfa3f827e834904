import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Double, Timestamp, Uint } from '../values.js';
import { k8sListConcat, k8sListEquals, listKindOf, needsTypedEquality, typedEquals, type K8sList } from './lists.js';
import { schemaType, type Schema } from './schema.js';
import type { ListType, ObjectType } from '../types.js';

const SET: K8sList = { listType: 'set' };
const PORTS: K8sList = { listType: 'map', mapKeys: ['containerPort', 'protocol'] };
const NAMED: K8sList = { listType: 'map', mapKeys: ['name'] };
const p = (containerPort: number, protocol: string, name?: string): Record<string, unknown> =>
  name === undefined ? { containerPort, protocol } : { containerPort, protocol, name };

test('k8sListEquals: set and map lists ignore order', () => {
  const rows: [string, K8sList, unknown[], unknown[], boolean][] = [
    ['same order', SET, ['a', 'b'], ['a', 'b'], true],
    ['other order', SET, ['a', 'b', 'c'], ['c', 'a', 'b'], true],
    ['different element', SET, ['a', 'b'], ['a', 'c'], false],
    ['different size', SET, ['a'], ['a', 'a'], false],
    ['empty', SET, [], [], true],
    ['numbers across int/double/uint', SET, [1, 2], [new Double(2), new Uint(1)], true],
    ['timestamps', SET, [new Timestamp(1, 0), new Timestamp(2, 0)], [new Timestamp(2, 0), new Timestamp(1, 0)], true],
    ['bigints', SET, [2n ** 60n, 3], [3, 2n ** 60n], true],
    ['string is not int', SET, ['1'], [1], false],
    ['map list, other order', PORTS, [p(80, 'TCP'), p(80, 'UDP')], [p(80, 'UDP'), p(80, 'TCP')], true],
    ['map list, same key other value', PORTS, [p(80, 'TCP', 'a'), p(81, 'TCP')], [p(81, 'TCP'), p(80, 'TCP', 'b')], false],
    ['map list, missing key', PORTS, [p(80, 'TCP')], [p(80, 'UDP')], false],
    ['map list, absent key property', NAMED, [{ v: 1 }, { name: 'a' }], [{ name: 'a' }, { v: 1 }], true],
  ];
  for (const [what, kind, x, y, want] of rows) assert.equal(k8sListEquals(kind, x, y), want, what);
});

test('k8sListConcat: set union and map merge keep the left positions', () => {
  assert.deepEqual(k8sListConcat(SET, ['a', 'b'], ['c', 'a', 'd']), ['a', 'b', 'c', 'd']);
  assert.deepEqual(k8sListConcat(SET, ['a'], ['b', 'b']), ['a', 'b'], "Y's duplicates are added once");
  assert.deepEqual(k8sListConcat(SET, [1], [new Double(1), 2]), [1, 2]);
  assert.deepEqual(k8sListConcat(SET, [], ['x']), ['x']);
  const x = ['a'];
  assert.deepEqual(k8sListConcat(SET, x, []), x);
  assert.deepEqual(k8sListConcat(SET, x, ['b']), ['a', 'b']);
  assert.deepEqual(x, ['a'], 'the operand is not modified');
  assert.deepEqual(
    k8sListConcat(PORTS, [p(80, 'TCP', 'http'), p(443, 'TCP', 'https')], [p(53, 'UDP', 'dns'), p(80, 'TCP', 'web')]),
    [p(80, 'TCP', 'web'), p(443, 'TCP', 'https'), p(53, 'UDP', 'dns')],
  );
  assert.deepEqual(
    k8sListConcat(NAMED, [{ name: 'a', v: 1 }], [{ name: 'b', v: 2 }, { name: 'b', v: 3 }]),
    [{ name: 'a', v: 1 }, { name: 'b', v: 2 }, { name: 'b', v: 3 }],
    "only X's keys are merged into (kube): Y's duplicate keys are both appended",
  );
});

// kube's validation_test.go "listSets" and "listMaps" expectations, at the value level.
test('list types: kube listSets/listMaps expectations, results of + keep their list type', () => {
  const setSchema: Schema = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' };
  const setT = schemaType(setSchema, { name: 'x' }) as ListType;
  const val1 = ['a', 'b', 'c'];
  const val2 = ['a', 'c', 'b'];
  assert.ok(typedEquals(setT, val1, ['c', 'b', 'a']));
  assert.ok(typedEquals(setT, val1, val2));
  const both = k8sListConcat(setT.k8sList!, val1, val2);
  assert.deepEqual(listKindOf(both), { listType: 'set' });
  assert.ok(k8sListEquals(listKindOf(both)!, both, ['a', 'b', 'c']));
  assert.ok(k8sListEquals(SET, k8sListConcat(SET, val1, ['c', 'd']), ['a', 'b', 'c', 'd']));
  assert.equal(listKindOf(val1), undefined, 'data lists are typed by the schema, not registered');

  const mapSchema: Schema = {
    type: 'array',
    items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'string' } } } },
  };
  const objsT = (schemaType(mapSchema, { name: 'x' }) as ListType).elem as ListType;
  const kv = (k: string, v: string) => ({ k, v });
  const objs = [[kv('a', '1'), kv('b', '2')], [kv('b', '2'), kv('a', '1')], [kv('b', '3'), kv('a', '1')], [kv('c', '4')]];
  const kind = objsT.k8sList!;
  assert.ok(typedEquals(objsT, objs[0], objs[1]), 'equal even though order is different');
  assert.ok(typedEquals(objsT, k8sListConcat(kind, objs[0]!, objs[2]!), objs[2]), 'rhs overwrites lhs values');
  assert.ok(typedEquals(objsT, k8sListConcat(kind, objs[2]!, objs[0]!), objs[0]));
  assert.ok(typedEquals(objsT, objs[0], [objs[0]![1], objs[0]![0]]));
  assert.ok(typedEquals(objsT, k8sListConcat(kind, objs[2]!, [objs[0]![0], objs[0]![1]]), objs[0]));
  assert.equal(k8sListConcat(kind, objs[0]!, [objs[3]![0]]).length, 3);
  assert.ok(!typedEquals(objsT, objs[0], objs[2]));
});

test('typedEquals: objects compare set lists order-free and formatted values as values', () => {
  const t = schemaType(
    {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        at: { type: 'string', format: 'date-time' },
        plain: { type: 'array', items: { type: 'string' } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    { name: 'Object' },
  ) as ObjectType;
  assert.ok(needsTypedEquality(t));
  assert.ok(!needsTypedEquality(schemaType({ type: 'object', properties: { a: { type: 'string' } } }, { name: 'x' })!));
  const a = { tags: ['x', 'y'], at: '2024-01-01T00:00:00Z', plain: ['1', '2'], extra: { u: [1, 2] } };
  assert.ok(typedEquals(t, a, { tags: ['y', 'x'], at: '2024-01-01T00:00:00.000Z', plain: ['1', '2'], extra: { u: [1, 2] } }));
  assert.ok(!typedEquals(t, a, { ...a, plain: ['2', '1'] }), 'atomic lists keep their order');
  assert.ok(!typedEquals(t, a, { ...a, extra: { u: [2, 1] } }));
  assert.ok(!typedEquals(t, a, { ...a, at: '2024-01-01T00:00:01Z' }));
  assert.ok(!typedEquals(t, a, { tags: ['x', 'y'] }), 'a missing field');
});
