// A Schema as an OpenAPI v3 schema object, for the published documents
// (/openapi/v3, kubectl explain). Our own slots (`id`, `proto`) are dropped;
// x-kubernetes-* markers are kept; int-or-string gets the anyOf CRDs publish.
// With `refs`, shared types (those with an id) become
// `allOf: [{$ref}]` plus the use's own description, the way Kubernetes
// publishes them; componentsOf() gives the matching component definitions.
import type { JsonValue, Schema } from './model.js';

export type OpenAPISchema = { [key: string]: JsonValue };

export interface OpenAPIOptions {
  /**
   * A list of canonical definitions: uses of those become $refs (with the use's description when it differs).
   * true: every shared type becomes a $ref, the first use found standing for the definition. Absent: all inline.
   */
  refs?: boolean | Iterable<Schema>;
  /** Default "#/components/schemas/". */
  refPrefix?: string;
}

/** The OpenAPI keywords a schema publishes as they are (our own slots, such as protobuf numbers, never are). */
export const PASS_THROUGH = [
  'type', 'format', 'enum', 'nullable', 'default', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minProperties', 'maxProperties',
  'x-kubernetes-embedded-resource', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type', 'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key',
] as const;

/** Every shared type under (and including) `schema`, by id; the first definition seen wins. */
export function collectComponents(schema: Schema, into = new Map<string, Schema>()): Map<string, Schema> {
  if (schema.id !== undefined) {
    if (into.has(schema.id)) return into;
    into.set(schema.id, schema);
  }
  for (const p of Object.values(schema.properties ?? {})) collectComponents(p, into);
  if (schema.items) collectComponents(schema.items, into);
  if (typeof schema.additionalProperties === 'object') collectComponents(schema.additionalProperties, into);
  return into;
}

export function toOpenAPI(schema: Schema, opts: OpenAPIOptions = {}): OpenAPISchema {
  const shared = opts.refs === true ? collectComponents(schema) : new Map<string, Schema>();
  if (opts.refs && opts.refs !== true) for (const s of opts.refs) if (s.id !== undefined) shared.set(s.id, s);
  return emit(schema, shared, opts.refPrefix ?? '#/components/schemas/', true);
}

/** The component definitions (each inline at its top, referring to others) of every shared type under `schema`. */
export function componentsOf(schema: Schema, refPrefix = '#/components/schemas/'): { [id: string]: OpenAPISchema } {
  const shared = collectComponents(schema);
  const out: { [id: string]: OpenAPISchema } = {};
  for (const [id, s] of shared) out[id] = emit(s, shared, refPrefix, true);
  return out;
}

function emit(s: Schema, shared: Map<string, Schema>, prefix: string, top: boolean): OpenAPISchema {
  const component = s.id !== undefined && !top ? shared.get(s.id) : undefined;
  if (component !== undefined) {
    const out: OpenAPISchema = { allOf: [{ $ref: prefix + s.id }] };
    if (s.description !== undefined && s.description !== component.description) out.description = s.description;
    if (s.default !== undefined) out.default = s.default;
    return out;
  }
  const out: OpenAPISchema = {};
  if (s.description !== undefined) out.description = s.description;
  for (const k of PASS_THROUGH) if (s[k] !== undefined) out[k] = s[k] as JsonValue;
  if (s['x-kubernetes-int-or-string']) {
    out['x-kubernetes-int-or-string'] = true;
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  if (s.properties !== undefined) {
    const props: { [k: string]: JsonValue } = {};
    for (const [k, p] of Object.entries(s.properties)) props[k] = emit(p, shared, prefix, false);
    out.properties = props;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'boolean' ? s.additionalProperties : emit(s.additionalProperties, shared, prefix, false);
  }
  if (s.items !== undefined) out.items = emit(s.items, shared, prefix, false);
  if (s.required !== undefined) out.required = [...s.required];
  return out;
}
