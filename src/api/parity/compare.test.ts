// compare.ts on a toy document: each shared type compared once, nested ones
// cut to their identity, recursive types terminating, ids and markers
// checked at uses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { list, mapOf, obj, ref, str, type S } from '../../schema/dsl.js';
import type { Schema } from '../../schema/model.js';
import type { OpenAPIDocument } from '../../schema/parity.js';
import { componentDifferences, shortName } from './compare.js';

const $ref = (n: string) => ({ $ref: `#/components/schemas/x.v1.${n}` });
const doc: OpenAPIDocument = {
  components: {
    schemas: {
      'x.v1.Thing': { type: 'object', required: ['spec'], properties: { spec: { allOf: [$ref('Spec')] }, note: { type: 'string' } } },
      'x.v1.Spec': { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { node: $ref('Node'), tags: { type: 'array', items: { type: 'string' } } } },
      'x.v1.Node': { type: 'object', properties: { name: { type: 'string' }, children: { type: 'object', additionalProperties: $ref('Node') } } },
    },
  },
};

/** A recursive Node, tied the only way an immutable builder allows: by mutating the finished schema once. */
function recursiveNode(): Schema {
  const node = obj({ name: str(), children: mapOf(obj({})) }).id('x.v1.Node').schema;
  (node.properties!.children as { additionalProperties: Schema }).additionalProperties = node;
  return node;
}

function thing(spec: S | Schema): Schema {
  return obj({ spec, note: str() }, { required: ['spec'] }).id('x.v1.Thing').schema;
}

describe('componentDifferences', () => {
  it('none when the types agree, a recursive one included', () => {
    const spec = obj({ node: recursiveNode(), tags: list(str()) }).atomic().id('x.v1.Spec');
    assert.deepEqual(componentDifferences([thing(spec)], doc, { package: 'x.v1' }), []);
  });
  it('a nested type is reported under its own name, once; a use of the wrong type by id', () => {
    const spec = obj({ node: obj({ name: str() }).id('x.v1.Other'), tags: list(str()).set() }).id('x.v1.Spec');
    assert.deepEqual(componentDifferences([thing(spec), thing(spec)], doc, { package: 'x.v1' }), [
      'Spec (root): mapType: ours none, reference "atomic"',
      'Spec tags: listType: ours "set", reference none',
      'Spec node: id: ours x.v1.Other, reference x.v1.Node',
      'Other: absent',
    ]);
  });
  it('an inline object where the reference uses a shared type', () => {
    const spec = obj({ node: obj({ name: str(), children: mapOf(obj({})) }), tags: list(str()) }).atomic().id('x.v1.Spec');
    assert.deepEqual(componentDifferences([thing(spec)], doc, { package: 'x.v1' }), [
      'Spec node.name: extra: ours none, reference none',
      'Spec node.children: extra: ours none, reference none',
      'Spec node: id: ours none, reference x.v1.Node',
    ]);
  });
  describe('a marker overridden at a use', () => {
    // The reference's Spec uses Node as a granular map (Node itself says nothing).
    const granularDoc: OpenAPIDocument = structuredClone(doc);
    const specProps = (granularDoc.components!.schemas!['x.v1.Spec']!.properties as { [k: string]: object });
    specProps.node = { allOf: [$ref('Node')], 'x-kubernetes-map-type': 'granular' };
    const node = () => obj({ name: str(), children: mapOf(obj({}).id('x.v1.Node')) }).id('x.v1.Node');
    const specWith = (n: S) => obj({ node: n, tags: list(str()) }).atomic().id('x.v1.Spec');

    it('agrees when ours overrides it too', () => {
      assert.deepEqual(componentDifferences([thing(specWith(ref(node()).granular()))], granularDoc, { package: 'x.v1', skip: ['x.v1.Node'] }), []);
    });
    it('is reported at the use when ours does not', () => {
      assert.deepEqual(componentDifferences([thing(specWith(ref(node())))], granularDoc, { package: 'x.v1', skip: ['x.v1.Node'] }), [
        'Spec node: mapType: ours none, reference "granular"',
      ]);
    });
    it('is reported at the use when only ours overrides it (known from the definition)', () => {
      const definition = node();
      const differences = componentDifferences([thing(specWith(ref(definition).granular()))], doc, { package: 'x.v1', skip: ['x.v1.Node'], definitions: [definition.schema] });
      assert.deepEqual(differences, ['Spec node: mapType: ours "granular", reference none']);
    });
    it('is not taken for the type when its definition is given', () => {
      const definition = node();
      const spec = specWith(ref(definition).granular());
      const compared = (definitions?: Schema[]) => componentDifferences([thing(spec)], granularDoc, { package: 'x.v1', ...(definitions ? { definitions } : {}) }).filter((d) => d.startsWith('Node'));
      assert.deepEqual(compared(), ['Node (root): mapType: ours "granular", reference none']);
      assert.deepEqual(compared([definition.schema]), []);
    });
  });
  it('short names', () => {
    assert.equal(shortName('io.k8s.api.rbac.v1.Role', 'io.k8s.api.rbac.v1'), 'Role');
    assert.equal(shortName('io.k8s.api.core.v1.TopologySelectorTerm', 'io.k8s.api.storage.v1'), 'core.v1.TopologySelectorTerm');
  });
});
