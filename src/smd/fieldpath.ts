// Field paths and field sets (structured-merge-diff's `fieldpath` package).
//
// A path element selects a child: a struct/map field (`f:name`), a map-list
// item by its key fields (`k:{"name":"app"}`), a set item by value
// (`v:"x"`), or an atomic-list index (`i:0`). A FieldSet is a trie of paths:
// each node has *members* (paths that end here) and *children* (subtrees).
// FieldsV1 is the JSON spelling Kubernetes stores in managedFields; encoding
// follows the reference server byte for byte: elements in structured-merge-diff
// order (fields < keys < values < indexes), key fields sorted by name, values
// in Go's JSON encoding (HTML-escaped), and `.` first for a node that is both
// a member and a parent.
import type { JsonValue } from '../schema/model.js';
import { isObject } from '../schema/model.js';

export interface KeyField {
  readonly name: string;
  readonly value: JsonValue;
}

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const field = (name: string): PathElement => ({ kind: 'field', name });
export const index = (i: number): PathElement => ({ kind: 'index', index: i });
export const valueOf = (v: JsonValue): PathElement => ({ kind: 'value', value: v });
/** A key element; its fields are sorted by name, as Kubernetes keeps them. */
export function key(fields: Record<string, JsonValue> | readonly KeyField[]): PathElement {
  const list = Array.isArray(fields) ? [...(fields as readonly KeyField[])] : Object.entries(fields).map(([name, value]) => ({ name, value }));
  list.sort((a, b) => compareStrings(a.name, b.name));
  return { kind: 'key', fields: list };
}

// ---------------------------------------------------------------------------
// Ordering (Go's strings.Compare is byte order of UTF-8 = code point order).

export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

const typeRank = (v: JsonValue): number =>
  typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : Array.isArray(v) ? 3 : v === null ? 5 : 4;

/** A total order on JSON values: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as JsonValue[];
      const lb = b as JsonValue[];
      for (let i = 0; i < Math.min(la.length, lb.length); i++) {
        const c = compareValues(la[i]!, lb[i]!);
        if (c !== 0) return c;
      }
      return la.length - lb.length < 0 ? -1 : la.length > lb.length ? 1 : 0;
    }
    case 4: {
      const ea = Object.entries(a as object).sort((x, y) => compareStrings(x[0], y[0]));
      const eb = Object.entries(b as object).sort((x, y) => compareStrings(x[0], y[0]));
      for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
        const c = compareStrings(ea[i]![0], eb[i]![0]) || compareValues(ea[i]![1], eb[i]![1]);
        if (c !== 0) return c;
      }
      return ea.length < eb.length ? -1 : ea.length > eb.length ? 1 : 0;
    }
    default:
      return 0;
  }
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

/** structured-merge-diff's PathElement order. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key': {
      const fa = a.fields;
      const fb = (b as typeof a).fields;
      for (let i = 0; i < Math.min(fa.length, fb.length); i++) {
        const c = compareStrings(fa[i]!.name, fb[i]!.name) || compareValues(fa[i]!.value, fb[i]!.value);
        if (c !== 0) return c;
      }
      return fa.length < fb.length ? -1 : fa.length > fb.length ? 1 : 0;
    }
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index < (b as typeof a).index ? -1 : a.index > (b as typeof a).index ? 1 : 0;
  }
}

// ---------------------------------------------------------------------------
// Serialization.

/** A JSON string as Go's encoding/json writes it (HTML characters and U+2028/9 escaped). */
export function goJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += s[i]!;
  }
  return out + '"';
}

/** A JSON value as Go writes it: maps with sorted keys, strings escaped as goJsonString. */
export function goJson(v: JsonValue): string {
  if (typeof v === 'string') return goJsonString(v);
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(goJson).join(',') + ']';
  const keys = Object.keys(v).sort(compareStrings);
  return '{' + keys.map((k) => goJsonString(k) + ':' + goJson(v[k]!)).join(',') + '}';
}

