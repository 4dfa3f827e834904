// A schema compiled for the write path's walks (typedwalk.ts, gozero.ts): one
// SchemaNode per Schema object, cached in a WeakMap, with every fact those
// walks ask about precomputed into fields of one fixed shape. Schemas built
// by the DSL come in hundreds of object shapes, so reading `s.type` or
// `s['x-kubernetes-…']` on them in a hot loop is slow; a node's fields are
// read at one shape. Children are compiled with their parent (cycles are
// fine: a node is cached before its children are filled).
import { ObjectMeta } from './common.js';
import { isObject, type Schema } from './model.js';

/** How typed decoding checks a value (gotypes.ts has the messages). */
export const enum Check {
  /** Nothing to check here or below (no type, or x-kubernetes-preserve-unknown-fields without one). */
  None,
  Quantity,
  IntOrString,
  Time,
  String,
  Bytes,
  Boolean,
  Integer,
  Number,
  Array,
  Object,
}

/** What Go's JSON encoding writes for a schema's zero value (for fields it always writes). */
export const enum Zero {
  /** Slices, maps, Time, free-form values: nil, written as null. */
  Null,
  String,
  Number,
  False,
  /** resource.Quantity: "0". */
  Quantity,
  /** A struct held by value: written with its own always-written fields. */
  Struct,
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const TIME_IDS = new Set(['io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']);

export class SchemaNode {
  readonly check: Check;
  /** An int32 (for Check.Integer). */
  readonly int32: boolean;
  /** The Go struct name (the last part of `id`), if the schema is a named type. */
  readonly struct: string | undefined;
  /** Named fields; undefined when the schema has no `properties`. */
  props: Map<string, SchemaNode> | undefined = undefined;
  /** A map's value schema (additionalProperties as a schema). */
  extra: SchemaNode | undefined = undefined;
  items: SchemaNode | undefined = undefined;
  /** Unknown keys are kept (x-kubernetes-preserve-unknown-fields, or additionalProperties: true). */
  readonly keep: boolean;
  readonly embedded: boolean;
  /** The unknown-field walk descends into an array / an object here. */
  readonly walkArray: boolean;
  readonly walkObject: boolean;
  /** As a property: Go's omitempty drops its zero value (a Go field, not kept at zero, not IntOrString). */
  readonly omitZero: boolean;
  /** As a property holding `{}`: an empty map Go omits (not a struct, not free-form). */
  readonly omitEmptyObject: boolean;
  readonly isObjectMeta: boolean;
  /** The properties that are embedded ObjectMetas (filled in with the children). */
  metaProps: readonly string[] = [];
  /** `status` is a property of object type (a kind's status struct, always written). */
  statusObject = false;
  /** `spec` and `status` where they are structs: a kind's top-level structs, which Go always writes. */
  topStructs: readonly string[] = [];
  /** The properties Go always writes (goAlways), filled with their zero value when absent. */
  always: readonly (readonly [name: string, node: SchemaNode])[] = [];
  /** The zero value Go writes for this schema when it is an always-written field. */
  readonly zero: Zero;

  constructor(readonly schema: Schema) {
    const s = schema;
    const type = s.type;
    this.check = checkOf(s);
    this.int32 = s.format === 'int32';
    this.struct = s.id ? s.id.slice(s.id.lastIndexOf('.') + 1) : undefined;
    this.keep = s['x-kubernetes-preserve-unknown-fields'] === true || s.additionalProperties === true;
    this.embedded = s['x-kubernetes-embedded-resource'] === true;
    this.walkArray = s.items !== undefined && (type === undefined || type === 'array');
    this.walkObject = (type === undefined || type === 'object') && !s['x-kubernetes-int-or-string'];
    this.omitZero = s.proto !== undefined && !s.protoKeepZero && !s['x-kubernetes-int-or-string'];
    this.omitEmptyObject = !s.properties && !s['x-kubernetes-preserve-unknown-fields'];
    this.isObjectMeta = s.id === OBJECT_META;
    this.zero = zeroOf(s);
  }
}

function zeroOf(s: Schema): Zero {
  if (s.format === 'quantity') return Zero.Quantity;
  if (s['x-kubernetes-int-or-string']) return Zero.Number; // IntOrString{}: the integer 0
  if (s.properties) return Zero.Struct;
  if ((s.id && TIME_IDS.has(s.id)) || s.format === 'date-time') return Zero.Null;
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? Zero.Null : Zero.String;
    case 'integer':
    case 'number':
      return Zero.Number;
    case 'boolean':
      return Zero.False;
    default:
      return Zero.Null;
  }
}

function checkOf(s: Schema): Check {
  if (s['x-kubernetes-preserve-unknown-fields'] && s.type === undefined) return Check.None;
  if (s.format === 'quantity') return Check.Quantity;
  if (s['x-kubernetes-int-or-string']) return Check.IntOrString;
  if (s.id && TIME_IDS.has(s.id)) return Check.Time;
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? Check.Bytes : Check.String;
    case 'boolean':
      return Check.Boolean;
    case 'integer':
      return Check.Integer;
    case 'number':
      return Check.Number;
    case 'array':
      return Check.Array;
    case 'object':
      return Check.Object;
    default:
      return Check.None;
  }
}

const nodes = new WeakMap<Schema, SchemaNode>();

/** The compiled node of a schema (made once per Schema object). */
export function nodeOf(s: Schema): SchemaNode {
  let n = nodes.get(s);
  if (n) return n;
  n = new SchemaNode(s);
  nodes.set(s, n);
  if (s.properties) {
    const props = new Map<string, SchemaNode>();
    const meta: string[] = [];
    const always: [string, SchemaNode][] = [];
    for (const k of Object.keys(s.properties)) {
      const sub = s.properties[k]!;
      const child = nodeOf(sub);
      props.set(k, child);
      if (sub.id === OBJECT_META) meta.push(k);
      if (sub.goAlways) always.push([k, child]);
    }
    n.props = props;
    n.metaProps = meta;
    n.always = always;
    n.statusObject = s.properties.status?.type === 'object';
    n.topStructs = ['spec', 'status'].filter((k) => s.properties![k]?.type === 'object' && s.properties![k]!.properties !== undefined);
  }
  if (isObject(s.additionalProperties)) n.extra = nodeOf(s.additionalProperties as Schema);
  if (s.items) n.items = nodeOf(s.items);
  return n;
}

let objectMeta: SchemaNode | undefined;
/** The node of ObjectMeta (an embedded resource's `metadata`). */
export function objectMetaNode(): SchemaNode {
  return (objectMeta ??= nodeOf(ObjectMeta.schema));
}
