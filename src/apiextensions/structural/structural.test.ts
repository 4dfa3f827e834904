// toStructural, structuralError and validateJunctors: table rows with
// kube's texts (NewStructural's errors, kube-openapi's junctor messages).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../../api/meta/field.js';
import { renderCause } from '../../api/meta/govalue.js';
import { applyDefaults } from '../../schema/defaults.js';
import { prune } from '../../schema/prune.js';
import { validate } from '../../schema/validate.js';
import type { JSONSchemaProps } from '../types.js';
import { structuralError } from './convert.js';
import { junctorValidator, validateJunctors } from './junctors.js';
import { toStructural } from './runtime.js';

const msgs = (errs: FieldError[]) => errs.map(renderCause);

describe('structuralError (NewStructural)', () => {
  const rows: [string, JSONSchemaProps, string | undefined][] = [
    ['a structural schema', { type: 'object', properties: { a: { type: 'string' } } }, undefined],
    ['$ref deep inside', { type: 'object', properties: { a: { type: 'object', properties: { b: { $ref: '#/x' } } } } }, "OpenAPIV3Schema '$ref' is not supported"],
    ['$schema', { type: 'object', $schema: 'x' }, "OpenAPIV3Schema 'schema' is not supported"],
    ['id in a junctor', { type: 'object', allOf: [{ id: 'x' }] }, "OpenAPIV3Schema 'id' is not supported"],
    ['items as an array', { type: 'object', properties: { l: { type: 'array', items: [{ type: 'string' }] } } }, "OpenAPIV3Schema 'items' must be a schema, but is an array"],
    ['definitions under additionalProperties', { type: 'object', additionalProperties: { type: 'object', definitions: { d: {} } } }, "OpenAPIV3Schema 'definitions' is not supported"],
    ['preserve-unknown-fields false', { type: 'object', 'x-kubernetes-preserve-unknown-fields': false as never }, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"],
  ];
  for (const [name, s, want] of rows) it(name, () => assert.equal(structuralError(s), want));
});

describe('toStructural', () => {
  const crd: JSONSchemaProps = {
    type: 'object',
    title: 'T',
    properties: {
      metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 5 } } },
      spec: {
        type: 'object',
        'x-kubernetes-validations': [{ rule: 'true' }],
        properties: {
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          replicas: { type: 'integer', default: 1, multipleOf: 1 },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
          free: { type: 'object', additionalProperties: true },
        },
      },
    },
  };
  const s = toStructural(crd);

  it('folds junctors and CRD-only keywords out', () => {
    const spec = s.properties!.spec!;
    assert.deepEqual(spec.properties!.port, { 'x-kubernetes-int-or-string': true });
    assert.equal((s as Record<string, unknown>).title, undefined);
    assert.equal((spec as Record<string, unknown>)['x-kubernetes-validations'], undefined);
    assert.deepEqual(spec.properties!.replicas, { type: 'integer', default: 1 });
    assert.deepEqual(spec.properties!.items!['x-kubernetes-list-map-keys'], ['name']);
    assert.deepEqual(spec.properties!.free!.additionalProperties, {});
    assert.deepEqual(prune(s, { spec: { free: { a: 1, b: { x: 1 } } } }), ['spec.free.b.x']);
  });
  it('knows apiVersion, kind and metadata at the root, with the name restriction kept', () => {
    assert.deepEqual(s.properties!.kind, { type: 'string' });
    assert.deepEqual(s.properties!.metadata!.properties!.name, { ...s.properties!.metadata!.properties!.name, type: 'string', maxLength: 5 });
    assert.ok(s.properties!.metadata!.properties!.labels);
    const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'toolong', labels: { a: 'b' }, junk: 1 }, spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: 2 }, spec: { any: 1 } }, bogus: 1 } };
    assert.deepEqual(prune(s, obj), ['metadata.junk', 'spec.template.metadata.junk', 'spec.bogus']);
    assert.deepEqual(msgs(validate(s, obj)), ['metadata.name: Too long: may not be longer than 5']);
    assert.deepEqual(applyDefaults(s, { spec: {} }), { spec: { replicas: 1 } });
  });
  it('keeps an embedded resource open with preserve-unknown-fields', () => {
    const t = s.properties!.spec!.properties!.template!;
    assert.equal(t['x-kubernetes-preserve-unknown-fields'], true);
    assert.equal(t.properties!.metadata!.properties!.namespace!.type, 'string');
  });
});

describe('validateJunctors', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      a: { type: 'string', anyOf: [{ pattern: '^x' }, { maxLength: 2 }] },
      b: { type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 10 }] },
      c: { type: 'object', properties: { p: { type: 'string' }, q: { type: 'string' } }, allOf: [{ required: ['p'] }, { required: ['q'] }] },
      d: { type: 'string', not: { enum: ['bad'] } },
      e: { type: 'string', anyOf: [{ pattern: '(?i)^yes$' }, { pattern: '^\\pN+$' }] },
      n: { type: 'number', multipleOf: 0.5 },
      l: { type: 'array', items: { type: 'integer', multipleOf: 3 } },
    },
  };
  const rows: [string, unknown, string[]][] = [
    ['all valid', { a: 'xyz', b: 3, c: { p: '', q: '' }, d: 'ok', n: 1.5, l: [3, 6] }, []],
    ['anyOf: none', { a: 'abc' }, [': Invalid value: "": "a" must validate at least one schema (anyOf)', `a: Invalid value: "abc": a in body should match '^x'`]],
    ['oneOf: two valid', { b: 7 }, [': Invalid value: "": "b" must validate one and only one schema (oneOf). Found 2 valid alternatives']],
    ['allOf: one failing', { c: { p: '' } }, ['c.q: Required value', ': Invalid value: "": "c" must validate all the schemas (allOf)']],
    ['allOf: none', { c: {} }, ['c.p: Required value', 'c.q: Required value', ': Invalid value: "": "c" must validate all the schemas (allOf). None validated']],
    ['not', { d: 'bad' }, [': Invalid value: "": "d" must not validate the schema (not)']],
    ['RE2 patterns in branches', { e: 'YES' }, []],
    ['RE2 patterns in branches, none matching', { e: 'no' }, [': Invalid value: "": "e" must validate at least one schema (anyOf)', `e: Invalid value: "no": e in body should match '(?i)^yes$'`]],
    ['multipleOf', { n: 1.2, l: [3, 4] }, ['n: Invalid value: 1.2: n in body should be a multiple of 0.5', 'l[1]: Invalid value: 4: l[1] in body should be a multiple of 3']],
  ];
  for (const [name, v, want] of rows) it(name, () => assert.deepEqual(msgs(validateJunctors(s, v)), want));

  it('junctorValidator is undefined without junctors, and reports at the given root path', () => {
    assert.equal(junctorValidator({ type: 'object', properties: { a: { type: 'string' } } }), undefined);
    // the int-or-string pattern says nothing validate.ts does not check
    assert.equal(junctorValidator({ type: 'object', properties: { p: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } }), undefined);
    const v = junctorValidator({ type: 'object', properties: { d: { type: 'string', not: { enum: ['bad'] } } } })!;
    assert.deepEqual(msgs(v({ d: 'bad' }, 'spec')), ['spec: Invalid value: "": "spec.d" must not validate the schema (not)']);
  });
});