/** The FieldsV1 key of an element: `f:name`, `k:{...}`, `v:<json>`, `i:<n>`. */
export function serializeElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return 'f:' + pe.name;
    case 'key':
      return 'k:{' + pe.fields.map((f) => goJsonString(f.name) + ':' + goJson(f.value)).join(',') + '}';
    case 'value':
      return 'v:' + goJson(pe.value);
    case 'index':
      return 'i:' + String(pe.index);
  }
}

export class FieldPathError extends Error {
  override name = 'FieldPathError';
}

/** Parses a FieldsV1 key back into an element; `undefined` for unknown prefixes (ignored, as Kubernetes does). */
export function parseElement(s: string): PathElement | undefined {
  if (s.length < 2 || s[1] !== ':') throw new FieldPathError(`invalid path element ${JSON.stringify(s)}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return field(body);
    case 'v':
      return valueOf(parseJson(body, s));
    case 'k': {
      const obj = parseJson(body, s);
      if (!isObject(obj)) throw new FieldPathError(`invalid key element ${JSON.stringify(s)}`);
      return key(obj as Record<string, JsonValue>);
    }
    case 'i': {
      if (!/^-?\d+$/.test(body)) throw new FieldPathError(`invalid index element ${JSON.stringify(s)}`);
      return index(Number(body));
    }
    default:
      return undefined;
  }
}

function parseJson(text: string, whole: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new FieldPathError(`invalid path element ${JSON.stringify(whole)}`);
  }
}

/** Go's %q quoting, as used in conflict paths (`[name="nginx"]`). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

/** structured-merge-diff's value.ToString. */
export function valueToString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(valueToString).join(', ') + ']';
  return '{' + Object.keys(v).sort(compareStrings).map((k) => `${k}=${valueToString(v[k]!)}`).join(', ') + '}';
}

/** A path as Kubernetes prints it in conflicts: `.spec.containers[name="nginx"].image`. */
export function pathToString(path: Path): string {
  return path
    .map((pe) => {
      switch (pe.kind) {
        case 'field':
          return '.' + pe.name;
        case 'key':
          return '[' + pe.fields.map((f) => `${f.name}=${valueToString(f.value)}`).join(',') + ']';
        case 'value':
          return `[=${valueToString(pe.value)}]`;
        case 'index':
          return `[${pe.index}]`;
      }
    })
    .join('');
}

// ---------------------------------------------------------------------------
// FieldSet: an immutable-by-convention trie. Builders mutate with insert();
// the algebra returns new sets and never shares mutable state with inputs.

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  private readonly members = new Map<string, PathElement>();
  private readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (an empty path is ignored, as in structured-merge-diff). */
  insert(path: Path): this {
    if (path.length === 0) return this;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i]!);
    const last = path[path.length - 1]!;
    node.members.set(serializeElement(last), last);
    return this;
  }

  private descend(pe: PathElement): FieldSet {
    const k = serializeElement(pe);
    let c = this.children.get(k);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(k, c);
    }
    return c.set;
  }

  empty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.children.get(serializeElement(path[i]!))?.set;
    return node !== undefined && node.members.has(serializeElement(path[path.length - 1]!));
  }

  /** Whether pe is a member at this level. */
  hasMember(pe: PathElement): boolean {
    return this.members.has(serializeElement(pe));
  }

  /** The subtree under pe (empty when there is none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(serializeElement(pe))?.set ?? EMPTY;
  }

  /** Members at this level, in order. */
  memberElements(): PathElement[] {
    return [...this.members.values()].sort(compareElements);
  }

  /** Children at this level, in order. */
  childEntries(): { pe: PathElement; set: FieldSet }[] {
    return [...this.children.values()].sort((a, b) => compareElements(a.pe, b.pe));
  }

  /** Every member path, depth first, in order. */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (s: FieldSet, prefix: PathElement[]): void => {
      for (const pe of s.memberElements()) out.push([...prefix, pe]);
      for (const c of s.childEntries()) walk(c.set, [...prefix, c.pe]);
    };
    walk(this, []);
    // Sort so that a node comes before its descendants and siblings keep element order.
    return out.sort(comparePaths);
  }

  size(): number {
    let n = this.members.size;
    for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  copy(): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.members.set(k, pe);
    for (const [k, c] of this.children) out.children.set(k, { pe: c.pe, set: c.set.copy() });
    return out;
  }

  union(other: FieldSet): FieldSet {
    const out = this.copy();
    for (const [k, pe] of other.members) out.members.set(k, pe);
    for (const [k, c] of other.children) {
      const mine = out.children.get(k);
      out.children.set(k, { pe: c.pe, set: mine ? mine.set.union(c.set) : c.set.copy() });
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (!o) continue;
      const i = c.set.intersection(o.set);
      if (!i.empty()) out.children.set(k, { pe: c.pe, set: i });
    }
    return out;
  }

  /** Members of this set that are not members of other (children are compared node by node). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      const d = o ? c.set.difference(o.set) : c.set.copy();
      if (!d.empty()) out.children.set(k, { pe: c.pe, set: d });
    }
    return out;
  }

  /** Like difference, but a member of other also removes everything beneath it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      if (other.members.has(k)) continue;
      const o = other.children.get(k);
      const d = o ? c.set.recursiveDifference(o.set) : c.set.copy();
      if (!d.empty()) out.children.set(k, { pe: c.pe, set: d });
    }
    return out;
  }

  /** Only the members that have no children (the leaves of the trie). */
  leaves(): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!this.children.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const l = c.set.leaves();
      if (!l.empty()) out.children.set(k, { pe: c.pe, set: l });
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    if (this.members.size !== other.members.size || this.children.size !== other.children.size) return false;
    for (const k of this.members.keys()) if (!other.members.has(k)) return false;
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (!o || !c.set.equals(o.set)) return false;
    }
    return true;
  }

  /** Internal: set a child subtree (used by decoders and schema-aware helpers). */
  setChild(pe: PathElement, set: FieldSet): void {
    if (set.empty()) this.children.delete(serializeElement(pe));
    else this.children.set(serializeElement(pe), { pe, set });
  }

  /** Internal: add a member at this level. */
  addMember(pe: PathElement): void {
    this.members.set(serializeElement(pe), pe);
  }

  toString(): string {
    return this.paths().map(pathToString).join('\n');
  }
}

const EMPTY = new FieldSet();

export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareElements(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
}

// ---------------------------------------------------------------------------
// FieldsV1.

export type FieldsV1 = { [key: string]: FieldsV1 };

/** Encodes a set as Kubernetes' FieldsV1 object (key order is significant). */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const members = set.memberElements();
  const children = set.childEntries();
  if (includeSelf && (members.length > 0 || children.length > 0)) out['.'] = {};
  let mi = 0;
  let ci = 0;
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    const cmp = m === undefined ? 1 : c === undefined ? -1 : compareElements(m, c.pe);
    if (cmp < 0) {
      out[serializeElement(m!)] = {};
      mi++;
    } else if (cmp > 0) {
      out[serializeElement(c!.pe)] = emit(c!.set, false);
      ci++;
    } else {
      out[serializeElement(c!.pe)] = emit(c!.set, true);
      mi++;
      ci++;
    }
  }
  return out;
}

/** Decodes a FieldsV1 object; throws FieldPathError on malformed keys. */
export function fromFieldsV1(v: unknown): FieldSet {
  if (v === undefined || v === null) return new FieldSet();
  if (!isObject(v)) throw new FieldPathError('FieldsV1 must be a JSON object');
  return read(v).children ?? new FieldSet();
}

function read(obj: { [k: string]: unknown }): { children?: FieldSet; isMember: boolean } {
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [k, sub] of Object.entries(obj)) {
    if (k === '.') {
      isMember = true;
      continue;
    }
    const pe = parseElement(k);
    if (pe === undefined) continue;
    if (!isObject(sub)) throw new FieldPathError(`FieldsV1 value at ${JSON.stringify(k)} must be an object`);
    const r = read(sub);
    children ??= new FieldSet();
    if (r.isMember) children.addMember(pe);
    if (r.children) children.setChild(pe, r.children);
  }
  if (children === undefined) isMember = true;
  return children === undefined ? { isMember } : { children, isMember };
}
