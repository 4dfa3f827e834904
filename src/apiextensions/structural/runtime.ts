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

/** The runtime structural schema of a CRD version's openAPIV3Schema (the resource root). */
export function toStructural(schema: JSONSchemaProps | undefined): Schema {
  const root = convert(schema ?? {});
  return withTypeAndObjectMeta(root);
}

/** The structural schema of any node (not a resource root: no apiVersion/kind/metadata unless embedded). */
export function toStructuralNode(schema: JSONSchemaProps): Schema {
  return convert(schema);
}

const COPIED = [
  'type', 'description', 'required', 'enum', 'format', 'nullable', 'default',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'minProperties', 'maxProperties', 'pattern',
  'x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
] as const satisfies readonly (keyof Schema & keyof JSONSchemaProps)[];

function convert(s: JSONSchemaProps): Schema {
  const out: Schema = {};
  const o = out as Record<string, unknown>;
  for (const k of COPIED) {
    const v = s[k];
    if (v !== undefined && v !== null && !(k === 'x-kubernetes-preserve-unknown-fields' && v === false)) o[k] = v;
  }
  if (s.properties !== undefined && s.properties !== null) {
    const props: { [name: string]: Schema } = {};
    for (const [k, p] of Object.entries(s.properties)) props[k] = convert(p);
    out.properties = props;
  }
  const ap = s.additionalProperties;
  // kube keeps `true` as a map without a value schema, and prunes every field of
  // the objects in it (pruning with no schema); an empty schema does the same here
  if (ap === true) out.additionalProperties = {};
  else if (ap === false) out.additionalProperties = false;
  else if (ap !== undefined && ap !== null) out.additionalProperties = convert(ap);
  if (s.items !== undefined && s.items !== null && !Array.isArray(s.items)) out.items = convert(s.items);
  return out['x-kubernetes-embedded-resource'] ? withTypeAndObjectMeta(out) : out;
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
