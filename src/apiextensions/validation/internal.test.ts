// The v1 → internal form: what is hoisted, and Go's semantic equality.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CustomResourceDefinitionSpec } from '../types.js';
import { semanticEqual, toInternalSpec } from './internal.js';

describe('semanticEqual (apiequality.Semantic.DeepEqual over the Go types)', () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ['absent slice equals empty', { required: [] }, {}, true],
    ['absent map equals empty', { properties: {} }, {}, true],
    ['absent bool equals false', { nullable: false }, {}, true],
    ['absent string equals ""', { description: '' }, {}, true],
    ['absent pointer differs from false', { 'x-kubernetes-preserve-unknown-fields': false }, {}, false],
    ['absent pointer differs from 0', { maxLength: 0 }, {}, false],
    ['absent struct pointer differs from empty struct', { status: {} }, {}, false],
    ['default {} differs from absent', { default: {} }, {}, false],
    ['default values compared as JSON', { default: { a: [] } }, { default: { a: [] } }, true],
    ['default null is absent', { default: null }, {}, true],
    ['enum order matters', { enum: ['a', 'b'] }, { enum: ['b', 'a'] }, false],
    ['nested properties', { properties: { a: { type: 'string', nullable: false } } }, { properties: { a: { type: 'string' } } }, true],
  ];
  for (const [name, a, b, want] of cases) it(name, () => assert.equal(semanticEqual(a, b), want));
});

describe('toInternalSpec', () => {
  const spec = (versions: object[]): CustomResourceDefinitionSpec => ({ group: 'g.io', names: { plural: 'xs', kind: 'X' }, scope: 'Cluster', versions: versions as CustomResourceDefinitionSpec['versions'] });
  it('hoists what every version shares, sets spec.version, keeps the rest per version', () => {
    const schema = { openAPIV3Schema: { type: 'object' } };
    const out = toInternalSpec(
      spec([
        { name: 'v1', served: true, storage: true, schema, subresources: { status: {} }, additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.a' }] },
        { name: 'v2', served: true, storage: false, schema, subresources: { status: {} } },
      ]),
    );
    assert.equal(out.version, 'v1');
    assert.deepEqual(out.validation, schema);
    assert.deepEqual(out.subresources, { status: {} });
    assert.equal(out.additionalPrinterColumns, undefined);
    assert.deepEqual(out.versions.map((v) => [v.schema, v.subresources, v.additionalPrinterColumns?.length]), [
      [undefined, undefined, 1],
      [undefined, undefined, undefined],
    ]);
  });
  it('does not change the object it reads', () => {
    const s = spec([{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }]);
    toInternalSpec(s);
    assert.ok(s.versions[0]!.schema);
  });
});
