// schemaDeps plugged into crd-spec's validateCrdCreate/validateCrdUpdate: the
// paths kube reports (spec.validation.openAPIV3Schema for a shared schema,
// spec.versions[i].schema.openAPIV3Schema otherwise), the root checks made
// once, rules compiled only when celReady, and the update ratchets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorBody, type FieldError } from '../../api/meta/field.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../types.js';
import { validateCrdCreate, validateCrdUpdate } from './index.js';
import { schemaDeps } from './schema.js';

const msgs = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${errorBody(e)}`);

function crd(schemas: JSONSchemaProps[], status = false): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: schemas.map((s, i) => ({ name: `v${i + 1}`, served: true, storage: i === 0, schema: { openAPIV3Schema: s }, ...(status ? { subresources: { status: {} } } : {}) })),
    },
    // what the strategy's prepareForCreate sets
    status: { storedVersions: ['v1'] },
  };
}

describe('schemaDeps in crd-spec', () => {
  const calls: string[] = [];
  const deps = { ...schemaDeps, ruleErrors: (_s: JSONSchemaProps, path: string) => (calls.push(path), []) };
  const good: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer', default: 1 } } } } };
  const bad: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer', default: 'x' } } } } };

  it('a valid CRD: no errors, its rules compiled', () => {
    calls.length = 0;
    assert.deepEqual(msgs(validateCrdCreate(crd([good]), deps)), []);
    assert.deepEqual(calls, ['spec.validation.openAPIV3Schema']);
  });
  it('a shared schema is reported at spec.validation, and its rules are not compiled', () => {
    calls.length = 0;
    assert.deepEqual(msgs(validateCrdCreate(crd([bad, bad]), deps)), ['spec.validation.openAPIV3Schema.properties[spec].properties[n].default: Invalid value: "string":  in body must be of type integer: "string"']);
    assert.deepEqual(calls, []);
  });
  it('per-version schemas are reported per version', () => {
    assert.deepEqual(msgs(validateCrdCreate(crd([good, bad]), deps)), ['spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[n].default: Invalid value: "string":  in body must be of type integer: "string"']);
  });
  it('the status subresource root rule is reported once', () => {
    const errs = validateCrdCreate(crd([{ ...good, minProperties: 1 }], true), deps);
    assert.equal(errs.length, 1);
    assert.equal(errs[0]!.field, 'spec.validation.openAPIV3Schema');
    assert.match(errs[0]!.detail, /fields are allowed at the root of the schema if the status subresource is enabled$/);
  });
  it('the nullable root is reported once', () => {
    assert.deepEqual(msgs(validateCrdCreate(crd([{ ...good, nullable: true }]), deps)), ['spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root']);
  });
  it('an update keeps a non-structural schema writable when the stored one was already non-structural', () => {
    const nonStructural = crd([{ type: 'object', properties: { spec: { type: 'object', properties: { a: {} } } } }]);
    assert.deepEqual(msgs(validateCrdCreate(nonStructural, deps)), ['spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields']);
    // kube still requires structural schemas of a v1 CRD (preserveUnknownFields false): the ratchet does not help there
    assert.deepEqual(msgs(validateCrdUpdate(nonStructural, nonStructural, deps)), ['spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields']);
  });
});
