// A component's schema in the published form: OpenAPI v3 (/openapi/v3) or
// Swagger 2.0 (/openapi/v2). Uses of shared types become references —
// `allOf: [{$ref}]` in v3, a bare `$ref` in v2, as Kubernetes publishes them —
// carrying the use's description (the type's when it has none), default and
// the x-kubernetes-* markers where they differ from the type's (a Deployment's
// `strategy` is a retainKeys use of DeploymentStrategy; kubectl's strategic
// merge patch reads that marker from the v2 document). int-or-string is `anyOf` integer/string in v3 and a
// string with its format in v2. Our own slots (`id`, `proto`) never appear.
import { PASS_THROUGH } from '../schema/openapi.js';
import type { JsonValue, Schema } from '../schema/model.js';
import type { Definitions } from './definitions.js';

export type Json = { [key: string]: JsonValue };
export type Form = 'v2' | 'v3';

export const REF_PREFIX: Record<Form, string> = { v2: '#/definitions/', v3: '#/components/schemas/' };


/** What a use of a shared type may say for itself. */
const USE_MARKERS = [
  'x-kubernetes-embedded-resource', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type', 'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key',
] as const;

/** The component `id` as a definition (inline at its top, referring to other components). */
export function emitComponent(defs: Definitions, id: string, form: Form): Json {
  return emit(defs, defs.schema(id), form, true);
}

/** A reference to a component, as an operation's body or response schema. */
export function refTo(id: string, form: Form): Json {
  return { $ref: REF_PREFIX[form] + id };
}

function emit(defs: Definitions, s: Schema, form: Form, top: boolean): Json {
  if (!top && s.id !== undefined && defs.has(s.id)) return emitUse(defs.schema(s.id), s, form);
  const out: Json = {};
  if (s.description !== undefined) out.description = s.description;
  for (const k of PASS_THROUGH) {
    if (s[k] === undefined || (form === 'v2' && k === 'nullable')) continue;
    out[k] = s[k] as JsonValue;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (form === 'v3') {
      out['x-kubernetes-int-or-string'] = true;
      out.anyOf = [{ type: 'integer' }, { type: 'string' }];
    } else {
      out.type = 'string';
    }
  }
  if (s.properties !== undefined) {
    const props: Json = {};
    for (const [k, p] of Object.entries(s.properties)) props[k] = emit(defs, p, form, false);
    out.properties = props;
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'boolean' ? s.additionalProperties : emit(defs, s.additionalProperties, form, false);
  }
  if (s.items !== undefined) out.items = emit(defs, s.items, form, false);
  if (s.required !== undefined && s.required.length > 0) out.required = [...s.required];
  return out;
}

function emitUse(component: Schema, use: Schema, form: Form): Json {
  const out: Json = form === 'v3' ? { allOf: [refTo(component.id!, form)] } : refTo(component.id!, form);
  // kubectl explain prints a field's own description: a use without one shows the type's.
  const description = use.description ?? component.description;
  if (description !== undefined) out.description = description;
  if (use.default !== undefined) out.default = use.default;
  for (const k of USE_MARKERS) {
    if (use[k] !== undefined && JSON.stringify(use[k]) !== JSON.stringify(component[k])) out[k] = use[k] as JsonValue;
  }
  return out;
}
