// The structural-schema model: the subset of OpenAPI v3 (with Kubernetes'
// x-kubernetes-* markers) that describes every built-in kind and every
// CustomResourceDefinition. Plain JSON data, spelled as a CRD's
// openAPIV3Schema spells it, so a CRD schema is (almost) already a Schema.
// Some slots are ours: `id` (the OpenAPI component name of a shared type),
// `proto`, `protoIn`, `protoKeepZero` (protobuf wire facts) and `goAlways`
// (a Go JSON fact). Everything derived from a schema — validation, unknown
// fields, pruning, defaulting, OpenAPI, parity — lives in the neighbouring
// modules and treats a Schema as immutable.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

/** atomic: replaced as a whole; set: scalar items merged by value; map: items merged by their key fields. */
export type ListType = 'atomic' | 'set' | 'map';
export type MapType = 'atomic' | 'granular';

export interface Schema {
  type?: SchemaType;
  description?: string;
  /** Named fields of an object. */
  properties?: { [name: string]: Schema };
  /** A map's value schema (or true/false). Exclusive with `properties` in structural schemas. */
  additionalProperties?: Schema | boolean;
  /** The schema of every item of an array. */
  items?: Schema;
  required?: string[];
  enum?: JsonValue[];
  format?: string;
  nullable?: boolean;
  default?: JsonValue;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  /** An ECMA-262 regular expression the whole string is tested against (unanchored, as OpenAPI says). */
  pattern?: string;
  /** An integer or a string (IntOrString; Quantity also sets it, with format "quantity"). */
  'x-kubernetes-int-or-string'?: boolean;
  /** apiVersion, kind and metadata (ObjectMeta) are known fields of this object. */
  'x-kubernetes-embedded-resource'?: boolean;
  /** Fields not in `properties` are kept and not reported as unknown. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-list-type'?: ListType;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: MapType;
  /** Strategic merge patch: "merge", "retainKeys", "merge,retainKeys", "replace". */
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  /** The OpenAPI component name when this is a shared type (e.g. io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta). */
  id?: string;
  /** The protobuf field number of this property in its parent message. */
  proto?: number;
  /**
   * The property belongs to a Go-embedded struct, written as a message at this number of the parent
   * (a path of numbers when embedded structs nest); `proto` numbers it within the innermost one.
   */
  protoIn?: number[];
  /** A zero scalar read from protobuf is kept (Go's JSON shows it: a pointer field, or one without omitempty) rather than dropped. */
  protoKeepZero?: true;
  /**
   * Go's JSON encoding always writes this field, even when the client left it out: a value (not
   * pointer) field without omitempty, or a struct, Time or Quantity held by value (omitempty
   * never drops those). Its zero value is written when absent: "", 0, false, null (slices, maps,
   * Time), "0" (Quantity), or the struct with its own always-written fields. Implies protoKeepZero.
   */
  goAlways?: true;
}

/** The JSON type name of a decoded value, as OpenAPI validators name it ("integer" for whole numbers). */
export function jsonTypeOf(v: unknown): 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object' {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(v) ? 'integer' : 'number';
    default:
      return Array.isArray(v) ? 'array' : 'object';
  }
}

/** A JSON object (not an array, not null). */
export function isObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
