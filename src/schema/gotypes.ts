// Typed decoding of built-in kinds as Kubernetes does it: the body is read
// into Go structs, so a value of the wrong JSON type fails the whole request
// (400) with Go's encoding/json wording, e.g.
//   json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string
// The struct named is the innermost one holding the field; the field path is
// the JSON names from the root without list indexes or map keys; the first
// error in document order wins. Quantities and times fail with their
// parsers' texts.
//
// The same walk finds the unknown fields (unknown.ts states the rules; the
// typed walk follows them) so a write body is walked once for both: a body
// that decodes then has them removed (the typed structs have no place for
// them). The walk runs on compiled schema nodes (node.ts) and builds a path
// only for an error or an unknown field.
import { Check, nodeOf, objectMetaNode, type SchemaNode } from './node.js';
import { isObject, type Schema } from './model.js';

const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The Go type a schema decodes into, as reflect prints it (`v1.PodSpec`, `[]v1.Container`, `map[string]string`). */
export function goTypeName(s: Schema): string {
  if (s.id) {
    const parts = s.id.split('.');
    return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  if (s['x-kubernetes-int-or-string']) return 'intstr.IntOrString';
  switch (s.type) {
    case 'string': return s.format === 'byte' ? '[]uint8' : 'string';
    case 'integer': return s.format === 'int32' ? 'int32' : 'int64';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    case 'array': return `[]${s.items ? goTypeName(s.items) : 'interface {}'}`;
    case 'object':
      if (isObject(s.additionalProperties)) return `map[string]${goTypeName(s.additionalProperties as Schema)}`;
      return 'map[string]interface {}';
    default: return 'interface {}';
  }
}

/** The word Go uses for a JSON value's type in "cannot unmarshal X into …". */
export function goJsonKind(v: unknown): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

function inRange(n: number, int32: boolean): boolean {
  return int32 ? n >= -2147483648 && n <= 2147483647 : Number.isSafeInteger(n) || Math.abs(n) < 9.3e18;
}

const B64 = /[A-Za-z0-9+/]/;

/** Go's base64.StdEncoding: the first byte it cannot take, as "illegal base64 data at input byte N". */
export function base64Error(text: string): string | undefined {
  let n = 0; // data characters seen (newlines are skipped)
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n' || ch === '\r') continue;
    if (ch === '=') {
      const pad = 4 - (n % 4);
      if (n % 4 < 2 || pad > 2) return `illegal base64 data at input byte ${i}`;
      const rest = text.slice(i).replace(/[\r\n]/g, '');
      if (rest !== '='.repeat(pad)) return `illegal base64 data at input byte ${i + Math.min(rest.length, pad)}`;
      return undefined;
    }
    if (!B64.test(ch)) return `illegal base64 data at input byte ${i}`;
    n++;
  }
  return n % 4 === 0 ? undefined : `illegal base64 data at input byte ${text.length - (n % 4 === 1 ? 1 : 0)}`;
}

const CHECK = 1; // Go's type check applies here
const UNKNOWN = 2; // unknown fields are looked for here

/** Where the walk is: one frame per step down. */
class Walk {
  /** A key or a list index per frame. */
  readonly segs: (string | number)[] = [];
  /** The object a key was looked up in (undefined for list items). */
  readonly owners: (SchemaNode | undefined)[] = [];
  /** The key is a map key, which Go's error path leaves out. */
  readonly mapKeys: boolean[] = [];
  readonly unknownIn: Record<string, unknown>[] = [];
  readonly unknownKeys: string[] = [];
  readonly unknownPaths: string[] = [];
  constructor(readonly kind: string) {}

  push(seg: string | number, owner: SchemaNode | undefined, mapKey: boolean): void {
    this.segs.push(seg);
    this.owners.push(owner);
    this.mapKeys.push(mapKey);
  }
  pop(): void {
    this.segs.pop();
    this.owners.pop();
    this.mapKeys.pop();
  }
  /** The field path of unknown-field messages (`spec.containers[0].bogus`). */
  path(): string {
    let out = '';
    for (const p of this.segs) out = typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p;
    return out;
  }
  typeError(n: SchemaNode, v: unknown, detail: string = goJsonKind(v)): string {
    const names: string[] = [];
    let struct: string | undefined;
    for (let i = this.segs.length - 1; i >= 0; i--) {
      const seg = this.segs[i]!;
      if (typeof seg === 'string' && !this.mapKeys[i]) names.push(seg);
      struct ??= this.owners[i]?.struct;
    }
    const where = names.length === 0 ? 'Go value' : `Go struct field ${struct ?? this.kind}.${names.reverse().join('.')}`;
    return `json: cannot unmarshal ${detail} into ${where} of type ${goTypeName(n.schema)}`;
  }
}

