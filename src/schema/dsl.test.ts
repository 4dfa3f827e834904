// The builder DSL produces the plain schemas it promises.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { any, bool, embedded, enumOf, int32, int64, intOrString, list, mapOf, num, obj, quantity, ref, str, time } from './dsl.js';
import { kind, LabelSelector, listKind, ObjectMeta } from './common.js';

describe('dsl', () => {
  const rows: [string, unknown, unknown][] = [
    ['str', str().schema, { type: 'string' }],
    ['int32', int32().schema, { type: 'integer', format: 'int32' }],
    ['int64', int64().schema, { type: 'integer', format: 'int64' }],
    ['num', num().schema, { type: 'number', format: 'double' }],
    ['bool', bool().schema, { type: 'boolean' }],
    ['enumOf', enumOf('Always', 'Never').schema, { type: 'string', enum: ['Always', 'Never'] }],
    ['time', time().schema, { type: 'string', format: 'date-time', id: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time' }],
    ['intOrString', intOrString().schema, { 'x-kubernetes-int-or-string': true, format: 'int-or-string', id: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString' }],
    ['quantity', quantity().schema, { 'x-kubernetes-int-or-string': true, format: 'quantity', id: 'io.k8s.apimachinery.pkg.api.resource.Quantity' }],
    ['mapOf', mapOf(str()).schema, { type: 'object', additionalProperties: { type: 'string' } }],
    ['any', any().schema, { 'x-kubernetes-preserve-unknown-fields': true }],
    ['embedded', embedded().schema, { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }],
    ['bounds', int32().min(1).max(5, true).schema, { type: 'integer', format: 'int32', minimum: 1, maximum: 5, exclusiveMaximum: true }],
    ['strings', str().minLen(1).maxLen(63).pattern(/^[a-z]+$/).schema, { type: 'string', minLength: 1, maxLength: 63, pattern: '^[a-z]+$' }],
    ['set list', list(str()).set().schema, { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }],
    ['atomic list', list(str()).atomic().schema, { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }],
    ['atomic object', obj({}).atomic().schema, { type: 'object', properties: {}, 'x-kubernetes-map-type': 'atomic' }],
    ['patch', list(str()).patch('merge').schema, { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' }],
  ];
  for (const [name, got, want] of rows) it(name, () => assert.deepEqual(got, want));

  it('obj collects required fields in property order, then by option', () => {
    const s = obj({ a: str(), b: str().required(), c: int32().default(1).proto(3), d: bool() }, { required: ['d', 'b'] }).schema;
    assert.deepEqual(s.required, ['b', 'd']);
    assert.deepEqual(s.properties!.c, { type: 'integer', format: 'int32', default: 1, proto: 3 });
  });
  it('obj rejects a required name that is not a property', () => assert.throws(() => obj({ a: str() }, { required: ['b'] }), /required field "b" is not a property/));
  it('a keyed list with a patch strategy', () => {
    const Container = obj({ name: str().required(), image: str() }).id('Container');
    const s = list(Container).map('name').patch('merge', 'name').schema;
    assert.equal(s['x-kubernetes-list-type'], 'map');
    assert.deepEqual(s['x-kubernetes-list-map-keys'], ['name']);
    assert.equal(s['x-kubernetes-patch-strategy'], 'merge');
    assert.equal(s['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(s.items!.id, 'Container');
  });
  it('map() needs a key', () => assert.throws(() => list(str()).map(), /at least one key/));
  it('builders are immutable', () => {
    const base = str();
    base.desc('x').required();
    assert.deepEqual(base.schema, { type: 'string' });
    assert.equal(base.isRequired, false);
  });
  it('ref keeps the shared id and needs one', () => {
    assert.equal(ref(LabelSelector).desc('sel').schema.id, 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector');
    assert.equal(ref(LabelSelector).desc('sel').schema.description, 'sel');
    assert.throws(() => ref(str()), /has no id/);
  });
  it('kind and listKind add TypeMeta and metadata', () => {
    const k = kind({ spec: obj({ replicas: int32() }) }).schema;
    assert.deepEqual(Object.keys(k.properties!), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.equal(k.properties!.metadata!.id, ObjectMeta.schema.id);
    const l = listKind(obj({}).id('X')).schema;
    assert.deepEqual(l.required, ['items']);
    assert.equal(l.properties!.metadata!.id, 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta');
  });
  it('schemas are plain JSON', () => assert.deepEqual(JSON.parse(JSON.stringify(ObjectMeta.schema)), ObjectMeta.schema));
});
