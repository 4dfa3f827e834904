// toOpenAPI: inline and $ref forms, markers kept, our own slots dropped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LabelSelector, ObjectMeta, Time } from './common.js';
import { int32, intOrString, list, obj, ref, str } from './dsl.js';
import { collectComponents, componentsOf, toOpenAPI } from './openapi.js';

const Port = obj({ name: str().required().proto(1), port: int32().min(1).proto(2) }).id('example.Port');
const Spec = obj({
  selector: ref(LabelSelector).desc('Which pods.'),
  ports: list(Port).map('name').patch('merge', 'name'),
  target: intOrString(),
  when: ref(Time),
});

describe('toOpenAPI', () => {
  it('inline by default, without id and proto', () => {
    const o = toOpenAPI(Spec.schema);
    assert.deepEqual(o.properties && (o.properties as { [k: string]: unknown }).ports, {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
      items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', format: 'int32', minimum: 1 } }, required: ['name'] },
    });
    assert.ok(!JSON.stringify(o).includes('"proto"') && !JSON.stringify(o).includes('"id"'));
  });
  it('int-or-string is published as CRDs publish it', () => {
    const props = toOpenAPI(Spec.schema).properties as { [k: string]: unknown };
    assert.deepEqual(props.target, { format: 'int-or-string', 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
  });
  it('$ref for shared types, with the use\'s own description', () => {
    const props = toOpenAPI(Spec.schema, { refs: [LabelSelector.schema, Time.schema] }).properties as { [k: string]: unknown };
    assert.deepEqual(props.selector, { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }], description: 'Which pods.' });
    assert.deepEqual(props.when, { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Time' }] });
  });
  it('with refs: true the first use found defines a component, so its own description is not repeated', () => {
    const props = toOpenAPI(Spec.schema, { refs: true }).properties as { [k: string]: { [k: string]: unknown } };
    assert.deepEqual(props.selector, { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }] });
    assert.deepEqual(props.ports!.items, { allOf: [{ $ref: '#/components/schemas/example.Port' }] });
  });
  it('only the listed shared types become references', () => {
    const props = toOpenAPI(Spec.schema, { refs: [Time.schema] }).properties as { [k: string]: { [k: string]: unknown } };
    assert.ok(props.when!.allOf);
    assert.equal(props.selector!.type, 'object');
  });
  it('components are collected once each, and refer to each other', () => {
    assert.deepEqual([...collectComponents(ObjectMeta.schema).keys()], [
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
      'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
      'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
    ]);
    const c = componentsOf(ObjectMeta.schema);
    const om = c['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.properties as { [k: string]: { [k: string]: unknown } };
    assert.deepEqual(om.ownerReferences!.items, { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference' }] });
    assert.equal(om.finalizers!['x-kubernetes-list-type'], 'set');
    assert.deepEqual(c['io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference']!.required, ['apiVersion', 'kind', 'name', 'uid']);
  });
});
