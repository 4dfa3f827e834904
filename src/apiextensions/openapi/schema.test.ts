// A CRD version's schema as published in /openapi/v2 and /openapi/v3 (kube's
// buildKubeNative: structural keywords, Unfold, ToStructuralOpenAPIV2, metadata,
// embedded resources). Rows follow kube's own builder and v2-conversion tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonValue } from '../../schema/model.js';
import type { JSONSchemaProps } from '../types.js';
import { kindSchema, listSchema, publishable, type Form, type Json } from './schema.js';

const GVK: JsonValue = [{ group: 'bar.k8s.io', kind: 'Foo', version: 'v1' }];
const META_V2 = { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };
const META_V3 = { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };
const TYPE_META = { apiVersion: { type: 'string' }, kind: { type: 'string' } };
const IOS = [{ type: 'integer' }, { type: 'string' }];

/** The published schema with the descriptions of apiVersion, kind and metadata wiped (kube's tests do the same). */
function published(schema: JSONSchemaProps | undefined, form: Form, preserveUnknownFields = false): Json {
  const out = kindSchema({ schema, gvk: GVK, preserveUnknownFields }, form);
  const wipe = (s: JsonValue | undefined) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return;
    const props = s.properties as Json | undefined;
    for (const k of ['apiVersion', 'kind', 'metadata']) {
      const p = props?.[k] as Json | undefined;
      if (p !== undefined && typeof p.description === 'string' && p.description !== '') delete p.description;
    }
    for (const p of Object.values(props ?? {})) wipe(p);
    wipe(s.items);
    wipe(s.additionalProperties);
  };
  wipe(out);
  return out;
}

describe('kindSchema: the root', () => {
  const cases: [name: string, schema: JSONSchemaProps | undefined, form: Form, want: Json, preserveUnknownFields?: boolean][] = [
    ['no schema', undefined, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['no schema (v3)', undefined, 'v3', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['type only', { type: 'object' }, 'v2', { type: 'object', properties: { ...TYPE_META, metadata: META_V2 }, 'x-kubernetes-group-version-kind': GVK }],
    ['with properties', { type: 'object', properties: { spec: { type: 'object' }, status: { type: 'object' } } }, 'v2', {
      type: 'object', properties: { ...TYPE_META, metadata: META_V2, spec: { type: 'object' }, status: { type: 'object' } }, 'x-kubernetes-group-version-kind': GVK,
    }],
    ['metadata in the schema is replaced by the ObjectMeta reference', { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } } } }, 'v3', {
      type: 'object', properties: { ...TYPE_META, metadata: META_V3 }, 'x-kubernetes-group-version-kind': GVK,
    }],
    ['preserve unknown at the root, v2: a bare object', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['preserve unknown at the root, v3: kept', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, 'v3', {
      type: 'object', properties: { ...TYPE_META, metadata: META_V3 }, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-group-version-kind': GVK,
    }],
    ['spec.preserveUnknownFields, v2: a bare object', { type: 'object', properties: { spec: { type: 'object' } } }, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }, true],
    ['an unknown type: a bare object', { type: 'object', properties: { spec: { type: 'map' as 'object' } } }, 'v3', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['$ref (not structural): a bare object', { type: 'object', properties: { spec: { $ref: '#/x' } } }, 'v3', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['items as an array: a bare object', { type: 'object', properties: { l: { type: 'array', items: [{ type: 'string' }] } } }, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
  ];
  for (const [name, schema, form, want, pUF] of cases) it(name, () => assert.deepEqual(published(schema, form, pUF), want));
});

/** kube's "with extensions" rows: int-or-string in its spellings, preserve-unknown-fields, an embedded resource. */
const EXTENSIONS: JSONSchemaProps = {
  type: 'object',
  properties: {
    'int-or-string-1': { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    'int-or-string-2': { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { anyOf: [{ minimum: 42 }] }] },
    'int-or-string-3': { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], allOf: [{ anyOf: [{ minimum: 42 }] }] },
    'int-or-string-4': { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42 }] },
    'int-or-string-5': { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42 }], allOf: [{ minimum: 42 }] },
    'int-or-string-6': { 'x-kubernetes-int-or-string': true },
    'preserve-unknown-fields': { 'x-kubernetes-preserve-unknown-fields': true },
    'embedded-object': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, type: 'object' },
  },
};

