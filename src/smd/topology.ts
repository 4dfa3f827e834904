// The topology a structural schema gives each node, as the typed walks read it:
//
//   list  x-kubernetes-list-type atomic | set | map (+ list-map-keys); when unset,
//         patch-strategy "merge" reads as map keyed by patch-merge-key (or set
//         without a key); otherwise atomic
//   map   x-kubernetes-map-type atomic | granular (default); struct fields are the
//         `properties`, other keys use additionalProperties (or are unstructured)
//   none  (`undefined` schema, or preserve-unknown-fields without a type):
//         unstructured — lists atomic, maps granular, everything else scalar
//
// An atomic node is a leaf: nothing beneath it is ever addressed. A schema's
// topology is computed once (schemas are immutable). Also here: the path
// element of a list item, and the path stack the walks keep for errors.
import type { JsonValue, Schema } from '../schema/model.js';
import { isObject } from '../schema/model.js';
import { compareStrings, fieldEntry, goJson, goJsonString, keySpelling, pathToString, valueOf, type KeyField, type PathElement } from './fieldpath.js';

export class TypedError extends Error {
  override name = 'TypedError';
}

export type ListNode = {
  readonly kind: 'list';
  readonly atomic: boolean;
  readonly keys: readonly string[] | undefined;
  readonly sortedKeys: readonly string[] | undefined;
  /** For a list with one key field: the spelling of its items' keys up to the value (`k:{"name":`). */
  readonly keyPrefix: string | undefined;
  /** Spellings of items seen, by their key value (one key field) or value (set): making one costs more than finding it. */
  readonly spellings: Map<JsonValue, string>;
  readonly item: Schema | undefined;
  /** topology(item), once asked for. */
  itemNode?: Node;
};
export type MapNode = {
  readonly kind: 'map';
  readonly atomic: boolean;
  readonly fields: { readonly [name: string]: Schema } | undefined;
  readonly element: Schema | undefined;
  readonly strict: boolean;
  /** The declared fields (with their spelling and topology) and the topology of other keys, once asked for. */
  declared?: Map<string, FieldInfo>;
  elementNode?: Node;
};

/** A declared (struct) field of a map: its element, spelling and topology. */
export interface FieldInfo {
  readonly key: string;
  readonly pe: PathElement;
  readonly node: Node;
}
export type Node = { readonly kind: 'scalar'; readonly atomic?: undefined } | ListNode | MapNode | { readonly kind: 'unknown'; readonly atomic?: undefined };

const SCALAR: Node = { kind: 'scalar' };
const UNKNOWN: Node = { kind: 'unknown' };

const list = (atomic: boolean, keys: readonly string[] | undefined, item: Schema | undefined): ListNode => ({
  kind: 'list',
  atomic,
  keys,
  sortedKeys: keys && [...keys].sort(compareStrings),
  keyPrefix: keys?.length === 1 ? 'k:{' + goJsonString(keys[0]!) + ':' : undefined,
  spellings: new Map(),
  item,
});

const SPELLINGS_KEPT = 10_000;

/** The spelling `prefix + goJson(v) + suffix` of a scalar, from the list's memo. */
function spelled(n: ListNode, v: JsonValue, prefix: string, suffix: string): string {
  let sp = n.spellings.get(v);
  if (sp === undefined) {
    sp = prefix + goJson(v) + suffix;
    if (n.spellings.size >= SPELLINGS_KEPT) n.spellings.clear();
    n.spellings.set(v, sp);
  }
  return sp;
}

const isScalar = (v: JsonValue): boolean => v === null || typeof v !== 'object';

function computeTopology(s: Schema): Node {
  if (s['x-kubernetes-int-or-string']) return SCALAR;
  if (s.type === 'array' || (s.type === undefined && s.items !== undefined)) {
    const lt = s['x-kubernetes-list-type'];
    const item = s.items;
    if (lt === 'atomic') return list(true, undefined, item);
    if (lt === 'set') return list(false, undefined, item);
    if (lt === 'map') return list(false, s['x-kubernetes-list-map-keys'] ?? [], item);
    const strategy = s['x-kubernetes-patch-strategy'];
    if (strategy !== undefined && strategy.split(',').includes('merge')) {
      const mk = s['x-kubernetes-patch-merge-key'];
      return list(false, mk ? [mk] : undefined, item);
    }
    return list(true, undefined, item);
  }
  if (s.type === 'object' || s.properties !== undefined || s.additionalProperties !== undefined) {
    const ap = s.additionalProperties;
    // A struct (properties, no additionalProperties) rejects undeclared fields unless it preserves unknown ones.
    const strict = s.properties !== undefined && (ap === undefined || ap === false) && !s['x-kubernetes-preserve-unknown-fields'];
    return { kind: 'map', atomic: s['x-kubernetes-map-type'] === 'atomic', fields: s.properties, element: isObject(ap) ? (ap as Schema) : undefined, strict };
  }
  if (s.type !== undefined) return SCALAR;
  return UNKNOWN;
}

const topologies = new WeakMap<Schema, Node>();

/** The topology a schema gives a node, without looking at a value (`unknown` = unstructured). */
export function topology(s: Schema | undefined): Node {
  if (s === undefined) return UNKNOWN;
  let n = topologies.get(s);
  if (n === undefined) topologies.set(s, (n = computeTopology(s)));
  return n;
}

const UNSTRUCTURED_LIST: Node = list(true, undefined, undefined);
const UNSTRUCTURED_MAP: Node = { kind: 'map', atomic: false, fields: undefined, element: undefined, strict: false };

