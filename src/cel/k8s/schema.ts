// A structural OpenAPI v3 schema (the shape CustomResourceDefinitions use) as
// a CEL type, the way Kubernetes v1.27 declares it (apiserver/pkg/cel/common
// SchemaDeclType, then DeclType.MaybeAssignTypeName):
//
//   object with properties            object type named by its path (root name,
//                                     `Root.spec`, `Root.spec.items.@idx`,
//                                     `Root.labels.@elem`…), fields keyed by the
//                                     escaped property name (escaping.ts)
//   object with additionalProperties  map(string, T)
//   x-kubernetes-embedded-resource    object; apiVersion, kind, metadata.name and
//   (and the resource root)           metadata.generateName always present
//   x-kubernetes-preserve-unknown-    an object's known properties only; without
//   fields                            type: object, not accessible
//   x-kubernetes-int-or-string        dyn
//   array                             list(T); list-type set/map in k8sList
//   boolean / integer / number        bool / int / double
//   string                            string; format byte → bytes, date and
//                                     date-time → timestamp, duration → duration
//
// A schema (or part of one) that has no CEL type gives undefined; such a
// property is left out of its object. Bounds are kube's, for the cost
// estimator: a string's maxLength is its size in bytes (4 × the schema's
// maxLength in code points, or the largest string a request can hold), a
// list's or map's maxElements is maxItems/maxProperties or the most elements
// of the smallest serialized size a request can hold.

import type { FieldType, ListType, MapType, ObjectType, PrimitiveType, Type } from '../types.js';
import { T } from '../types.js';
import { escape } from './escaping.js';
import { converterOf, toIntOrString, type Converter } from './convert.js';

/** A structural schema as found in a CRD's openAPIV3Schema. */
export interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  [extension: string]: unknown;
}

export interface SchemaTypeOptions {
  /** The root object type's name (kube names a CRD rule's `self` type
   * uniquely, an admission policy's params `Params`…); nested object types are
   * named from it. */
  name: string;
  /** The root of a resource: apiVersion, kind, metadata.name and
   * metadata.generateName are declared even when the schema omits them.
   * Default: whether the schema is an embedded resource (as kube compiles the
   * rules of a nested schema); a CRD's root passes true. */
  resourceRoot?: boolean;
}

/** kube's DefaultMaxRequestSizeBytes (3 MiB). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
// Serialized sizes kube assumes (apiserver/pkg/cel/limits.go).
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
export const MIN_DURATION_SIZE_JSON = 3;
export const JSON_DATE_SIZE = 12;
export const MIN_DATETIME_SIZE_JSON = 21;
export const MIN_STRING_SIZE = 2;
export const MIN_BOOL_SIZE = 4;
export const MIN_NUMBER_SIZE = 1;

/** A mapped schema: its type, the smallest JSON it can be, how its JSON value
 * becomes the runtime value (when it is not already). */
interface Mapped {
  type: Type;
  minSize: number;
  convert?: Converter;
}

/** The CEL type of a schema, or undefined when it is not exposed to CEL. */
export function schemaType(schema: Schema, opts: SchemaTypeOptions): Type | undefined {
  return map(schema, isResourceRoot(schema, opts), opts.name)?.type;
}

const isResourceRoot = (s: Schema, opts: SchemaTypeOptions): boolean =>
  opts.resourceRoot ?? s['x-kubernetes-embedded-resource'] === true;

/** The type and the JSON-to-runtime converter of a schema (for a root value,
 * e.g. `self` of a rule on a string with a format). */
export function schemaTypeAndConverter(schema: Schema, opts: SchemaTypeOptions): { type: Type; convert?: Converter } | undefined {
  const m = map(schema, isResourceRoot(schema, opts), opts.name);
  if (!m) return undefined;
  return m.convert ? { type: m.type, convert: m.convert } : { type: m.type };
}

const bounded = (kind: PrimitiveType['kind'], maxLength: number): PrimitiveType => ({ kind, maxLength });
const zeroIfNegative = (v: number): number => (v < 0 ? 0 : v);