describe('kindSchema: int-or-string, preserve-unknown-fields and embedded resources', () => {
  it('v2: junctors dropped; the embedded object keeping unknown fields gets no properties and loses type object', () => {
    const ios = { 'x-kubernetes-int-or-string': true };
    assert.deepEqual(published(EXTENSIONS, 'v2'), {
      type: 'object',
      properties: {
        ...TYPE_META,
        'embedded-object': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        'int-or-string-1': ios, 'int-or-string-2': ios, 'int-or-string-3': ios, 'int-or-string-4': ios, 'int-or-string-5': ios, 'int-or-string-6': ios,
        metadata: META_V2,
        'preserve-unknown-fields': { 'x-kubernetes-preserve-unknown-fields': true },
      },
      'x-kubernetes-group-version-kind': GVK,
    });
  });

  it('v3: int-or-string unfolded unless already spelled out; the embedded resource gets apiVersion, kind, metadata, required', () => {
    const got = published(EXTENSIONS, 'v3');
    const props = got.properties as Json;
    const ios = (more: Json) => ({ 'x-kubernetes-int-or-string': true, ...more });
    assert.deepEqual(props['int-or-string-1'], ios({ anyOf: IOS }));
    assert.deepEqual(props['int-or-string-2'], ios({ allOf: [{ anyOf: IOS }, { anyOf: [{ minimum: 42 }] }] }));
    assert.deepEqual(props['int-or-string-3'], ios({ anyOf: IOS, allOf: [{ anyOf: [{ minimum: 42 }] }] }));
    assert.deepEqual(props['int-or-string-4'], ios({ anyOf: [{ minimum: 42 }], allOf: [{ anyOf: IOS }] }));
    assert.deepEqual(props['int-or-string-5'], ios({ anyOf: [{ minimum: 42 }], allOf: [{ anyOf: IOS }, { minimum: 42 }] }));
    assert.deepEqual(props['int-or-string-6'], ios({ anyOf: IOS }));
    assert.deepEqual(props['embedded-object'], {
      type: 'object', required: ['kind', 'apiVersion'], properties: { ...TYPE_META, metadata: META_V3 },
      'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-embedded-resource': true,
    });
  });

  it('the embedded metadata and type fields carry descriptions (what kubectl explain prints)', () => {
    const out = kindSchema({ schema: EXTENSIONS, gvk: GVK }, 'v3');
    const embedded = (out.properties as Json)['embedded-object'] as Json;
    for (const k of ['apiVersion', 'kind', 'metadata']) assert.ok(typeof ((embedded.properties as Json)[k] as Json).description === 'string', k);
  });
});

