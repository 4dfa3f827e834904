// PatchMeta: the narrow view of a schema that strategic merge patch needs (what
// apimachinery's LookupPatchMeta gives it), and metaFromOpenAPI, the adapter from an
// OpenAPI v3 schema carrying Kubernetes' markers:
//
//   x-kubernetes-patch-strategy   "merge" | "replace" | "retainKeys" | "merge,retainKeys"
//   x-kubernetes-patch-merge-key  the key that identifies list items when merging
//
// Strategic merge patch reads only these two markers. x-kubernetes-list-type and
// x-kubernetes-list-map-keys belong to server-side apply; Kubernetes' SMP ignores them
// (a Service's ports merge by "port" although their map keys are port+protocol).
// `listMapAsMerge` opts in to reading a single-key list-type=map as merge-by-key for
// schemas that carry no patch markers; it is off by default.
//
// A node describes a value where it sits: the strategy and merge key are the ones
// declared on the field (in Go, on the struct tag of the field that holds the value).
// Nodes are built lazily, so recursive schemas (JSONSchemaProps) are fine.
import { PatchError } from './errors.js';

export type PatchKind = 'object' | 'map' | 'list' | 'primitive' | 'unknown';

export interface PatchStrategy {
  /** Lists: merge items (by mergeKey for maps, as a set for primitives) instead of replacing. */
  readonly merge: boolean;
  /** Maps: used by patch generation to emit $retainKeys; applying a patch honours only the directive. */
  readonly retainKeys: boolean;
  /** Maps: take the patch value whole instead of merging. */
  readonly replace: boolean;
}

export interface PatchMeta {
  readonly kind: PatchKind;
  readonly strategy: PatchStrategy;
  readonly mergeKey?: string;
  /** Objects: the named property (falling back to additionalProperties); maps: the value schema. */
  field(name: string): PatchMeta | undefined;
  /** Lists: the item schema. */
  items(): PatchMeta | undefined;
}

export const NO_STRATEGY: PatchStrategy = Object.freeze({ merge: false, retainKeys: false, replace: false });

/** extractRetainKeysPatchStrategy: at most two strategies, and a pair must include retainKeys. */
export function parsePatchStrategy(marker: string | undefined): PatchStrategy {
  if (!marker) return NO_STRATEGY;
  const parts = marker.split(',');
  const unexpected = (): never => {
    throw new PatchError('internal', `unexpected patch strategy: [${parts.join(' ')}]`);
  };
  if (parts.length > 2) unexpected();
  if (parts.length === 2 && !parts.includes('retainKeys')) unexpected();
  const retainKeys = parts.includes('retainKeys');
  const other = parts.length === 2 ? (parts[0] === 'retainKeys' ? parts[1] : parts[0]) : parts[0];
  return { merge: other === 'merge', replace: other === 'replace', retainKeys };
}

/** The OpenAPI v3 schema subset this adapter reads. */
export interface OpenAPISchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, OpenAPISchema>>;
  readonly additionalProperties?: boolean | OpenAPISchema;
  readonly items?: OpenAPISchema;
  readonly $ref?: string;
  readonly allOf?: readonly OpenAPISchema[];
  readonly 'x-kubernetes-patch-strategy'?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-list-type'?: string;
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
}

export interface OpenAPIMetaOptions {
  /** Resolves a "$ref" (e.g. "#/components/schemas/io.k8s.api.core.v1.Container"). */
  readonly resolve?: (ref: string) => OpenAPISchema | undefined;
  readonly listMapAsMerge?: boolean;
}

/** A PatchMeta for the value described by `schema` (the top-level object of a kind, usually). */
export function metaFromOpenAPI(schema: OpenAPISchema, options: OpenAPIMetaOptions = {}): PatchMeta {
  return new OpenAPIMeta(schema, options);
}

/** $ref and allOf folded into one schema; the markers nearest the use win. */
function flatten(schema: OpenAPISchema, options: OpenAPIMetaOptions, seen: Set<string> = new Set()): OpenAPISchema {
  let base: OpenAPISchema = {};
  const parts: OpenAPISchema[] = [];
  if (schema.$ref && !seen.has(schema.$ref)) {
    const target = options.resolve?.(schema.$ref);
    if (target) parts.push(flatten(target, options, new Set(seen).add(schema.$ref)));
  }
  for (const s of schema.allOf ?? []) parts.push(flatten(s, options, seen));
  for (const p of parts) base = { ...base, ...p };
  const { $ref: _ref, allOf: _allOf, ...own } = schema;
  return { ...base, ...own };
}

class OpenAPIMeta implements PatchMeta {
  readonly kind: PatchKind;
  readonly strategy: PatchStrategy;
  readonly mergeKey?: string;
  private readonly schema: OpenAPISchema;
  private readonly fields = new Map<string, PatchMeta | undefined>();

  constructor(raw: OpenAPISchema, private readonly options: OpenAPIMetaOptions) {
    const s = (this.schema = flatten(raw, options));
    this.kind = kindOf(s);
    let strategy = parsePatchStrategy(s['x-kubernetes-patch-strategy']);
    let mergeKey = s['x-kubernetes-patch-merge-key'];
    const mapKeys = s['x-kubernetes-list-map-keys'];
    if (options.listMapAsMerge && !s['x-kubernetes-patch-strategy'] && s['x-kubernetes-list-type'] === 'map' && mapKeys?.length === 1) {
      strategy = { ...strategy, merge: true };
      mergeKey = mapKeys[0];
    }
    this.strategy = strategy;
    if (mergeKey) this.mergeKey = mergeKey;
  }

  field(name: string): PatchMeta | undefined {
    if (this.fields.has(name)) return this.fields.get(name);
    const { properties, additionalProperties } = this.schema;
    const sub = properties && Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : typeof additionalProperties === 'object' ? additionalProperties : undefined;
    const meta = sub ? new OpenAPIMeta(sub, this.options) : undefined;
    this.fields.set(name, meta);
    return meta;
  }

  items(): PatchMeta | undefined {
    return this.schema.items ? new OpenAPIMeta(this.schema.items, this.options) : undefined;
  }
}

function kindOf(s: OpenAPISchema): PatchKind {
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (s['x-kubernetes-int-or-string']) return 'primitive';
  if (type === 'array' || s.items) return 'list';
  if (s.properties) return 'object';
  if (typeof s.additionalProperties === 'object') return 'map';
  if (type === 'object') return s['x-kubernetes-preserve-unknown-fields'] || s.additionalProperties === true ? 'unknown' : 'object';
  if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean') return 'primitive';
  return 'unknown';
}
