// The schema a custom resource is checked, pruned and defaulted with at
// request time (kube's Structural, built by NewStructural from a version's
// openAPIV3Schema), as our engine's Schema (src/schema/model.ts):
// - the logical junctors (allOf/anyOf/oneOf/not) are folded out: in a
//   structural schema they only carry value validations, never a type or a
//   field, so pruning and defaulting never look at them; junctors.ts checks
//   them at request time (`junctorValidator`);
// - keywords our Schema has no slot for (title, example, externalDocs,
//   multipleOf, uniqueItems, x-kubernetes-validations) are left out; CEL rules
//   are read from the JSONSchemaProps by the CEL code;
// - `additionalProperties: true` becomes an empty schema: kube keeps any map
//   key but prunes the fields of object values (it has no schema for them);
// - the resource root and every x-kubernetes-embedded-resource object know
//   apiVersion and kind (strings) and metadata (ObjectMeta, with the CRD's own
//   restrictions of name and generateName kept), so pruning keeps them and
//   drops unknown fields inside metadata as kube's ObjectMeta decoding does.
// Call it once per CRD version; the result is a fresh tree, shared read-only.
import { ObjectMeta } from '../../schema/common.js';
import type { Schema } from '../../schema/model.js';
import type { JSONSchemaProps } from '../types.js';

/**
 * How resources' apiVersion/kind/metadata are typed: `resource` as the request path knows them
 * (ObjectMeta); `plain` as the CRD writes them (kube's ToKubeOpenAPI, used to validate defaults);
 * `opaque` kept whole (kube's pruning skips them: used to check that defaults are pruned).
 */
export type MetaMode = 'resource' | 'plain' | 'opaque';

/** The runtime structural schema of a CRD version's openAPIV3Schema (the resource root). */
export function toStructural(schema: JSONSchemaProps | undefined, mode: MetaMode = 'resource'): Schema {
  const root = convert(schema ?? {}, mode);
  return resourceMeta(root, mode);
}

/** The structural schema of any node (not a resource root: apiVersion/kind/metadata are only added for embedded resources). */
export function toStructuralNode(schema: JSONSchemaProps, mode: MetaMode = 'resource', opts: { patterns?: boolean } = {}): Schema {
  return convert(schema, mode, opts.patterns === false);
}

function resourceMeta(s: Schema, mode: MetaMode): Schema {
  if (mode === 'plain') return s;
  if (mode === 'resource') return withTypeAndObjectMeta(s);
  const props = s.properties ?? {};
  return { ...s, properties: { ...props, apiVersion: {}, kind: {}, metadata: { 'x-kubernetes-preserve-unknown-fields': true } } };
}

const COPIED = [
  'type', 'description', 'required', 'enum', 'format', 'nullable', 'default',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'minProperties', 'maxProperties', 'pattern',
  'x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
] as const satisfies readonly (keyof Schema & keyof JSONSchemaProps)[];

function convert(s: JSONSchemaProps, mode: MetaMode, noPatterns = false): Schema {
  const out: Schema = {};
  const o = out as Record<string, unknown>;
  for (const k of COPIED) {
    const v = s[k];
    if (v !== undefined && v !== null && !(k === 'x-kubernetes-preserve-unknown-fields' && v === false) && !(noPatterns && k === 'pattern')) o[k] = v;
  }
  if (s.properties !== undefined && s.properties !== null) {
    const props: { [name: string]: Schema } = {};
    for (const [k, p] of Object.entries(s.properties)) props[k] = convert(p, mode, noPatterns);
    out.properties = props;
  }
  const ap = s.additionalProperties;
  // kube keeps `true` as a map without a value schema, and prunes every field of
  // the objects in it (pruning with no schema); an empty schema does the same here
  if (ap === true) out.additionalProperties = {};
  else if (ap === false) out.additionalProperties = false;
  else if (ap !== undefined && ap !== null) out.additionalProperties = convert(ap, mode, noPatterns);
  if (s.items !== undefined && s.items !== null && !Array.isArray(s.items)) out.items = convert(s.items, mode, noPatterns);
  return out['x-kubernetes-embedded-resource'] ? resourceMeta(out, mode) : out;
}

/** apiVersion, kind and metadata as a resource knows them, over what the CRD says of them. */
function withTypeAndObjectMeta(s: Schema): Schema {
  const props = s.properties ?? {};
  const meta = props.metadata;
  const objectMeta = ObjectMeta.schema;
  const metadata: Schema = { ...objectMeta, ...(meta?.description ? { description: meta.description } : {}), type: 'object' };
  if (meta !== undefined) {
    const merged: { [name: string]: Schema } = { ...objectMeta.properties };
    for (const [k, p] of Object.entries(meta.properties ?? {})) merged[k] = { ...(objectMeta.properties?.[k] ?? {}), ...p };
    metadata.properties = merged;
    for (const k of ['required', 'minProperties', 'maxProperties'] as const) if (meta[k] !== undefined) (metadata as Record<string, unknown>)[k] = meta[k];
  }
  return {
    ...s,
    properties: {
      ...props,
      apiVersion: { type: 'string', ...props.apiVersion },
      kind: { type: 'string', ...props.kind },
      metadata,
    },
  };
}
