// validateSchema: one row per rule, with the exact text kube-apiserver v1.27
// gives (pkg/apis/apiextensions/validation, pkg/apiserver/schema). The path is
// spec.validation.openAPIV3Schema, where kube reports a schema shared by every
// version (celrules-03 in the golden transcripts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../../api/meta/field.js';
import { renderCause } from '../../api/meta/govalue.js';
import type { JSONSchemaProps } from '../types.js';
import { createOptions } from './options.js';
import { schemaHasUnprunedDefaults, schemaIsNonStructural, validateSchema, type SchemaValidationOptions } from './schema.js';
import { hasInvalidMapListKeysMapSet, hasNonAtomicSetType } from './walk.js';

const createSchemaOptions = (extra: Partial<SchemaValidationOptions> = {}): SchemaValidationOptions => ({ ...createOptions(), ...extra });

const P = 'spec.validation.openAPIV3Schema';
const msgs = (errs: FieldError[]) => errs.map(renderCause);
const withSpec = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });
const check = (schema: JSONSchemaProps, extra: Partial<SchemaValidationOptions> = {}) => msgs(validateSchema(schema, P, createSchemaOptions(extra)));
const S = `${P}.properties[spec]`;

describe('validateSchema: OpenAPI keywords', () => {
  const rows: [string, JSONSchemaProps, string[]][] = [
    ['a plain structural schema', withSpec({ type: 'object', properties: { a: { type: 'string' }, n: { type: 'integer', multipleOf: 2 } } }), []],
    ['$ref', withSpec({ type: 'object', $ref: '#/x' }), [`${S}.$ref: Forbidden: $ref is not supported`]],
    ['uniqueItems', withSpec({ type: 'array', items: { type: 'string' }, uniqueItems: true }), [`${S}.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`]],
    ['additionalItems', withSpec({ type: 'array', items: { type: 'string' }, additionalItems: false }), [`${S}.additionalItems: Forbidden: additionalItems is not supported`]],
    ['patternProperties', withSpec({ type: 'object', patternProperties: { '^a': { type: 'string' } } }), [`${S}.patternProperties: Forbidden: patternProperties is not supported`]],
    ['definitions', withSpec({ type: 'object', definitions: { d: { type: 'string' } } }), [`${S}.definitions: Forbidden: definitions is not supported`]],
    ['dependencies', withSpec({ type: 'object', dependencies: { a: ['b'] } }), [`${S}.dependencies: Forbidden: dependencies is not supported`]],
    ['id', withSpec({ type: 'object', id: 'x' }), [`${S}.id: Forbidden: id is not supported`]],
    ['type null', withSpec({ type: 'null' as never }), [`${S}.type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`, `${S}.type: Forbidden: type cannot be set to null, use nullable as an alternative`]],
    ['an unknown type', withSpec({ type: 'float' as never }), [`${S}.type: Unsupported value: "float": supported values: "array", "boolean", "integer", "number", "object", "string"`]],
    ['items as an array', withSpec({ type: 'array', items: [{ type: 'string' }] }), [`${S}.items: Forbidden: items must be a schema object and not an array`]],
    ['properties with additionalProperties', withSpec({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }), [`${S}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`]],
    ['properties with additionalProperties false', withSpec({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }), [`${S}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`]],
    ['preserve-unknown-fields false', withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false as never }), [`${S}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`]],
    ['default in top-level metadata', { type: 'object', properties: { metadata: { type: 'object', default: { name: 'x' } } } }, [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`]],
    ['default inside additionalProperties of embedded metadata', withSpec({ type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } } } } }), [`${S}.properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`]],
    ['embedded resource inside resource meta', withSpec({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, properties: { metadata: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } }), [`${S}.properties[metadata].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`]],
  ];
  for (const [name, schema, want] of rows) it(name, () => assert.deepEqual(check(schema), want));
});

describe('validateSchema: list and map markers', () => {
  const rows: [string, JSONSchemaProps, string[]][] = [
    ['map-type without type', withSpec({ type: 'object', properties: { m: { 'x-kubernetes-map-type': 'atomic', 'x-kubernetes-preserve-unknown-fields': true } } }), [`${S}.properties[m].type: Required value: must be object if x-kubernetes-map-type is specified`]],
    ['map-type on a string', withSpec({ type: 'string', 'x-kubernetes-map-type': 'atomic' }), [`${S}.type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`]],
    ['unknown map-type', withSpec({ type: 'object', 'x-kubernetes-map-type': 'bogus' as never }), [`${S}.x-kubernetes-map-type: Unsupported value: "bogus": supported values: "atomic", "granular"`]],
    ['list-type on an object', withSpec({ type: 'object', 'x-kubernetes-list-type': 'atomic' }), [`${S}.type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`]],
    ['unknown list-type', withSpec({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' as never }), [`${S}.x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`]],
    ['set of granular objects', withSpec({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } }), [`${S}.items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`]],
    ['set of set lists', withSpec({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } }), [`${S}.items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set`]],
    ['map keys without list-type', withSpec({ type: 'array', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } }), [`${S}.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`]],
    ['map keys on an atomic list', withSpec({ type: 'array', 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'object', properties: { a: { type: 'string' } } } }), [`${S}.x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`]],
    ['map list without keys', withSpec({ type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { a: { type: 'string' } } } }), [`${S}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]],
    ['map list of strings', withSpec({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'string' } }), [`${S}.items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`]],
    ['map key that is no property', withSpec({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['b'], items: { type: 'object', properties: { a: { type: 'string' } } } }), [`${S}.x-kubernetes-list-map-keys: Invalid value: []string{"b"}: entries must all be names of item properties`]],
    ['map key of object type, repeated', withSpec({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a', 'a'], items: { type: 'object', required: ['a'], properties: { a: { type: 'object' } } } }), [
      `${S}.items.properties[a].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
      `${S}.items.properties[a].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
      `${S}.x-kubernetes-list-map-keys: Invalid value: []string{"a", "a"}: must not contain duplicate entries`,
    ]],
    ['map key neither required nor defaulted, nullable', withSpec({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'object', properties: { a: { type: 'string', nullable: true } } } }), [
      `${S}.items.properties[a].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${S}.items.properties[a].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
    ]],
    ['a defaulted map key', withSpec({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'object', properties: { a: { type: 'string', default: 'x' } } } }), []],
    ['nullable set items', withSpec({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } }), [`${S}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`]],
  ];
  for (const [name, schema, want] of rows) it(name, () => assert.deepEqual(check(schema), want));
});

describe('validateSchema: structural rules (sorted as kube sorts them)', () => {
  const rows: [string, JSONSchemaProps, string[]][] = [
    ['no type at the root', { properties: { spec: { type: 'object' } } }, [`${P}.type: Required value: must not be empty at the root`]],
    ['a non-object root', { type: 'array', items: { type: 'string' } }, [`${P}.type: Invalid value: "array": must be object at the root`]],
    ['no type on a field and on items', withSpec({ type: 'object', properties: { a: {}, l: { type: 'array', items: {} } } }), [
      `${S}.properties[a].type: Required value: must not be empty for specified object fields`,
      `${S}.properties[l].items.type: Required value: must not be empty for specified array items`,
    ]],
    ['an array without items', withSpec({ type: 'array' }), [`${S}.items: Required value: must be specified`]],
    ['additionalProperties at the root', { type: 'object', additionalProperties: { type: 'string' } }, [`${P}.additionalProperties: Forbidden: must not be used at the root`]],
    ['int-or-string with preserve and embedded', withSpec({ type: 'object', properties: { p: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-embedded-resource': true } } }), [
      `${S}.properties[p].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
      `${S}.properties[p].x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      `${S}.properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
    ]],
    ['int-or-string patterns are allowed', withSpec({ type: 'object', properties: {
      a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      b: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+' }] },
    } }), []],
    ['types and fields in junctors', withSpec({ type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ type: 'object', description: 'd', default: {}, nullable: true, properties: { a: { title: 't' }, metadata: {} } }] }), [
      `${S}.anyOf[0].default: Forbidden: must be undefined to be structural`,
      `${S}.anyOf[0].description: Forbidden: must be empty to be structural`,
      `${S}.anyOf[0].nullable: Forbidden: must be false to be structural`,
      `${S}.anyOf[0].properties[a].title: Forbidden: must be empty to be structural`,
      `${S}.anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${S}.anyOf[0].type: Forbidden: must be empty to be structural`,
    ]],
    ['markers in junctors', withSpec({ type: 'object', not: { 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-map-type': 'atomic', 'x-kubernetes-validations': [{ rule: 'true' }] } }), [
      `${S}.not.x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
      `${S}.not.x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
      `${S}.not.x-kubernetes-validations: Forbidden: must be empty to be structural`,
      // then the OpenAPI walk, which also enters junctors
      `${S}.not.type: Required value: must be object if x-kubernetes-map-type is specified`,
      `${S}.not.type: Required value: must be array if x-kubernetes-list-type is specified`,
    ]],
    ['a root junctor naming an unspecified field', { type: 'object', properties: { spec: { type: 'object' } }, oneOf: [{ properties: { spec: { properties: { x: {} } } } }, { properties: { status: {} } }] }, [
      `${P}.properties[spec].properties[x]: Required value: because it is defined in ${P}.oneOf[0].properties[spec].properties[x]`,
      `${P}.properties[status]: Required value: because it is defined in ${P}.oneOf[1].properties[status]`,
    ]],
    ['root metadata beyond name and generateName', { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, labels: { type: 'object' } } } } }, [
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]],
    ['root metadata restricting name and generateName', { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, generateName: { type: 'string', pattern: '^a' } } } } }, []],
    ['root metadata not an object', { type: 'object', properties: { metadata: { type: 'string' }, kind: { type: 'integer' } } }, [
      `${P}.properties[kind].type: Invalid value: "integer": must be string`,
      `${P}.properties[metadata].type: Invalid value: "string": must be object`,
    ]],
    ['an embedded resource without type or properties', withSpec({ type: 'object', properties: { e: { 'x-kubernetes-embedded-resource': true } } }), [
      `${S}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${S}.properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
    ]],
    ['an invalid pattern', withSpec({ type: 'string', pattern: '(abc' }), [`${S}.pattern: Invalid value: "(abc": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(abc\``]],
    ['a Perl lookahead', withSpec({ type: 'string', pattern: 'a(?=b)' }), [`${S}.pattern: Invalid value: "a(?=b)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``]],
    ['a backreference', withSpec({ type: 'string', pattern: '(a)\\1' }), [`${S}.pattern: Invalid value: "(a)\\\\1": must be a valid regular expression, but isn't: error parsing regexp: invalid escape sequence: \`\\1\``]],
    ['an escaped backslash before a digit, and (?= inside a class', withSpec({ type: 'string', pattern: '^\\\\1[(?=]$' }), []],
    ['an invalid repeat count', withSpec({ type: 'string', pattern: 'x{2,1}' }), [`${S}.pattern: Invalid value: "x{2,1}": must be a valid regular expression, but isn't: error parsing regexp: invalid repeat count: \`{2,1}\``]],
    ['RE2 syntax JavaScript lacks is fine', withSpec({ type: 'string', pattern: '\\A\\pL[[:alpha:]]\\z' }), []],
    ['RE2 flags are fine', withSpec({ type: 'string', pattern: '^(?i)(abort|warn)?$' }), []],
  ];
  for (const [name, schema, want] of rows) it(name, () => assert.deepEqual(check(schema), want));

  it('a schema that does not convert is reported alone, last', () => {
    // $ref is refused by the walk; NewStructural's own error is then not shown
    assert.deepEqual(check(withSpec({ type: 'object', $ref: '#/x' })), [`${S}.$ref: Forbidden: $ref is not supported`]);
    // $schema is not refused by the walk: NewStructural's error is the only one
    assert.deepEqual(check(withSpec({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' })), [`${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`]);
    // and the structural rules are not checked when the schema does not convert
    assert.deepEqual(check({ properties: { a: { $schema: 'x' } } }), [`${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`]);
  });
});

describe('validateSchema: defaults', () => {
  const rows: [string, JSONSchemaProps, string[]][] = [
    ['a valid default', withSpec({ type: 'object', properties: { n: { type: 'integer', default: 3, minimum: 1 } } }), []],
    ['a default of the wrong type', withSpec({ type: 'object', properties: { n: { type: 'integer', default: 'x' } } }), [`${S}.properties[n].default: Invalid value: "string":  in body must be of type integer: "string"`]],
    ['a default matching an RE2 pattern', withSpec({ type: 'object', properties: { s: { type: 'string', pattern: '(?i)^a\\pL*$', default: 'Aé' } } }), []],
    ['a default not matching an RE2 pattern', withSpec({ type: 'object', properties: { s: { type: 'string', pattern: '(?i)^a$', default: 'b' } } }), [`${S}.properties[s].default: Invalid value: "b":  in body should match '(?i)^a$'`]],
    ['a default out of range', withSpec({ type: 'object', properties: { n: { type: 'integer', default: 0, minimum: 1 } } }), [`${S}.properties[n].default: Invalid value: 0:  in body should be greater than or equal to 1`]],
    ['a default with an unknown field', withSpec({ type: 'object', properties: { o: { type: 'object', default: { a: 1, b: 2 }, properties: { a: { type: 'integer' } } } } }), [`${S}.properties[o].default: Invalid value: map[string]interface {}{"a":1, "b":2}: must not have unknown fields`]],
    ['a default missing a required field', withSpec({ type: 'object', properties: { o: { type: 'object', default: {}, required: ['a'], properties: { a: { type: 'integer' } } } } }), [`${S}.properties[o].default.a: Required value`]],
    ['a default failing a junctor', withSpec({ type: 'object', properties: { s: { type: 'string', default: 'b', anyOf: [{ enum: ['a'] }] } } }), [
      `${S}.properties[s].default: Invalid value: "": "" must validate at least one schema (anyOf)`,
      `${S}.properties[s].default: Unsupported value: "b": supported values: "a"`,
    ]],
    ['an embedded resource default without kind', withSpec({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1' } } } }), [`${S}.properties[e].default.kind: Required value: must not be empty`]],
    ['an embedded resource default with a bad name', withSpec({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b' } } } } }), [`${S}.properties[e].default.metadata.name: Invalid value: "a/b": may not contain '/'`]],
    ['an embedded resource default with unknown metadata fields (kube neither prunes nor refuses them)', withSpec({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'string' } }, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', foo: 1 }, spec: 'x' } } } }), []],
    ['an embedded resource default with an unknown field', withSpec({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'string' } }, default: { apiVersion: 'v1', kind: 'Pod', other: 1 } } } }), [
      `${S}.properties[e].default: Invalid value: map[string]interface {}{"apiVersion":"v1", "kind":"Pod", "other":1}: must not have unknown fields`,
    ]],
    ['an embedded resource default whose metadata does not decode', withSpec({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 5 } } } } }), [
      `${S}.properties[e].default.metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
    ]],
    ['an embedded resource default with a number kind', withSpec({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1', kind: 1 } } } }), [`${S}.properties[e].default.kind: Invalid value: 1: must be a string`]],
    ['a metadata default of an embedded resource', withSpec({ type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: { type: 'object', properties: { labels: { type: 'object', default: { 'a b': 'c' }, additionalProperties: { type: 'string' } } } } } } } }), [
      `${S}.properties[e].properties[metadata].properties[labels].default: Invalid value: map[string]interface {}{"a b":"c"}: must result in valid metadata: metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]],
  ];
  for (const [name, schema, want] of rows) it(name, () => assert.deepEqual(check(schema), want));

  it('unknown fields in defaults pass when pruned defaults are not required', () => {
    const schema = withSpec({ type: 'object', properties: { o: { type: 'object', default: { a: 1, b: 2 }, properties: { a: { type: 'integer' } } } } });
    assert.deepEqual(check(schema, { requirePrunedDefaults: false }), []);
    assert.equal(schemaHasUnprunedDefaults(schema), true);
  });
});

describe('validateSchema: rules', () => {
  const rows: [string, JSONSchemaProps['x-kubernetes-validations'], string[]][] = [
    ['an empty rule', [{ rule: '' }], [`${S}.x-kubernetes-validations[0].rule: Required value: rule is not specified`]],
    ['a blank message', [{ rule: 'true', message: '  ' }], [`${S}.x-kubernetes-validations[0].message: Invalid value: "  ": message must be non-empty if specified`]],
    ['a message over two lines', [{ rule: 'true', message: 'a\nb' }], [`${S}.x-kubernetes-validations[0].message: Invalid value: "a\\nb": message must not contain line breaks`]],
    ['a rule over two lines without message', [{ rule: 'true &&\ntrue' }], [`${S}.x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks`]],
    ['a blank messageExpression', [{ rule: 'true', messageExpression: ' ' }], [`${S}.x-kubernetes-validations[0].messageExpression: Required value: messageExpression must be non-empty if specified`]],
  ];
  for (const [name, rules, want] of rows) it(name, () => assert.deepEqual(check(withSpec({ type: 'object', 'x-kubernetes-validations': rules })), want));

  it('CEL hooks see each rule site with its steps and uncorrelatable path, then the total', () => {
    const seen: string[] = [];
    const schema = withSpec({ type: 'object', 'x-kubernetes-validations': [{ rule: 'a' }], properties: { l: { type: 'array', items: { type: 'object', 'x-kubernetes-validations': [{ rule: 'b' }] } } } });
    const errs = validateSchema(schema, P, createSchemaOptions({
      cel: {
        rules: (site) => {
          seen.push(`${site.path} ${JSON.stringify(site.steps)} ${site.uncorrelatablePath ?? '-'}`);
          return [{ type: 'Invalid', field: `${site.path}.x-kubernetes-validations[0].rule`, value: 'x', detail: 'compile' }];
        },
        total: () => [{ type: 'Forbidden', field: P, detail: 'total' }],
      },
    }));
    assert.deepEqual(seen, [
      `${S}.properties[l].items [{"kind":"property","name":"spec"},{"kind":"property","name":"l"},{"kind":"items"}] ${S}.properties[l]`,
      `${S} [{"kind":"property","name":"spec"}] -`,
    ]);
    assert.deepEqual(errs.map((e) => e.detail), ['compile', 'compile', 'total']);
  });
  it('the CEL default hook sees each valid default, and its errors are kept', () => {
    const sites: string[] = [];
    const schema = withSpec({ type: 'object', properties: { n: { type: 'integer', default: 1 }, bad: { type: 'integer', default: 'x' } } });
    const errs = validateSchema(schema, P, createSchemaOptions({
      cel: { rules: () => [], defaultRules: (site) => (sites.push(`${site.path}=${JSON.stringify(site.value)} root:${site.isResourceRoot}`), [{ type: 'Invalid', field: site.path, value: site.value, detail: 'rule' }]) },
    }));
    assert.deepEqual(sites, [`${S}.properties[n].default=1 root:false`]);
    assert.deepEqual(msgs(errs), [`${S}.properties[n].default: Invalid value: 1: rule`, `${S}.properties[bad].default: Invalid value: "string":  in body must be of type integer: "string"`]);
  });
  it('CEL hooks are not called when the schema has errors at or below the rule', () => {
    let calls = 0;
    const errs = validateSchema(withSpec({ type: 'object', 'x-kubernetes-validations': [{ rule: 'a' }], properties: { a: { type: 'array' } } }), P, createSchemaOptions({ cel: { rules: () => (calls++, []) } }));
    assert.equal(calls, 0);
    assert.deepEqual(msgs(errs), [`${S}.properties[a].items: Required value: must be specified`]);
  });
});

describe('update ratchets: the facts crd-spec asks', () => {
  it('a non-structural schema, unpruned defaults, non-atomic sets and bad map keys are recognised', () => {
    const nonStructural = withSpec({ type: 'object', properties: { a: {} } });
    const badSet = withSpec({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object' } });
    const badMapKeys = withSpec({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'object', properties: { a: { type: 'string' } } } });
    assert.equal(schemaIsNonStructural(nonStructural), true);
    assert.equal(schemaIsNonStructural(badSet), false);
    assert.equal(hasNonAtomicSetType(badSet), true);
    assert.equal(hasInvalidMapListKeysMapSet(badMapKeys), true);
    assert.equal(schemaHasUnprunedDefaults(withSpec({ type: 'object', properties: { o: { type: 'object', default: { a: 1 } } } })), true);
    assert.equal(schemaHasUnprunedDefaults(withSpec({ type: 'object', properties: { o: { type: 'object', default: { a: 1 }, properties: { a: { type: 'integer' } } } } })), false);
    assert.deepEqual(check(badSet, { requireAtomicSetType: false }), []);
  });
});
