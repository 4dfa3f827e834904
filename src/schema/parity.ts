// Parity: compares one of our schemas with a component of an official
// OpenAPI v3 document (or v2, via `definitions`) and lists the differences a
// client or server-side apply could notice: fields missing or extra, type,
// format, required, enum, list type, list-map keys, map type, patch strategy
// and merge key, map-vs-object shape. References (`$ref`, or `allOf: [{$ref}]`
// with the use's own description) are followed one level at each step, so
// the walk descends through every referenced type both sides share.
// Paths: `a.b` for fields, `a[]` for list items, `a{}` for map values.
import type { JsonValue, Schema } from './model.js';

export type DifferenceKind =
  | 'missing' | 'extra' | 'type' | 'format' | 'required' | 'enum' | 'additionalProperties'
  | 'listType' | 'listMapKeys' | 'mapType' | 'patchStrategy' | 'patchMergeKey';

export interface Difference {
  path: string;
  kind: DifferenceKind;
  ours?: JsonValue;
  reference?: JsonValue;
}

/** The parts of an OpenAPI document parity reads. */
export interface OpenAPIDocument {
  components?: { schemas?: { [name: string]: RefSchema } };
  definitions?: { [name: string]: RefSchema };
}

/** An official schema object, loosely typed. */
export type RefSchema = { [key: string]: unknown };

/** Differences between `ours` and the component `name` of `doc`; empty when they agree. */
export function compareWithReference(ours: Schema, doc: OpenAPIDocument, name: string): Difference[] {
  const table = doc.components?.schemas ?? doc.definitions ?? {};
  const root = table[name];
  if (root === undefined) throw new Error(`parity: the reference has no component ${name}`);
  const out: Difference[] = [];
  compare(ours, root, '', table, out);
  return out;
}

export function formatDifference(d: Difference): string {
  const show = (v: JsonValue | undefined) => (v === undefined ? 'none' : JSON.stringify(v));
  return `${d.path || '(root)'}: ${d.kind}: ours ${show(d.ours)}, reference ${show(d.reference)}`;
}

/** Follows `$ref` or a single-entry `allOf: [{$ref}]`; the use's own keys (description, default) win. */
function resolve(r: RefSchema, table: { [name: string]: RefSchema }): RefSchema {
  const refOf = (x: unknown) => (typeof x === 'object' && x !== null && typeof (x as RefSchema).$ref === 'string' ? ((x as RefSchema).$ref as string) : undefined);
  const ref = refOf(r) ?? (Array.isArray(r.allOf) && r.allOf.length === 1 ? refOf(r.allOf[0]) : undefined);
  if (ref === undefined) return r;
  const target = table[ref.slice(ref.lastIndexOf('/') + 1)];
  if (target === undefined) throw new Error(`parity: unresolved reference ${ref}`);
  const { $ref: _r, allOf: _a, ...own } = r;
  return { ...target, ...own };
}

function referenceKind(r: RefSchema): string | undefined {
  if (typeof r.type === 'string') return r.type;
  if (r['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  const alts = (r.oneOf ?? r.anyOf) as RefSchema[] | undefined;
  if (Array.isArray(alts)) {
    const types = new Set(alts.map((a) => a.type));
    if (types.has('string') && (types.has('integer') || types.has('number'))) return 'int-or-string';
  }
  return undefined;
}

const ourKind = (s: Schema) => (s['x-kubernetes-int-or-string'] ? 'int-or-string' : s.type);
const sorted = (v: unknown) => (Array.isArray(v) ? [...v].map((x) => JSON.stringify(x)).sort() : undefined);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const MARKERS: [DifferenceKind, keyof Schema][] = [
  ['listType', 'x-kubernetes-list-type'],
  ['listMapKeys', 'x-kubernetes-list-map-keys'],
  ['mapType', 'x-kubernetes-map-type'],
  ['patchStrategy', 'x-kubernetes-patch-strategy'],
  ['patchMergeKey', 'x-kubernetes-patch-merge-key'],
];

function compare(ours: Schema, ref: RefSchema, path: string, table: { [name: string]: RefSchema }, out: Difference[]): void {
  const r = resolve(ref, table);
  const diff = (kind: DifferenceKind, a: unknown, b: unknown) => out.push({ path, kind, ...(a === undefined ? {} : { ours: a as JsonValue }), ...(b === undefined ? {} : { reference: b as JsonValue }) });
  const kind = ourKind(ours);
  const refKind = referenceKind(r);
  if (kind !== refKind) diff('type', kind, refKind);
  if (kind !== 'int-or-string' && refKind !== 'int-or-string' && ours.format !== r.format) diff('format', ours.format, r.format);
  if (!same(sorted(ours.required ?? []), sorted(r.required ?? []))) diff('required', ours.required, r.required);
  if (!same(sorted(ours.enum), sorted(r.enum))) diff('enum', ours.enum, r.enum);
  for (const [k, key] of MARKERS) if (!same(ours[key], r[key])) diff(k, ours[key], r[key]);

  const ourProps = ours.properties ?? {};
  const refProps = (r.properties ?? {}) as { [k: string]: RefSchema };
  const child = (k: string) => (path ? `${path}.${k}` : k);
  for (const k of Object.keys(refProps)) if (!(k in ourProps)) out.push({ path: child(k), kind: 'missing' });
  for (const [k, p] of Object.entries(ourProps)) {
    if (k in refProps) compare(p, refProps[k]!, child(k), table, out);
    else out.push({ path: child(k), kind: 'extra' });
  }
  if (ours.items !== undefined && typeof r.items === 'object' && r.items !== null) compare(ours.items, r.items as RefSchema, `${path}[]`, table, out);
  const ourMap = typeof ours.additionalProperties === 'object';
  const refMap = typeof r.additionalProperties === 'object' && r.additionalProperties !== null;
  if (ourMap && refMap) compare(ours.additionalProperties as Schema, r.additionalProperties as RefSchema, `${path}{}`, table, out);
  else if (ourMap !== refMap) diff('additionalProperties', ourMap ? 'schema' : ours.additionalProperties, refMap ? 'schema' : r.additionalProperties);
}