function map(s: Schema, resourceRoot: boolean, name: string): Mapped | undefined {
  if (s['x-kubernetes-int-or-string'] === true) {
    return { type: bounded('dyn', MAX_REQUEST_SIZE_BYTES - 2), minSize: 1, convert: toIntOrString };
  }
  if (resourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array':
      return s.items ? mapList(s, s.items, name) : undefined;
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') return mapMap(s, ap, name);
      return mapObject(s, name);
    }
    case 'string':
      return mapString(s);
    case 'boolean':
      return { type: T.bool, minSize: MIN_BOOL_SIZE };
    case 'number':
      return { type: T.double, minSize: MIN_NUMBER_SIZE, convert: converterOf(T.double, s.format) };
    case 'integer':
      return { type: T.int, minSize: MIN_NUMBER_SIZE, convert: converterOf(T.int) };
  }
  return undefined;
}

function mapList(s: Schema, items: Schema, name: string): Mapped | undefined {
  const elem = map(items, items['x-kubernetes-embedded-resource'] === true, `${name}.@idx`);
  if (!elem) return undefined;
  const maxElements = s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSize + 1));
  const type: ListType = { kind: 'list', elem: elem.type, maxElements };
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') type.k8sList = { listType: 'set' };
  else if (listType === 'map') type.k8sList = { listType: 'map', mapKeys: [...(s['x-kubernetes-list-map-keys'] ?? [])] };
  const convert = elem.convert ? converterOf(type, undefined, elem.convert) : undefined;
  return convert ? { type, minSize: 2, convert } : { type, minSize: 2 };
}

function mapMap(s: Schema, values: Schema, name: string): Mapped | undefined {
  const value = map(values, values['x-kubernetes-embedded-resource'] === true, `${name}.@elem`);
  if (!value) return undefined;
  const maxElements = s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (value.minSize + 6));
  const type: MapType = { kind: 'map', key: T.string, value: value.type, maxElements };
  const convert = value.convert ? converterOf(type, undefined, value.convert) : undefined;
  return convert ? { type, minSize: 2, convert } : { type, minSize: 2 };
}

function mapObject(s: Schema, name: string): Mapped {
  const required = new Set(s.required ?? []);
  const fields = new Map<string, FieldType>();
  let minSize = 2; // {}
  for (const [prop, ps] of Object.entries(s.properties ?? {})) {
    const escaped = escape(prop);
    const m = map(ps, ps['x-kubernetes-embedded-resource'] === true, `${name}.${escaped ?? prop}`);
    if (!m) continue;
    if (escaped !== undefined) {
      const field: FieldType = { type: m.type, wireName: prop };
      if (m.convert) field.convert = m.convert;
      if (required.has(prop)) field.required = true;
      fields.set(escaped, field);
    }
    // Required properties without a default are always serialized.
    if (required.has(prop) && (ps.default === undefined || ps.default === null)) minSize += Buffer.byteLength(prop) + m.minSize + 4;
  }
  const type: ObjectType = { kind: 'object', name, fields };
  return { type, minSize };
}

function mapString(s: Schema): Mapped {
  switch (s.format) {
    case 'byte':
      return {
        type: bounded('bytes', s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : MAX_REQUEST_SIZE_BYTES - 2),
        minSize: MIN_STRING_SIZE,
        convert: converterOf(T.bytes, 'byte'),
      };
    case 'duration':
      return { type: bounded('duration', MAX_DURATION_SIZE_JSON), minSize: MIN_DURATION_SIZE_JSON, convert: converterOf(T.duration, 'duration') };
    case 'date':
      return { type: bounded('timestamp', JSON_DATE_SIZE), minSize: JSON_DATE_SIZE, convert: converterOf(T.timestamp, 'date') };
    case 'date-time':
      return { type: bounded('timestamp', MAX_DATETIME_SIZE_JSON), minSize: MIN_DATETIME_SIZE_JSON, convert: converterOf(T.timestamp, 'date-time') };
  }
  return {
    type: bounded('string', s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : MAX_REQUEST_SIZE_BYTES - 2),
    minSize: MIN_STRING_SIZE,
  };
}

const STRING: Schema = { type: 'string' };

/** kube's WithTypeAndObjectMeta: a resource's kind, apiVersion and metadata
 * (name and generateName only) are always declared. */
export function withTypeAndObjectMeta(s: Schema): Schema {
  const p = s.properties;
  const meta = p?.['metadata'];
  if (
    p?.['kind']?.type === 'string' &&
    p['apiVersion']?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.['name']?.type === 'string' &&
    meta.properties['generateName']?.type === 'string'
  ) {
    return s;
  }
  return {
    ...s,
    properties: {
      ...p,
      kind: STRING,
      apiVersion: STRING,
      metadata: { type: 'object', properties: { name: STRING, generateName: STRING } },
    },
  };
}
