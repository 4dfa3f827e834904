// A custom resource's schema as kube-apiserver publishes it (apiextensions-apiserver
// v1.27 pkg/controller/openapi/builder buildKubeNative, pkg/apiserver/schema
// ToKubeOpenAPI, Unfold, and pkg/controller/openapi/v2 ToStructuralOpenAPIV2):
//
//   openAPIV3Schema ──structural keywords only──▶ unfold int-or-string ──(v2 only) v2 conversion──▶
//     + metadata ($ref ObjectMeta) + apiVersion/kind + embedded resources' apiVersion/kind/metadata
//     + x-kubernetes-group-version-kind
//
// - Only what a structural schema holds is published: descriptions, types, value
//   validations, the junctors, defaults and the x-kubernetes-* markers (CEL rules
//   included); example, externalDocs and the keywords structural schemas forbid are not.
//   A schema with an unknown type or a forbidden keyword ($ref, id, patternProperties…)
//   is published as a bare object, as kube does when it cannot make it structural.
// - int-or-string gains anyOf [integer, string] (in front of an allOf when it
//   already has an anyOf), unless it already spells that pattern.
// - v2 (Swagger 2.0, what kubectl reads): no junctors; a nullable field loses its
//   type, items and properties (and leaves its parent's required list); a field
//   keeping unknown fields loses items and properties, and its type when that was
//   object; an array left without items loses its type. A root keeping unknown
//   fields (or spec.preserveUnknownFields) is published as a bare object.
// - Properties are sorted, as Go writes maps.
import type { JsonValue } from '../../schema/model.js';
import { typeMeta } from '../../schema/common.js';
import type { JSONSchemaProps } from '../types.js';

export type Json = { [key: string]: JsonValue };
export type Form = 'v2' | 'v3';

export const OBJECT_META_ID = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
export const LIST_META_ID = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
export const REF_PREFIX: Record<Form, string> = { v2: '#/definitions/', v3: '#/components/schemas/' };

const TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string', 'null']);
const UNSUPPORTED = ['id', '$schema', '$ref', 'patternProperties', 'dependencies', 'additionalItems', 'definitions'] as const;

/** The keywords published as they are, in kube-openapi's order. */
const SCALARS = [
  'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties', 'minProperties',
] as const;
const MARKERS = ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'] as const;
const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;

/** Whether kube can make a structural schema of it: known types, no forbidden keywords, `items` a schema. */
export function publishable(s: JSONSchemaProps): boolean {
  if (typeof s !== 'object' || s === null) return false;
  if (s.type !== undefined && !TYPES.has(s.type)) return false;
  for (const k of UNSUPPORTED) {
    const v = s[k];
    if (v === undefined || v === '') continue;
    if (typeof v === 'object' && v !== null && Object.keys(v).length === 0) continue;
    return false;
  }
  if (Array.isArray(s.items)) return false;
  const children: JSONSchemaProps[] = [
    ...Object.values(s.properties ?? {}),
    ...(s.items !== undefined && !Array.isArray(s.items) ? [s.items] : []),
    ...(typeof s.additionalProperties === 'object' ? [s.additionalProperties] : []),
    ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []),
    ...(s.not !== undefined ? [s.not] : []),
  ];
  return children.every(publishable);
}