/** The topology used for a value: the schema's (`t`), or deduced from the value when unstructured or mismatched. */
export function resolve(t: Node, v: JsonValue | undefined): Node {
  if (v === undefined || v === null) return t.kind === 'unknown' ? SCALAR : t;
  const shape = typeof v !== 'object' ? 'scalar' : Array.isArray(v) ? 'list' : 'map';
  if (t.kind === 'unknown') return shape === 'list' ? UNSTRUCTURED_LIST : shape === 'map' ? UNSTRUCTURED_MAP : SCALAR;
  if (t.kind !== shape) return SCALAR; // a value that does not fit its schema is treated as opaque
  return t;
}

/** A node whose value is a leaf of the walks: a scalar, an unstructured scalar or an atomic container. */
export const isLeaf = (n: Node): boolean => n.kind === 'scalar' || n.kind === 'unknown' || n.atomic === true;
export const isAtomicContainer = (n: Node): boolean => (n.kind === 'list' || n.kind === 'map') && n.atomic;

/** The declared field `name` of a map (undefined for other keys, and under anything but a map). */
export function declared(n: Node, name: string): FieldInfo | undefined {
  if (n.kind !== 'map') return undefined;
  if (n.declared === undefined) {
    const fields = n.fields ?? {};
    n.declared = new Map(Object.keys(fields).map((k) => [k, { ...fieldEntry(k), node: topology(fields[k]) }]));
  }
  return n.declared.get(name);
}

/** The topology of a map's undeclared keys (additionalProperties); unknown under anything but a map. */
export const elementNode = (n: Node): Node => (n.kind === 'map' ? (n.elementNode ??= topology(n.element)) : UNKNOWN);

/** The topology of a map's entry `name`: its declared field's, else additionalProperties'; unknown under anything but a map. */
export const childNode = (n: Node, name: string): Node => declared(n, name)?.node ?? elementNode(n);

/** Whether `name` is a declared field (struct field) of a map. */
export const isNamedField = (n: Node, name: string): boolean => declared(n, name) !== undefined;

/** The topology of a list's items. */
export const itemNode = (n: ListNode): Node => (n.itemNode ??= topology(n.item));

/** The topology of the child at pe: a map's field, or a list's item. */
export function nodeOfChild(n: Node, pe: PathElement): Node {
  if (pe.kind === 'field') return childNode(n, pe.name);
  return n.kind === 'list' ? itemNode(n) : UNKNOWN;
}

// ---------------------------------------------------------------------------
// The path stack of a walk: a field name, or a list item (its element is made
// only when needed: for an error, or a path recorded in a set).

export class ItemFrame {
  private element: PathElement | undefined;
  constructor(
    readonly key: string,
    private readonly n: ListNode,
    readonly item: JsonValue,
  ) {}
  get pe(): PathElement {
    return (this.element ??= itemElement(this.n, this.item));
  }
}

export type Frame = string | ItemFrame;

export const frameKey = (f: Frame): string => (typeof f === 'string' ? fieldEntry(f).key : f.key);
export const frameElement = (f: Frame): PathElement => (typeof f === 'string' ? fieldEntry(f).pe : f.pe);
export const framePath = (stack: readonly Frame[]): PathElement[] => stack.map(frameElement);

export const duplicate = (stack: readonly Frame[], f: ItemFrame): TypedError => new TypedError(`${pathToString(framePath(stack))}: duplicate entries for key ${pathToString([f.pe])}`);

/**
 * The spelling of a list item's element (`k:{"name":"app"}` or `v:"x"`):
 * its key (with key defaults from the item schema) or its value. Throws
 * TypedError, at the path of the list, for an item the list cannot hold.
 */
export function itemKey(n: ListNode, item: JsonValue, stack: readonly Frame[]): string {
  const at = (): string => pathToString(framePath(stack));
  if (n.keys !== undefined) {
    if (!isObject(item)) throw new TypedError(`${at()}: associative list with keys may not have ${item === null ? 'a null element' : 'non-map elements'}`);
    const props = n.item?.properties;
    for (const k of n.keys) {
      if (!Object.hasOwn(item, k) && props?.[k]?.default === undefined) {
        throw new TypedError(`${at()}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
      }
    }
    if (n.keyPrefix !== undefined) {
      const k = n.sortedKeys![0]!;
      const v = Object.hasOwn(item, k) ? (item[k] as JsonValue) : props![k]!.default!;
      return isScalar(v) ? spelled(n, v, n.keyPrefix, '}') : n.keyPrefix + goJson(v) + '}';
    }
    return keySpelling(keyFields(n, item));
  }
  if (item === null) throw new TypedError(`${at()}: associative list without keys has an element that's an explicit null`);
  if (Array.isArray(item)) throw new TypedError(`${at()}: not supported: associative list with lists as elements`);
  if (isObject(item)) throw new TypedError(`${at()}: associative list without keys has an element that's a map type`);
  return spelled(n, item, 'v:', '');
}

function keyFields(n: ListNode, item: JsonValue): KeyField[] {
  const o = item as { [k: string]: JsonValue };
  const props = n.item?.properties;
  return n.sortedKeys!.map((k) => ({ name: k, value: Object.hasOwn(o, k) ? o[k]! : props![k]!.default! }));
}

/** The path element of a list item that itemKey accepted. */
export function itemElement(n: ListNode, item: JsonValue): PathElement {
  return n.keys !== undefined ? { kind: 'key', fields: keyFields(n, item) } : valueOf(item);
}
