// objectmeta.Coerce / GetObjectMetaWithOptions: kube's coerce_test and
// algorithm_test cases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderCause } from '../../api/meta/govalue.js';
import type { Schema } from '../../schema/model.js';
import { coerceObjectMeta, coerceResource, type CoerceOptions } from './coerce.js';
import { objectMetaDecodeError } from './objectmeta.js';

const meta = (m: Record<string, unknown>) => ({ kind: 'Pod', apiVersion: 'v1', metadata: m });
const unknownAndMalformed = () => meta({ name: 'my-meta', unknownField: 'foo', generateName: null, generation: null, labels: { foo: 'bar' }, annotations: 11 });
const unknownOnly = () => meta({ name: 'my-meta', unknownField: 'foo', generateName: null, generation: null, labels: { foo: 'bar' } });
const malformedOnly = () => meta({ name: 'my-meta', generateName: null, generation: null, labels: { foo: 'bar' }, annotations: 11 });

const ANNOTATIONS_ERROR = 'metadata: Invalid value: map[string]interface {}{"annotations":11, "generateName":interface {}(nil), "generation":interface {}(nil), "labels":map[string]interface {}{"foo":"bar"}, "name":"my-meta"}: json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string';
const ANNOTATIONS_ERROR_UNKNOWN = ANNOTATIONS_ERROR.replace('"name":"my-meta"}', '"name":"my-meta", "unknownField":"foo"}');

describe('coerceObjectMeta at the root (kube coerce_test)', () => {
  const typed = { name: 'my-meta', labels: { foo: 'bar' } };
  const rows: [string, () => Record<string, unknown>, CoerceOptions, { error?: string; metadata?: unknown; unknown?: string[] }][] = [
    ['unknown and malformed', unknownAndMalformed, {}, { error: ANNOTATIONS_ERROR_UNKNOWN }],
    ['unknown and malformed, dropping', unknownAndMalformed, { dropInvalidFields: true }, { metadata: typed }],
    ['unknown and malformed, unknown paths', unknownAndMalformed, { returnUnknownFieldPaths: true }, { error: ANNOTATIONS_ERROR_UNKNOWN }],
    ['unknown and malformed, both', unknownAndMalformed, { dropInvalidFields: true, returnUnknownFieldPaths: true }, { metadata: typed, unknown: ['metadata.unknownField'] }],
    ['unknown only', unknownOnly, {}, { metadata: typed }],
    ['unknown only, dropping', unknownOnly, { dropInvalidFields: true }, { metadata: typed }],
    ['unknown only, unknown paths', unknownOnly, { returnUnknownFieldPaths: true }, { metadata: typed, unknown: ['metadata.unknownField'] }],
    ['malformed only', malformedOnly, {}, { error: ANNOTATIONS_ERROR }],
    ['malformed only, dropping', malformedOnly, { dropInvalidFields: true, returnUnknownFieldPaths: true }, { metadata: typed }],
  ];
  for (const [name, make, opts, want] of rows) {
    it(name, () => {
      const o = make();
      const r = coerceObjectMeta(undefined, o, { root: true, ...opts });
      assert.equal(r.error ? renderCause(r.error) : undefined, want.error);
      if (want.metadata) assert.deepEqual(o.metadata, want.metadata);
      assert.deepEqual(r.unknownFieldPaths, want.unknown ?? (opts.returnUnknownFieldPaths && !want.error ? [] : r.unknownFieldPaths));
      if (!opts.returnUnknownFieldPaths) assert.deepEqual(r.unknownFieldPaths, []);
    });
  }
});

