// Path elements (structured-merge-diff's `fieldpath.PathElement`): a struct or
// map field (`f:name`), a map-list item by its key fields
// (`k:{"name":"app"}`), a set item by value (`v:"x"`), or an atomic-list
// index (`i:0`); their order, their FieldsV1 spelling and the way Kubernetes
// prints paths in conflicts.
//
// Every element has one canonical spelling (`serializeElement`): key fields
// sorted by name, values in Go's JSON (HTML-escaped). FieldSet keys its trie
// by that spelling, so the engine computes it once per element and caches
// what it can: field elements and their spellings by name, parsed FieldsV1
// keys by their text (both caches are bounded).
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

/** A map whose entries are dropped all at once when it grows past `max` (names are client data). */
class BoundedCache<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(k: K, v: V): this {
    if (this.size >= this.max) this.clear();
    return super.set(k, v);
  }
}

const fieldElements = new BoundedCache<string, { pe: PathElement; key: string }>(50_000);

/** The (shared, immutable) element of a field and its spelling `f:name`. */
export function fieldEntry(name: string): { pe: PathElement; key: string } {
  let e = fieldElements.get(name);
  if (e === undefined) fieldElements.set(name, (e = { pe: { kind: 'field', name }, key: 'f:' + name }));
  return e;
}

export const field = (name: string): PathElement => fieldEntry(name).pe;
export const index = (i: number): PathElement => ({ kind: 'index', index: i });
export const valueOf = (v: JsonValue): PathElement => ({ kind: 'value', value: v });
/** A key element; its fields are sorted by name, as Kubernetes keeps them. */
export function key(fields: Record<string, JsonValue> | readonly KeyField[]): PathElement {
  const list = Array.isArray(fields) ? [...(fields as readonly KeyField[])] : Object.entries(fields).map(([name, value]) => ({ name, value }));
  if (list.length > 1) list.sort((a, b) => compareStrings(a.name, b.name));
  return { kind: 'key', fields: list };
}

// ---------------------------------------------------------------------------
// Ordering (Go's strings.Compare is byte order of UTF-8 = code point order).

export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Below the surrogates UTF-16 order is code point order; above, a surrogate pair sorts after U+E000–U+FFFF.
    if ((ca < 0xd800 && cb < 0xd800) || (ca >= 0xe000 && cb >= 0xe000)) return ca < cb ? -1 : 1;
    return compareCodePoints(a, b);
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** compareStrings by code points (the general case, for strings with surrogates). */
function compareCodePoints(a: string, b: string): number {
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
      return la.length < lb.length ? -1 : la.length > lb.length ? 1 : 0;
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

/** Characters Go's encoding/json writes as they are (no quote, backslash, control, HTML or surrogate characters, no U+2028/9). */
const PLAIN = /^[^"\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]*$/;

/** A JSON string as Go's encoding/json writes it (HTML characters and U+2028/9 escaped). */
export function goJsonString(s: string): string {
  if (PLAIN.test(s)) return '"' + s + '"';
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

/** The spelling of a key element's fields (already sorted by name): `k:{"name":"app"}`. */
export function keySpelling(fields: readonly KeyField[]): string {
  if (fields.length === 1) return 'k:{' + goJsonString(fields[0]!.name) + ':' + goJson(fields[0]!.value) + '}';
  let out = 'k:{';
  for (let i = 0; i < fields.length; i++) out += (i > 0 ? ',' : '') + goJsonString(fields[i]!.name) + ':' + goJson(fields[i]!.value);
  return out + '}';
}

/** The FieldsV1 key of an element: `f:name`, `k:{...}`, `v:<json>`, `i:<n>`. */
export function serializeElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return 'f:' + pe.name;
    case 'key':
      return keySpelling(pe.fields);
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

export interface ParsedKey {
  readonly pe: PathElement;
  /** The canonical spelling (a client may send key fields in another order). */
  readonly key: string;
}

const parsedKeys = new BoundedCache<string, ParsedKey | null>(50_000);

/** parseElement with its canonical spelling, cached by text; null for unknown prefixes; throws FieldPathError. */
export function parseKey(s: string): ParsedKey | null {
  if (s.charCodeAt(0) === 0x66 && s.charCodeAt(1) === 0x3a) return fieldEntry(s.slice(2)); // "f:"
  let p = parsedKeys.get(s);
  if (p === undefined) {
    const pe = parseElement(s);
    parsedKeys.set(s, (p = pe === undefined ? null : { pe, key: serializeElement(pe) }));
  }
  return p;
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

export function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareElements(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
}