/** Checks `v` against `n` (mode: CHECK and/or UNKNOWN); returns the first type error. */
function visit(w: Walk, n: SchemaNode, v: unknown, mode: number): string | undefined {
  if (v === null || v === undefined) return undefined; // null leaves the zero value
  if ((mode & CHECK) !== 0) {
    switch (n.check) {
      case Check.None:
        mode &= ~CHECK;
        break;
      case Check.Quantity:
        if (typeof v === 'number') return undefined;
        if (typeof v !== 'string') return w.typeError(n, v);
        return QUANTITY.test(v.trim()) ? undefined : QUANTITY_ERROR;
      case Check.IntOrString:
        if (typeof v === 'string') return undefined;
        if (typeof v === 'number') return Number.isInteger(v) && inRange(v, true) ? undefined : `json: cannot unmarshal number ${v} into Go value of type int32`;
        return `json: cannot unmarshal ${goJsonKind(v)} into Go value of type int32`;
      case Check.Time:
        if (typeof v !== 'string') return w.typeError(n, v);
        return RFC3339.test(v) ? undefined : `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`;
      case Check.String:
        return typeof v === 'string' ? undefined : w.typeError(n, v);
      case Check.Bytes:
        return typeof v === 'string' ? base64Error(v) : w.typeError(n, v);
      case Check.Boolean:
        return typeof v === 'boolean' ? undefined : w.typeError(n, v);
      case Check.Integer:
        if (typeof v !== 'number') return w.typeError(n, v);
        return Number.isInteger(v) && inRange(v, n.int32) ? undefined : w.typeError(n, v, `number ${v}`);
      case Check.Number:
        return typeof v === 'number' ? undefined : w.typeError(n, v);
      case Check.Array:
        if (!Array.isArray(v)) return w.typeError(n, v);
        break;
      case Check.Object:
        if (!isObject(v)) return w.typeError(n, v);
        break;
    }
  }
  if (typeof v !== 'object') return undefined;
  if (Array.isArray(v)) {
    const items = n.items;
    if (!n.walkArray) mode &= ~UNKNOWN;
    if (items === undefined || mode === 0) return undefined;
    for (let i = 0; i < v.length; i++) {
      w.push(i, undefined, false);
      const e = visit(w, items, v[i], mode);
      w.pop();
      if (e !== undefined) return e;
    }
    return undefined;
  }
  if (!n.walkObject) mode &= ~UNKNOWN;
  if (mode === 0) return undefined;
  const o = v as Record<string, unknown>;
  const props = n.props;
  const extra = n.extra;
  for (const k in o) {
    const sub = props?.get(k);
    let e: string | undefined;
    if (sub !== undefined) {
      w.push(k, n, false);
      e = visit(w, sub, o[k], mode);
      w.pop();
    } else if (n.embedded && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) {
      // Known to the unknown-field rules (metadata as ObjectMeta); Go's decoder only knows the properties.
      if ((mode & CHECK) !== 0 && extra !== undefined) {
        w.push(k, n, true);
        e = visit(w, extra, o[k], CHECK);
        w.pop();
      }
      if (e === undefined && k === 'metadata' && (mode & UNKNOWN) !== 0) {
        w.push(k, n, false);
        visit(w, objectMetaNode(), o[k], UNKNOWN);
        w.pop();
      }
    } else if (extra !== undefined) {
      w.push(k, n, true); // Go names a map by its field, not by the key
      e = visit(w, extra, o[k], mode);
      w.pop();
    } else if ((mode & UNKNOWN) !== 0 && !n.keep) {
      w.push(k, n, false);
      w.unknownPaths.push(w.path());
      w.pop();
      w.unknownIn.push(o);
      w.unknownKeys.push(k);
    }
    if (e !== undefined) return e;
  }
  return undefined;
}

