// The builder DSL for writing kinds in TypeScript. Every call returns a new,
// immutable builder; `.schema` is the plain Schema (model.ts). Example:
//
//   const DeploymentSpec = obj({
//     replicas: int32().default(1).proto(1),
//     selector: ref(LabelSelector).required().proto(2),
//     template: ref(PodTemplateSpec).required().proto(3),
//   });
//   containers: list(Container).map('name').patch('merge', 'name').required()
//
// `.required()` on a property puts its name in the parent's `required` list
// (in property order); obj()'s option `required` does the same by name.
import type { JsonValue, Schema, SchemaType } from './model.js';

export type Field = S | Schema;

const schemaOf = (f: Field): Schema => (f instanceof S ? f.schema : f);

export class S {
  constructor(
    readonly schema: Schema,
    /** Whether the parent object lists this property as required. */
    readonly isRequired = false,
  ) {}

  private with(patch: Schema): S {
    return new S({ ...this.schema, ...patch }, this.isRequired);
  }

  desc(description: string): S {
    return this.with({ description });
  }
  default(value: JsonValue): S {
    return this.with({ default: value });
  }
  /**
   * The protobuf field number. `in`: the field is part of a Go-embedded (inline) struct, which
   * protobuf writes as a message at that number of the parent (a path when embeddings nest). `keepZero`: Go's JSON shows this
   * field's zero value (a pointer, or no omitempty), so a zero read from protobuf is kept. `always`: a Go value field that
   * is always written (no omitempty, or a struct/Time held by value), so an absent one is written as its zero value
   * (gozero.ts); implies keepZero.
   */
  proto(field: number, opts: { in?: number | number[]; keepZero?: boolean; always?: boolean } = {}): S {
    const protoIn = opts.in === undefined ? undefined : Array.isArray(opts.in) ? opts.in : [opts.in];
    const keepZero = opts.keepZero || opts.always;
    return this.with({ proto: field, ...(protoIn ? { protoIn } : {}), ...(keepZero ? { protoKeepZero: true as const } : {}), ...(opts.always ? { goAlways: true as const } : {}) });
  }
  /** Marks the schema as a shared OpenAPI component with this name. */
  id(name: string): S {
    return this.with({ id: name });
  }
  required(): S {
    return new S(this.schema, true);
  }
  nullable(): S {
    return this.with({ nullable: true });
  }
  format(format: string): S {
    return this.with({ format });
  }
  enum(...values: JsonValue[]): S {
    return this.with({ enum: values });
  }
  /** minimum (inclusive unless `exclusive`). */
  min(n: number, exclusive = false): S {
    return this.with(exclusive ? { minimum: n, exclusiveMinimum: true } : { minimum: n });
  }
  /** maximum (inclusive unless `exclusive`). */
  max(n: number, exclusive = false): S {
    return this.with(exclusive ? { maximum: n, exclusiveMaximum: true } : { maximum: n });
  }
  minLen(n: number): S {
    return this.with({ minLength: n });
  }
  maxLen(n: number): S {
    return this.with({ maxLength: n });
  }
  pattern(re: string | RegExp): S {
    return this.with({ pattern: typeof re === 'string' ? re : re.source });
  }
  minItems(n: number): S {
    return this.with({ minItems: n });
  }
  maxItems(n: number): S {
    return this.with({ maxItems: n });
  }
  minProps(n: number): S {
    return this.with({ minProperties: n });
  }
  maxProps(n: number): S {
    return this.with({ maxProperties: n });
  }
  /** A list merged by key fields (x-kubernetes-list-type: map). */
  map(...keys: string[]): S {
    if (keys.length === 0) throw new Error('map(): a list-type map needs at least one key');
    return this.with({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });
  }
  /** A list of unique scalars merged by value (x-kubernetes-list-type: set). */
  set(): S {
    return this.with({ 'x-kubernetes-list-type': 'set' });
  }
  /** A list or object replaced as a whole (list-type or map-type atomic, by the schema's type). */
  atomic(): S {
    return this.with(this.schema.type === 'array' ? { 'x-kubernetes-list-type': 'atomic' } : { 'x-kubernetes-map-type': 'atomic' });
  }
  /** An object whose fields are merged one by one (x-kubernetes-map-type: granular). */
  granular(): S {
    return this.with({ 'x-kubernetes-map-type': 'granular' });
  }
  /** Strategic merge patch strategy ("merge", "retainKeys", "merge,retainKeys", "replace") and merge key. */
  patch(strategy: string, mergeKey?: string): S {
    return this.with(mergeKey === undefined ? { 'x-kubernetes-patch-strategy': strategy } : { 'x-kubernetes-patch-strategy': strategy, 'x-kubernetes-patch-merge-key': mergeKey });
  }
  /** Keep and accept fields the schema does not name. */
  preserveUnknown(): S {
    return this.with({ 'x-kubernetes-preserve-unknown-fields': true });
  }
}