describe('kindSchema: the v2 conversion (kube ToStructuralOpenAPIV2)', () => {
  const cases: [name: string, field: JSONSchemaProps, v2: Json, v3: Json][] = [
    ['nullable loses type, items and properties', { type: 'object', nullable: true, properties: { a: { type: 'string' } } },
      {}, { type: 'object', nullable: true, properties: { a: { type: 'string' } } }],
    ['nullable array', { type: 'array', nullable: true, items: { type: 'string' } }, {}, { type: 'array', nullable: true, items: { type: 'string' } }],
    ['preserve-unknown-fields object loses type and properties',
      { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
      { 'x-kubernetes-preserve-unknown-fields': true },
      { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true }],
    ['preserve-unknown-fields array loses items, then type', { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
      { 'x-kubernetes-preserve-unknown-fields': true }, { type: 'array', items: { type: 'string' }, 'x-kubernetes-preserve-unknown-fields': true }],
    ['a nullable property leaves required',
      { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string', nullable: true }, b: { type: 'string' } } },
      { type: 'object', required: ['b'], properties: { a: {}, b: { type: 'string' } } },
      { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string', nullable: true }, b: { type: 'string' } } }],
    ['all required properties nullable: no required',
      { type: 'object', required: ['a'], properties: { a: { type: 'string', nullable: true } } },
      { type: 'object', properties: { a: {} } },
      { type: 'object', required: ['a'], properties: { a: { type: 'string', nullable: true } } }],
    ['nullable map values: no required', { type: 'object', required: ['x'], additionalProperties: { type: 'string', nullable: true } },
      { type: 'object', additionalProperties: {} }, { type: 'object', required: ['x'], additionalProperties: { type: 'string', nullable: true } }],
    ['junctors dropped in v2, kept in v3', { type: 'string', oneOf: [{ pattern: 'a' }], not: { pattern: 'b' }, allOf: [{ maxLength: 3 }] },
      { type: 'string' }, { type: 'string', allOf: [{ maxLength: 3 }], oneOf: [{ pattern: 'a' }], not: { pattern: 'b' } }],
  ];
  for (const [name, field, v2, v3] of cases) {
    it(name, () => {
      for (const [form, want] of [['v2', v2], ['v3', v3]] as const) {
        const got = published({ type: 'object', properties: { f: field } }, form);
        assert.deepEqual((got.properties as Json).f, want, form);
      }
    });
  }
});

describe('kindSchema: what is published of a field', () => {
  const cases: [name: string, field: JSONSchemaProps, want: Json][] = [
    ['value validations and markers kept',
      { type: 'array', description: 'd', maxItems: 3, minItems: 1, uniqueItems: true, items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
      { description: 'd', type: 'array', maxItems: 3, minItems: 1, uniqueItems: true, items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } } }, 'x-kubernetes-list-map-keys': ['k'], 'x-kubernetes-list-type': 'map' }],
    ['CEL rules kept', { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: 'positive' }] },
      { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: 'positive' }] }],
    ['example and externalDocs are not published', { type: 'string', example: 'x', externalDocs: { url: 'https://example.com' }, title: 'T' }, { type: 'string', title: 'T' }],
    ['defaults kept, false and empty ones too', { type: 'object', properties: { b: { type: 'boolean', default: false }, s: { type: 'string', default: '' } } },
      { type: 'object', properties: { b: { type: 'boolean', default: false }, s: { type: 'string', default: '' } } }],
    ['omitempty: false flags, empty strings, lists and enums dropped', { type: 'string', description: '', enum: [], exclusiveMaximum: false, 'x-kubernetes-preserve-unknown-fields': false, required: [] },
      { type: 'string' }],
    ['properties sorted', { type: 'object', properties: { zeta: { type: 'string' }, alpha: { type: 'string' } } },
      { type: 'object', properties: { alpha: { type: 'string' }, zeta: { type: 'string' } } }],
    ['map of strings', { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' },
      { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' }],
  ];
  for (const [name, field, want] of cases) {
    it(name, () => {
      for (const form of ['v2', 'v3'] as const) {
        const got = published({ type: 'object', properties: { f: field } }, form);
        assert.deepEqual((got.properties as Json).f, want, form);
        assert.deepEqual(Object.keys((got.properties as Json).f as Json).sort(), Object.keys(want).sort(), form);
      }
    });
  }
});

describe('publishable', () => {
  const cases: [name: string, schema: JSONSchemaProps, want: boolean][] = [
    ['a structural schema', { type: 'object', properties: { a: { type: 'string' } } }, true],
    ['id', { type: 'object', id: 'x' }, false],
    ['patternProperties', { type: 'object', patternProperties: { a: { type: 'string' } } }, false],
    ['empty definitions are no definitions', { type: 'object', definitions: {} }, true],
    ['a bad type deep in allOf', { type: 'object', allOf: [{ properties: { a: { type: 'text' as 'string' } } }] }, false],
  ];
  for (const [name, schema, want] of cases) it(name, () => assert.equal(publishable(schema), want));
});

describe('listSchema', () => {
  for (const form of ['v2', 'v3'] as const) {
    it(`${form}: items refer to the kind, metadata to ListMeta, with the List's GVK`, () => {
      const prefix = form === 'v2' ? '#/definitions/' : '#/components/schemas/';
      const gvk = [{ group: 'bar.k8s.io', kind: 'FooList', version: 'v1' }];
      const s = listSchema({ kind: 'Foo', listKind: 'FooList', plural: 'foos', itemId: 'io.k8s.bar.v1.Foo', gvk }, form);
      const props = s.properties as Json;
      assert.deepEqual(Object.keys(props), ['apiVersion', 'items', 'kind', 'metadata']);
      assert.deepEqual(s.required, ['items']);
      assert.equal(s.description, 'FooList is a list of Foo');
      assert.deepEqual((props.items as Json).items, { $ref: `${prefix}io.k8s.bar.v1.Foo` });
      assert.equal((props.metadata as Json).$ref, `${prefix}io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta`);
      assert.deepEqual(s['x-kubernetes-group-version-kind'], gvk);
    });
  }
});