/** A scalar (string, number or boolean) passes n's type check. */
function scalarOk(n: SchemaNode, v: unknown): boolean {
  switch (n.check) {
    case Check.None:
      return true;
    case Check.Quantity:
      return typeof v === 'number' || (typeof v === 'string' && QUANTITY.test(v.trim()));
    case Check.IntOrString:
      return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v) && inRange(v, true));
    case Check.Time:
      return typeof v === 'string' && RFC3339.test(v);
    case Check.String:
      return typeof v === 'string';
    case Check.Bytes:
      return typeof v === 'string' && base64Error(v) === undefined;
    case Check.Boolean:
      return typeof v === 'boolean';
    case Check.Integer:
      return typeof v === 'number' && Number.isInteger(v) && inRange(v, n.int32);
    case Check.Number:
      return typeof v === 'number';
    default:
      return false;
  }
}

/** clean() for a value of any type (scalars are checked without a call of clean). */
function cleanValue(n: SchemaNode, v: unknown, mode: number): boolean {
  if (typeof v === 'object') return v === null || clean(n, v, mode);
  return v === undefined || (mode & CHECK) === 0 || scalarOk(n, v);
}

/**
 * The fast pass: true when the object or array `v` has no type error and no
 * unknown field (the common case), found without tracking where the walk is.
 * Anything else is walked again by `visit`, which says what and where.
 */
function clean(n: SchemaNode, v: object, mode: number): boolean {
  if ((mode & CHECK) !== 0) {
    const check = n.check;
    if (check === Check.None) mode &= ~CHECK;
    else if (check === Check.Array ? !Array.isArray(v) : check !== Check.Object || Array.isArray(v)) return false;
  }
  if (Array.isArray(v)) {
    const items = n.items;
    if (!n.walkArray) mode &= ~UNKNOWN;
    if (items === undefined || mode === 0) return true;
    for (let i = 0; i < v.length; i++) if (!cleanValue(items, v[i], mode)) return false;
    return true;
  }
  if (!n.walkObject) mode &= ~UNKNOWN;
  if (mode === 0) return true;
  const o = v as Record<string, unknown>;
  const props = n.props;
  const extra = n.extra;
  for (const k in o) {
    const sub = props?.get(k);
    if (sub !== undefined) {
      if (!cleanValue(sub, o[k], mode)) return false;
    } else if (n.embedded && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) {
      if ((mode & CHECK) !== 0 && extra !== undefined && !cleanValue(extra, o[k], CHECK)) return false;
      if (k === 'metadata' && (mode & UNKNOWN) !== 0 && !cleanValue(objectMetaNode(), o[k], UNKNOWN)) return false;
    } else if (extra !== undefined) {
      if (!cleanValue(extra, o[k], mode)) return false;
    } else if ((mode & UNKNOWN) !== 0 && !n.keep) return false;
  }
  return true;
}

/**
 * The error Go's decoder gives for the first value of the wrong type, or
 * undefined when the body decodes. `kind` names the top-level struct.
 */
export function goDecodeError(s: Schema, value: unknown, kind: string): string | undefined {
  const n = nodeOf(s);
  return cleanValue(n, value, CHECK) ? undefined : visit(new Walk(kind), n, value, CHECK);
}

/** What typed decoding found: the type error, or the unknown fields removed. */
export type TypedCheck = { typeError: string; unknown?: undefined } | { typeError?: undefined; unknown: string[] };

/**
 * Typed decoding in one walk: the first type error (goDecodeError's), or —
 * when the body decodes — its unknown fields (unknownFields' paths, in
 * document order), which are then deleted from `value` in place (prune's
 * effect). A body with a type error is left as it was.
 */
export function checkAndPrune(s: Schema, value: unknown, kind: string): TypedCheck {
  const n = nodeOf(s);
  if (cleanValue(n, value, CHECK | UNKNOWN)) return { unknown: [] };
  const w = new Walk(kind);
  const typeError = visit(w, n, value, CHECK | UNKNOWN);
  if (typeError !== undefined) return { typeError };
  for (let i = 0; i < w.unknownIn.length; i++) delete w.unknownIn[i]![w.unknownKeys[i]!];
  return { unknown: w.unknownPaths };
}