const scalar = (type: SchemaType, format?: string): S => new S(format === undefined ? { type } : { type, format });

export const str = (): S => scalar('string');
export const bytes = (): S => scalar('string', 'byte');
export const int32 = (): S => scalar('integer', 'int32');
export const int64 = (): S => scalar('integer', 'int64');
export const num = (): S => scalar('number', 'double');
export const bool = (): S => scalar('boolean');
export const enumOf = (...values: string[]): S => str().enum(...values);

/** meta/v1 Time: an RFC 3339 date-time string. */
export const time = (): S => new S({ type: 'string', format: 'date-time', id: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time' });
/** meta/v1 MicroTime: an RFC 3339 date-time string with microseconds. */
export const microTime = (): S => new S({ type: 'string', format: 'date-time', id: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime' });
/** An int32 or a string. */
export const intOrString = (): S => new S({ 'x-kubernetes-int-or-string': true, format: 'int-or-string', id: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString' });
/** resource.Quantity: a string such as "100m" or "1Gi", or a number. */
export const quantity = (): S => new S({ 'x-kubernetes-int-or-string': true, format: 'quantity', id: 'io.k8s.apimachinery.pkg.api.resource.Quantity' });

/** An object with named fields; required fields come from `.required()` on a field and from `opts.required`. */
export function obj(props: { [name: string]: Field }, opts: { required?: string[] } = {}): S {
  const properties: { [name: string]: Schema } = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(props)) {
    properties[name] = schemaOf(f);
    if (f instanceof S && f.isRequired) required.push(name);
  }
  for (const name of opts.required ?? []) {
    if (!(name in properties)) throw new Error(`obj(): required field "${name}" is not a property`);
    if (!required.includes(name)) required.push(name);
  }
  return new S(required.length ? { type: 'object', properties, required } : { type: 'object', properties });
}

/** An array of `item`. */
export const list = (item: Field): S => new S({ type: 'array', items: schemaOf(item) });
/** A string-keyed map of `value`. */
export const mapOf = (value: Field): S => new S({ type: 'object', additionalProperties: schemaOf(value) });
/** A use of a shared type (one with an id); the same builder, named for readability. */
export const ref = (shared: S): S => {
  if (!shared.schema.id) throw new Error('ref(): the schema has no id; give it one with .id(name)');
  return new S(shared.schema);
};
/** Any JSON value, kept as is (x-kubernetes-preserve-unknown-fields with no type). */
export const any = (): S => new S({ 'x-kubernetes-preserve-unknown-fields': true });
/** An object of any shape, kept as is (runtime.RawExtension-like). */
export const freeform = (): S => new S({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
/** A whole embedded object (apiVersion, kind, metadata and anything else). */
export const embedded = (): S => new S({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });

/** The plain schema of a builder or schema. */
export const toSchema = schemaOf;