describe('coerceObjectMeta: typing ObjectMeta as Go serializes it', () => {
  const rows: [string, unknown, unknown][] = [
    ['empty and zero fields are omitted, a null creationTimestamp removed', { name: 'a', namespace: '', generation: 0, labels: {}, finalizers: [], creationTimestamp: null }, { name: 'a' }],
    ['null metadata becomes empty', null, {}],
    ['times in UTC, whole seconds', { creationTimestamp: '2020-01-01T01:00:00.75+01:00', deletionTimestamp: '2020-01-02T00:00:00Z' }, { creationTimestamp: '2020-01-01T00:00:00Z', deletionTimestamp: '2020-01-02T00:00:00Z' }],
    ['struct order; a zero grace period kept (a pointer)', { labels: { a: 'b' }, deletionGracePeriodSeconds: 0, uid: 'u', name: 'n' }, { name: 'n', uid: 'u', deletionGracePeriodSeconds: 0, labels: { a: 'b' } }],
    ['keys in another case are unknown (case-sensitive decoding)', { Name: 'x', name: 'y' }, { name: 'y' }],
    ['owner references keep their required fields', { ownerReferences: [{ name: 'o', controller: true, bogus: 1 }] }, { ownerReferences: [{ apiVersion: '', kind: '', name: 'o', uid: '', controller: true }] }],
    ['managed fields', { managedFields: [{ manager: 'm', operation: 'Apply', time: '2020-01-01T00:00:00.5Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} }, subresource: '' }] },
      { managedFields: [{ manager: 'm', operation: 'Apply', time: '2020-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }] }],
  ];
  for (const [name, m, want] of rows) {
    it(name, () => {
      const o = { apiVersion: 'v1', kind: 'X', metadata: m };
      assert.equal(coerceObjectMeta(undefined, o, { root: true }).error, undefined);
      assert.deepEqual(o.metadata, want);
      assert.deepEqual(Object.keys(o.metadata as object), Object.keys(want as object));
    });
  }
});

describe('coerceObjectMeta: embedded resources (kube algorithm_test)', () => {
  const embedded: Schema = { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } };
  const schema: Schema = { type: 'object', properties: { pruned: embedded, preserving: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, list: { type: 'array', items: embedded } } };
  const inner = () => ({ apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: { name: 'instance', unspecified: 'bar' }, spec: { unspecified: 'bar' } });

  it('types every embedded metadata and the root\'s, leaving other fields to pruning', () => {
    const o = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance', unspecified: 'bar' }, unspecified: 'bar', pruned: inner(), preserving: inner(), list: [inner()] };
    const r = coerceObjectMeta(schema, o, { root: true, returnUnknownFieldPaths: true });
    assert.equal(r.error, undefined);
    const typed = { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: { name: 'instance' }, spec: { unspecified: 'bar' } };
    assert.deepEqual(o, { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, unspecified: 'bar', pruned: typed, preserving: typed, list: [typed] });
    assert.deepEqual(r.unknownFieldPaths, ['list[0].metadata.unspecified', 'metadata.unspecified', 'preserving.metadata.unspecified', 'pruned.metadata.unspecified']);
  });

  const errors: [string, unknown, string][] = [
    ['kind not a string', { pruned: { apiVersion: 'foo/v1', kind: 1 } }, 'pruned.kind: Invalid value: 1: must be a string'],
    ['apiVersion not a string', { list: [{ apiVersion: ['x'] }] }, 'list[0].apiVersion: Invalid value: []interface {}{"x"}: must be a string'],
    ['metadata of the wrong type', { pruned: { metadata: { labels: { a: 1 } } } }, 'pruned.metadata: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string'],
    ['a bad time', { pruned: { metadata: { creationTimestamp: 'yesterday' } } }, 'pruned.metadata: Invalid value: map[string]interface {}{"creationTimestamp":"yesterday"}: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
  ];
  for (const [name, o, want] of errors) {
    it(name, () => {
      const r = coerceObjectMeta(schema, o, {});
      assert.ok(r.error, 'an error');
      assert.equal(renderCause(r.error), want);
    });
  }

  it('dropping: wrong-typed kind removed, malformed metadata fields dropped, metadata that is not an object left', () => {
    const o = { pruned: { apiVersion: 'foo/v1', kind: 1, metadata: { name: 'n', labels: { a: 1 } } }, list: [{ metadata: 'x' }] };
    assert.equal(coerceObjectMeta(schema, o, { dropInvalidFields: true }).error, undefined);
    assert.deepEqual(o, { pruned: { apiVersion: 'foo/v1', metadata: { name: 'n' } }, list: [{ metadata: 'x' }] });
  });
});

describe('coerceResource (the CRD handler\'s decoder)', () => {
  const embedded: Schema = { type: 'object', 'x-kubernetes-embedded-resource': true };
  const schema: Schema = { type: 'object', properties: { spec: { type: 'object', properties: { template: embedded } } } };
  const base = { group: 'g.example.com', kind: 'Widget', schemaFor: (v: string) => (v === 'v1' ? schema : undefined) };
  const widget = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: 'g.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, ...extra });

  const errors: [string, Record<string, unknown>, { dropInvalidMetadata?: boolean }, string][] = [
    ['kind not a string', widget({ kind: 5 }), {}, '.kind accessor error: 5 is of the type int64, expected string'],
    ['kind null', widget({ kind: null }), {}, '.kind accessor error: <nil> is of the type <nil>, expected string'],
    ['apiVersion not a string', widget({ apiVersion: ['x'] }), {}, '.apiVersion accessor error: [x] is of the type []interface {}, expected string'],
    ['root metadata of the wrong type', widget({ metadata: { name: 5 } }), {}, 'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string'],
    ['root metadata not an object, dropping', widget({ metadata: 'x' }), { dropInvalidMetadata: true }, 'invalid metadata: expected object, got string'],
    ['a bad group version', widget({ apiVersion: 'a/b/c' }), {}, 'unexpected GroupVersion string: a/b/c'],
    ['embedded metadata of the wrong type', widget({ spec: { template: { metadata: { labels: 'x' } } } }), {},
      'spec.template.metadata: Invalid value: map[string]interface {}{"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string'],
  ];
  for (const [name, o, opts, want] of errors) it(name, () => assert.equal(coerceResource(o, { ...base, ...opts }).error, want));

  it('types the root metadata (creationTimestamp null when unset), prunes, then coerces embedded resources; unknown paths in that order', () => {
    const o = widget({ metadata: { name: 'w', zzz: 1, labels: {} }, spec: { template: { metadata: { name: 't', bogus: true } }, extra: 1 } });
    const pruned: unknown[] = [];
    const r = coerceResource(o, {
      ...base,
      returnUnknownFieldPaths: true,
      prune: (obj, s) => {
        pruned.push(s);
        delete (obj.spec as Record<string, unknown>).extra;
        return ['spec.extra'];
      },
    });
    assert.deepEqual(r, { unknownFieldPaths: ['metadata.zzz', 'spec.extra', 'spec.template.metadata.bogus'] });
    assert.deepEqual(pruned, [schema]);
    assert.deepEqual(o, { apiVersion: 'g.example.com/v1', kind: 'Widget', metadata: { name: 'w', creationTimestamp: null }, spec: { template: { metadata: { name: 't' } } } });
  });

  it('another group or kind (DeleteOptions passing through) is neither pruned nor coerced below the root', () => {
    const o = { apiVersion: 'other/v1', kind: 'Widget', spec: { template: { metadata: { labels: 'x' } } } };
    const r = coerceResource(o, { ...base, prune: () => assert.fail('not pruned') });
    assert.deepEqual(r, { unknownFieldPaths: [] });
    assert.deepEqual(o.spec, { template: { metadata: { labels: 'x' } } });
  });

  it('dropping malformed root metadata fields when reading storage', () => {
    const o = widget({ metadata: { name: 'w', labels: { a: 1 }, generation: 'x' } });
    assert.deepEqual(coerceResource(o, { ...base, dropInvalidMetadata: true }), { unknownFieldPaths: [] });
    assert.deepEqual(o.metadata, { name: 'w', creationTimestamp: null });
  });
});

describe('objectMetaDecodeError: encoding/json into metav1.ObjectMeta', () => {
  const rows: [unknown, string | undefined][] = [
    [{ name: 'x', labels: { a: 'b' } }, undefined],
    [null, undefined],
    [{ deletionGracePeriodSeconds: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64'],
    [{ generation: '1' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64'],
    [{ finalizers: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string'],
    [{ uid: 1 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID'],
    [{ ownerReferences: [{ uid: 5 }] }, 'json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.uid of type types.UID'],
    [{ managedFields: [{ fieldsV1: 'any JSON' }] }, undefined],
    // metav1.Time decodes itself: its error is a Go string's, and it stops decoding, so it wins over an earlier type error.
    [{ name: 5, creationTimestamp: 5 }, 'json: cannot unmarshal number into Go value of type string'],
    [{ managedFields: [{ time: 'noon' }] }, 'parsing time "noon" as "2006-01-02T15:04:05Z07:00": cannot parse "noon" as "2006"'],
    [5, 'json: cannot unmarshal number into Go value of type v1.ObjectMeta'],
    [[], 'json: cannot unmarshal array into Go value of type v1.ObjectMeta'],
  ];
  for (const [m, want] of rows) it(JSON.stringify(m), () => assert.equal(objectMetaDecodeError(m), want));
});
