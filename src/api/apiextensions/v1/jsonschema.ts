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
// Protobuf numbers are left out: not yet checked against the generated.proto.
import { any, bool, int64, list, mapOf, num, obj, S, str } from '../../../schema/index.js';
import type { Schema } from '../../../schema/index.js';

export const PKG = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

export const JSON_ = any().id(`${PKG}.JSON`).desc('Any JSON value.');
export const JSONSchemaPropsOrBool = any().id(`${PKG}.JSONSchemaPropsOrBool`).desc('A schema, or a boolean (true allows anything, false nothing).');
export const JSONSchemaPropsOrArray = any().id(`${PKG}.JSONSchemaPropsOrArray`).desc('A schema, or an array of schemas.');
export const JSONSchemaPropsOrStringArray = any().id(`${PKG}.JSONSchemaPropsOrStringArray`).desc('A schema, or an array of property names.');

export const ExternalDocumentation = obj({
  description: str().desc('What the documentation is.'),
  url: str().desc('Where the documentation is.'),
})
  .id(`${PKG}.ExternalDocumentation`)
  .desc('A link to more documentation.');

export const ValidationRule = obj({
  rule: str().required().desc('A CEL expression over self (and oldSelf for transition rules) that must be true.'),
  message: str().desc('The message returned when the rule fails; one line.'),
  messageExpression: str().desc('A CEL expression producing the failure message; preferred over message when it yields one.'),
})
  .id(`${PKG}.ValidationRule`)
  .desc('A CEL validation rule of a schema node.');

/** Stands for JSONSchemaProps until the recursive fields are tied below. */
const SELF = obj({}).id(`${PKG}.JSONSchemaProps`);

const built: S = obj({
  id: str().desc('The schema\'s id keyword.'),
  $schema: str().desc('The JSON Schema dialect of the schema.'),
  $ref: str().desc('A reference to another schema; not allowed in CRD schemas.'),
  description: str().desc('What the value is.'),
  type: str().desc('object, array, string, integer, number or boolean.'),
  format: str().desc('The format of the value, such as int32, date-time or byte.'),
  title: str().desc('A short title.'),
  default: JSON_.desc('The value used when the field is absent (structural schemas only).'),
  maximum: num().desc('The largest allowed number.'),
  exclusiveMaximum: bool().desc('Whether maximum itself is excluded.'),
  minimum: num().desc('The smallest allowed number.'),
  exclusiveMinimum: bool().desc('Whether minimum itself is excluded.'),
  maxLength: int64().desc('The longest allowed string.'),
  minLength: int64().desc('The shortest allowed string.'),
  pattern: str().desc('A regular expression strings must match.'),
  maxItems: int64().desc('The most items allowed.'),
  minItems: int64().desc('The fewest items allowed.'),
  uniqueItems: bool().desc('Whether items must be unique; not allowed in CRD schemas.'),
  multipleOf: num().desc('A number values must be a multiple of.'),
  enum: list(JSON_).desc('The allowed values.'),
  maxProperties: int64().desc('The most properties allowed.'),
  minProperties: int64().desc('The fewest properties allowed.'),
  required: list(str()).desc('The properties that must be present.'),
  items: JSONSchemaPropsOrArray.desc('The schema of array items.'),
  allOf: list(SELF).desc('Schemas the value must all match.'),
  oneOf: list(SELF).desc('Schemas of which the value must match exactly one.'),
  anyOf: list(SELF).desc('Schemas of which the value must match at least one.'),
  not: SELF.desc('A schema the value must not match.'),
  properties: mapOf(SELF).desc('The schemas of named properties.'),
  additionalProperties: JSONSchemaPropsOrBool.desc('The schema of properties not named, or whether they are allowed.'),
  patternProperties: mapOf(SELF).desc('Schemas of properties whose names match a pattern; not allowed in CRD schemas.'),
  dependencies: mapOf(JSONSchemaPropsOrStringArray).desc('Schemas or properties required when a property is present.'),
  additionalItems: JSONSchemaPropsOrBool.desc('The schema of items past those listed; not allowed in CRD schemas.'),
  definitions: mapOf(SELF).desc('Named schemas for references; not allowed in CRD schemas.'),
  externalDocs: ExternalDocumentation.desc('More documentation of the value.'),
  example: JSON_.desc('An example value.'),
  nullable: bool().desc('Whether null is allowed (and kept).'),
  'x-kubernetes-preserve-unknown-fields': bool().desc('Whether fields the schema does not name are kept rather than pruned.'),
  'x-kubernetes-embedded-resource': bool().desc('Whether the value is a whole object with apiVersion, kind and metadata.'),
  'x-kubernetes-int-or-string': bool().desc('Whether the value may be an integer or a string.'),
  'x-kubernetes-list-map-keys': list(str()).desc('The key fields of a list of type map.'),
  'x-kubernetes-list-type': str().desc('atomic, set or map: how server-side apply merges the list.'),
  'x-kubernetes-map-type': str().desc('granular or atomic: how server-side apply merges the object.'),
  'x-kubernetes-validations': list(ValidationRule).map('rule').patch('merge', 'rule').desc('CEL rules the value must satisfy.'),
})
  .id(`${PKG}.JSONSchemaProps`)
  .desc('A JSON Schema (OpenAPI v3) node with the Kubernetes extensions.');

/** Points the recursive fields of the finished schema at itself. */
function tie(s: Schema): Schema {
  const p = s.properties!;
  for (const k of ['allOf', 'oneOf', 'anyOf']) p[k] = { ...p[k]!, items: s };
  for (const k of ['properties', 'patternProperties', 'definitions']) p[k] = { ...p[k]!, additionalProperties: s };
  p.not = s;
  return s;
}

export const JSONSchemaProps: S = new S(tie(built.schema));