/** The structural keywords of `s` as published JSON, recursively (properties sorted). */
function structural(s: JSONSchemaProps): Json {
  const out: Json = {};
  for (const k of SCALARS) {
    const v = s[k] as JsonValue | undefined;
    // Go's omitempty: no empty strings, false booleans or empty enums; a null default is no default.
    if (v === undefined || v === null || (k !== 'default' && (v === '' || v === false))) continue;
    if (k === 'enum' && Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  if (s.nullable === true) out.nullable = true;
  if (s.required !== undefined && s.required.length > 0) out.required = [...s.required];
  for (const k of JUNCTORS) {
    const list = s[k];
    if (list !== undefined && list.length > 0) out[k] = list.map(structural);
  }
  if (s.not !== undefined) out.not = structural(s.not);
  if (s.items !== undefined && !Array.isArray(s.items)) out.items = structural(s.items);
  if (s.properties !== undefined && Object.keys(s.properties).length > 0) {
    const props: Json = {};
    for (const name of Object.keys(s.properties).sort()) props[name] = structural(s.properties[name]!);
    out.properties = props;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'boolean' ? s.additionalProperties : structural(s.additionalProperties);
  }
  for (const k of MARKERS) if (s[k] === true) out[k] = true;
  const keys = s['x-kubernetes-list-map-keys'];
  if (keys !== undefined && keys.length > 0) out['x-kubernetes-list-map-keys'] = [...keys];
  if (s['x-kubernetes-list-type'] !== undefined) out['x-kubernetes-list-type'] = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-map-type'] !== undefined) out['x-kubernetes-map-type'] = s['x-kubernetes-map-type'];
  const rules = s['x-kubernetes-validations'];
  if (rules !== undefined && rules.length > 0) out['x-kubernetes-validations'] = rules.map((r) => ({ ...r }) as Json);
  return out;
}

/** Every schema node of the structural tree (not inside junctors), parents first. */
function visit(s: Json, fn: (s: Json) => void): void {
  fn(s);
  if (isJson(s.items)) visit(s.items, fn);
  if (isJson(s.properties)) for (const p of Object.values(s.properties)) if (isJson(p)) visit(p, fn);
  if (isJson(s.additionalProperties)) visit(s.additionalProperties, fn);
}

const isJson = (v: JsonValue | undefined): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const INTEGER_OR_STRING: JsonValue[] = [{ type: 'integer' }, { type: 'string' }];
const isIntOrStringPattern = (v: JsonValue | undefined) => JSON.stringify(v) === JSON.stringify(INTEGER_OR_STRING);

/** kube's Unfold: int-or-string spelled out as anyOf [integer, string]. */
function unfold(s: Json): void {
  if (s['x-kubernetes-int-or-string'] !== true) return;
  const allOf = Array.isArray(s.allOf) ? s.allOf : [];
  if (isIntOrStringPattern(s.anyOf) || (isJson(allOf[0]) && isIntOrStringPattern(allOf[0].anyOf))) return;
  const pattern = INTEGER_OR_STRING.map((x) => ({ ...(x as Json) }));
  if (s.anyOf === undefined) s.anyOf = pattern;
  else s.allOf = [{ anyOf: pattern }, ...allOf];
}

/** kube's ToStructuralOpenAPIV2, on one node (its children are visited after it). */
function toV2(s: Json): void {
  for (const k of [...JUNCTORS, 'not']) delete s[k];
  if (s.nullable === true) {
    delete s.type;
    delete s.nullable;
    delete s.items;
    delete s.properties;
  }
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserve) {
    delete s.items;
    delete s.properties;
  }
  if (s.items === undefined && s.type === 'array') delete s.type;
  if (preserve && s.type === 'object') delete s.type;
  if (Array.isArray(s.required) && isJson(s.properties)) {
    const props = s.properties;
    const kept = s.required.filter((f) => !(typeof f === 'string' && isJson(props[f]) && props[f].nullable === true));
    if (kept.length === 0) delete s.required;
    else s.required = kept;
  }
  if (isJson(s.additionalProperties) && s.additionalProperties.nullable === true) delete s.required;
}

const apiVersionProp = (): Json => ({ description: typeMeta.apiVersion.schema.description!, type: 'string' });
const kindProp = (): Json => ({ description: typeMeta.kind.schema.description!, type: 'string' });
export const metadataRef = (form: Form): Json => ({ $ref: REF_PREFIX[form] + OBJECT_META_ID, description: 'Standard object metadata.' });

function setProperties(s: Json, add: Json): void {
  const props: Json = { ...(isJson(s.properties) ? s.properties : {}), ...add };
  s.properties = Object.fromEntries(Object.keys(props).sort().map((k) => [k, props[k]!]));
}

/** kube's addEmbeddedProperties: an embedded resource's apiVersion, kind (both required) and metadata. */
function addEmbedded(s: Json, form: Form): void {
  if (isJson(s.properties)) for (const p of Object.values(s.properties)) if (isJson(p)) addEmbedded(p, form);
  if (isJson(s.items)) addEmbedded(s.items, form);
  if (isJson(s.additionalProperties)) addEmbedded(s.additionalProperties, form);
  if (form === 'v2' && s['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (s['x-kubernetes-embedded-resource'] !== true) return;
  setProperties(s, { apiVersion: apiVersionProp(), kind: kindProp(), metadata: metadataRef(form) });
  const required = Array.isArray(s.required) ? [...s.required] : [];
  for (const f of ['kind', 'apiVersion']) if (!required.includes(f)) required.push(f);
  s.required = required;
}

export interface KindSchemaInput {
  /** The version's openAPIV3Schema, if any. */
  readonly schema?: JSONSchemaProps;
  /** spec.preserveUnknownFields. */
  readonly preserveUnknownFields?: boolean;
  /** The x-kubernetes-group-version-kind value. */
  readonly gvk: JsonValue;
}

/** The published schema of a custom resource kind in one form (kube's buildKubeNative). */
export function kindSchema(input: KindSchemaInput, form: Form): Json {
  const s = input.schema !== undefined && publishable(input.schema) ? input.schema : undefined;
  if (s === undefined || (form === 'v2' && (s['x-kubernetes-preserve-unknown-fields'] === true || input.preserveUnknownFields === true))) {
    return { type: 'object', 'x-kubernetes-group-version-kind': input.gvk };
  }
  const out = structural(s);
  visit(out, unfold);
  if (form === 'v2') visit(out, toV2);
  setProperties(out, { metadata: metadataRef(form), apiVersion: apiVersionProp(), kind: kindProp() });
  addEmbedded(out, form);
  out['x-kubernetes-group-version-kind'] = input.gvk;
  return out;
}

export interface ListSchemaInput {
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  /** The definition name of the item kind. */
  readonly itemId: string;
  readonly gvk: JsonValue;
}

/** The published schema of a custom resource's List kind (kube's buildListSchema). */
export function listSchema(input: ListSchemaInput, form: Form): Json {
  return {
    description: `${input.listKind} is a list of ${input.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: apiVersionProp(),
      items: { description: `List of ${input.plural}.`, type: 'array', items: { $ref: REF_PREFIX[form] + input.itemId } },
      kind: kindProp(),
      metadata: { $ref: REF_PREFIX[form] + LIST_META_ID, description: 'Standard list metadata.' },
    },
    'x-kubernetes-group-version-kind': input.gvk,
  };
}
