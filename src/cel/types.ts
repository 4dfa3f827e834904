// CEL types as the checker reasons about them. Structural, plain objects;
// primitives have shared instances (T.int, T.string…) but a schema may give a
// bounded copy ({kind: 'string', maxLength: 63}) — bounds never affect type
// equality, only the cost estimator reads them.
//
// Owned by: checker (assignability, unification, formatting as cel-go prints
// types: `int`, `list(string)`, `map(string, dyn)`, `type(int)`,
// `optional_type(int)`), kubernetes schema mapping (object types and bounds).

export type Type =
  | PrimitiveType
  | ListType
  | MapType
  | TypeType
  | OpaqueType
  | TypeParam
  | ObjectType;

export type PrimitiveKind =
  | 'dyn'
  | 'any'
  | 'error'
  | 'null'
  | 'bool'
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'timestamp'
  | 'duration';

export interface PrimitiveType {
  kind: PrimitiveKind;
  /** Cost bounds (strings in code points, bytes in bytes). */
  maxLength?: number;
  minLength?: number;
}

/** A list. k8sList says how a Kubernetes schema's x-kubernetes-list-type
 * changes equality and `+` (set: order-free equality, union on concatenation;
 * map: order-free equality by mapKeys, merge on concatenation). */
export interface ListType {
  kind: 'list';
  elem: Type;
  maxElements?: number;
  k8sList?: { listType: 'set' } | { listType: 'map'; mapKeys: string[] };
}

export interface MapType {
  kind: 'map';
  key: Type;
  value: Type;
  maxElements?: number;
}

/** The type of a type value: `type(int)`; param absent for the bare `type`. */
export interface TypeType {
  kind: 'type';
  param?: Type;
}

/** Parameterised named types: `optional_type(T)`, and any extension's
 * opaque types (e.g. Kubernetes `kubernetes.URL`, `kubernetes.authorization.Authorizer`). */
export interface OpaqueType {
  kind: 'opaque';
  name: string;
  params: Type[];
}

/** A type parameter in an overload signature (`A` in `list(A)`). */
export interface TypeParam {
  kind: 'typeParam';
  name: string;
}

/** A message-like object type (from a Kubernetes schema: an object with
 * properties). fields is keyed by the CEL-visible name (escaped, see the
 * kubernetes mapping); a field absent from the map fails type-checking with
 * `undefined field 'x'`. */
export interface ObjectType {
  kind: 'object';
  name: string;
  fields: ReadonlyMap<string, FieldType>;
  maxElements?: number;
}

export interface FieldType {
  type: Type;
  /** The property name in the JSON data (unescaped). */
  wireName: string;
  /** Turns the stored JSON value into the CEL runtime value when the field's
   * type needs it (double, bytes, timestamp, duration, and lists/maps of
   * them); absent when the JSON value is already the runtime value. */
  convert?: (raw: unknown) => unknown;
  /** Listed in the schema's `required`. */
  required?: boolean;
}

const prim = (kind: PrimitiveKind): PrimitiveType => Object.freeze({ kind });

/** Shared primitive instances. */
export const T = {
  dyn: prim('dyn'),
  any: prim('any'),
  error: prim('error'),
  null: prim('null'),
  bool: prim('bool'),
  int: prim('int'),
  uint: prim('uint'),
  double: prim('double'),
  string: prim('string'),
  bytes: prim('bytes'),
  timestamp: prim('timestamp'),
  duration: prim('duration'),
} as const;

export const listOf = (elem: Type): ListType => ({ kind: 'list', elem });
export const mapOf = (key: Type, value: Type): MapType => ({ kind: 'map', key, value });
export const typeOf = (param?: Type): TypeType => (param ? { kind: 'type', param } : { kind: 'type' });
export const opaque = (name: string, ...params: Type[]): OpaqueType => ({ kind: 'opaque', name, params });
export const typeParam = (name: string): TypeParam => ({ kind: 'typeParam', name });
export const optionalOf = (t: Type): OpaqueType => opaque('optional_type', t);
