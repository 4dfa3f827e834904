// apiextensions/v1 JSONSchemaProps: the OpenAPI v3 schema of a custom
// resource version, with Kubernetes' x-kubernetes-* extensions and CEL rules.
//
// The type is recursive (properties, items, allOf, not, … hold schemas), which
// an immutable builder cannot tie: JSONSchemaProps is built with placeholders
// and its recursive fields are then pointed at the finished schema itself,
// once, here. The result is a cyclic Schema: walks over values (validation,
// unknown fields, pruning, defaulting) and collectComponents are fine; code
// that walks the schema itself without following ids (inline OpenAPI output,
// JSON.stringify) must treat ids as references.
// Protobuf numbers are those of the v1.27 Go types (generated.proto).
import { any, bool, int64, list, mapOf, num, obj, S, str } from '../../../schema/index.js';
import type { Schema } from '../../../schema/index.js';

export const PKG = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

export const JSON_ = any().id(`${PKG}.JSON`).desc('Any JSON value.');
export const JSONSchemaPropsOrBool = any().id(`${PKG}.JSONSchemaPropsOrBool`).desc('A schema, or a boolean (true allows anything, false nothing).');
export const JSONSchemaPropsOrArray = any().id(`${PKG}.JSONSchemaPropsOrArray`).desc('A schema, or an array of schemas.');
export const JSONSchemaPropsOrStringArray = any().id(`${PKG}.JSONSchemaPropsOrStringArray`).desc('A schema, or an array of property names.');

export const ExternalDocumentation = obj({
  description: str().proto(1).desc('What the documentation is.'),
  url: str().proto(2).desc('Where the documentation is.'),
})
  .id(`${PKG}.ExternalDocumentation`)
  .desc('A link to more documentation.');

export const ValidationRule = obj({
  rule: str().proto(1, { keepZero: true }).required().desc('A CEL expression over self (and oldSelf for transition rules) that must be true.'),
  message: str().proto(2).desc('The message returned when the rule fails; one line.'),
  messageExpression: str().proto(3).desc('A CEL expression producing the failure message; preferred over message when it yields one.'),
})
  .id(`${PKG}.ValidationRule`)
  .desc('A CEL validation rule of a schema node.');

/** Stands for JSONSchemaProps until the recursive fields are tied below. */
const SELF = obj({}).id(`${PKG}.JSONSchemaProps`);

const built: S = obj({
  id: str().proto(1).desc('The schema\'s id keyword.'),
  $schema: str().proto(2).desc('The JSON Schema dialect of the schema.'),
  $ref: str().proto(3, { keepZero: true }).desc('A reference to another schema; not allowed in CRD schemas.'),
  description: str().proto(4).desc('What the value is.'),
  type: str().proto(5).desc('object, array, string, integer, number or boolean.'),
  format: str().proto(6).desc('The format of the value, such as int32, date-time or byte.'),
  title: str().proto(7).desc('A short title.'),
  default: JSON_.proto(8).desc('The value used when the field is absent (structural schemas only).'),
  maximum: num().proto(9, { keepZero: true }).desc('The largest allowed number.'),
  exclusiveMaximum: bool().proto(10).desc('Whether maximum itself is excluded.'),
  minimum: num().proto(11, { keepZero: true }).desc('The smallest allowed number.'),
  exclusiveMinimum: bool().proto(12).desc('Whether minimum itself is excluded.'),
  maxLength: int64().proto(13, { keepZero: true }).desc('The longest allowed string.'),
  minLength: int64().proto(14, { keepZero: true }).desc('The shortest allowed string.'),
  pattern: str().proto(15).desc('A regular expression strings must match.'),
  maxItems: int64().proto(16, { keepZero: true }).desc('The most items allowed.'),
  minItems: int64().proto(17, { keepZero: true }).desc('The fewest items allowed.'),
  uniqueItems: bool().proto(18).desc('Whether items must be unique; not allowed in CRD schemas.'),
  multipleOf: num().proto(19, { keepZero: true }).desc('A number values must be a multiple of.'),
  enum: list(JSON_).proto(20).desc('The allowed values.'),
  maxProperties: int64().proto(21, { keepZero: true }).desc('The most properties allowed.'),
  minProperties: int64().proto(22, { keepZero: true }).desc('The fewest properties allowed.'),
  required: list(str()).proto(23).desc('The properties that must be present.'),
  items: JSONSchemaPropsOrArray.proto(24).desc('The schema of array items.'),
  allOf: list(SELF).proto(25).desc('Schemas the value must all match.'),
  oneOf: list(SELF).proto(26).desc('Schemas of which the value must match exactly one.'),
  anyOf: list(SELF).proto(27).desc('Schemas of which the value must match at least one.'),
  not: SELF.proto(28).desc('A schema the value must not match.'),
  properties: mapOf(SELF).proto(29).desc('The schemas of named properties.'),
  additionalProperties: JSONSchemaPropsOrBool.proto(30).desc('The schema of properties not named, or whether they are allowed.'),
  patternProperties: mapOf(SELF).proto(31).desc('Schemas of properties whose names match a pattern; not allowed in CRD schemas.'),
  dependencies: mapOf(JSONSchemaPropsOrStringArray).proto(32).desc('Schemas or properties required when a property is present.'),
  additionalItems: JSONSchemaPropsOrBool.proto(33).desc('The schema of items past those listed; not allowed in CRD schemas.'),
  definitions: mapOf(SELF).proto(34).desc('Named schemas for references; not allowed in CRD schemas.'),
  externalDocs: ExternalDocumentation.proto(35).desc('More documentation of the value.'),
  example: JSON_.proto(36).desc('An example value.'),
  nullable: bool().proto(37).desc('Whether null is allowed (and kept).'),
  'x-kubernetes-preserve-unknown-fields': bool().proto(38, { keepZero: true }).desc('Whether fields the schema does not name are kept rather than pruned.'),
  'x-kubernetes-embedded-resource': bool().proto(39).desc('Whether the value is a whole object with apiVersion, kind and metadata.'),
  'x-kubernetes-int-or-string': bool().proto(40).desc('Whether the value may be an integer or a string.'),
  'x-kubernetes-list-map-keys': list(str()).proto(41).desc('The key fields of a list of type map.'),
  'x-kubernetes-list-type': str().proto(42, { keepZero: true }).desc('atomic, set or map: how server-side apply merges the list.'),
  'x-kubernetes-map-type': str().proto(43, { keepZero: true }).desc('granular or atomic: how server-side apply merges the object.'),
  'x-kubernetes-validations': list(ValidationRule).proto(44).map('rule').patch('merge', 'rule').desc('CEL rules the value must satisfy.'),
})
  .id(`${PKG}.JSONSchemaProps`)
  .desc('A JSON Schema (OpenAPI v3) node with the Kubernetes extensions.');

/** Points the recursive fields of the finished schema at itself. */
function tie(s: Schema): Schema {
  const p = s.properties!;
  for (const k of ['allOf', 'oneOf', 'anyOf']) p[k] = { ...p[k]!, items: s };
  for (const k of ['properties', 'patternProperties', 'definitions']) p[k] = { ...p[k]!, additionalProperties: s };
  p.not = { ...s, proto: p.not!.proto! };
  return s;
}

export const JSONSchemaProps: S = new S(tie(built.schema));
