// Predicates over every schema node of a CRD (kube's SchemaHas / HasSchemaWith):
// they decide which rules a write must follow (defaults and x-kubernetes-*
// extensions force structural schemas) and which rules an update may relax
// because the stored CRD already breaks them.
import type { JSONSchemaProps } from '../types.js';
import type { InternalSpec } from './internal.js';

type Pred = (s: JSONSchemaProps) => boolean;

const OPENAPI_V3_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** pred holds for the schema or any schema below it (items, junctors, properties, additionalProperties, …). */
export function schemaHas(s: JSONSchemaProps | undefined | null, pred: Pred): boolean {
  if (!s || typeof s !== 'object') return false;
  if (pred(s)) return true;
  const sub = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x) && schemaHas(x as JSONSchemaProps, pred);
  if (Array.isArray(s.items) ? s.items.some(sub) : sub(s.items)) return true;
  for (const list of [s.allOf, s.anyOf, s.oneOf]) if (list?.some(sub)) return true;
  if (sub(s.not)) return true;
  for (const m of [s.properties, s.patternProperties, s.definitions]) if (m && Object.values(m).some(sub)) return true;
  if (sub(s.additionalProperties) || sub(s.additionalItems)) return true;
  if (s.dependencies && Object.values(s.dependencies).some(sub)) return true;
  return false;
}

/** pred holds in the top-level schema or any version's schema (HasSchemaWith). */
export function hasSchemaWith(spec: InternalSpec, pred: Pred): boolean {
  if (spec.validation?.openAPIV3Schema && pred(spec.validation.openAPIV3Schema)) return true;
  return spec.versions.some((v) => !!v.schema?.openAPIV3Schema && pred(v.schema.openAPIV3Schema));
}

const present = (v: unknown) => v !== undefined && v !== null;

export const schemaHasDefaults = (s: JSONSchemaProps) => schemaHas(s, (n) => present(n.default));

export const schemaHasKubernetesExtensions = (s: JSONSchemaProps) =>
  schemaHas(
    s,
    (n) =>
      n['x-kubernetes-embedded-resource'] === true ||
      present(n['x-kubernetes-preserve-unknown-fields']) ||
      n['x-kubernetes-int-or-string'] === true ||
      (n['x-kubernetes-list-map-keys']?.length ?? 0) > 0 ||
      present(n['x-kubernetes-list-type']) ||
      (n['x-kubernetes-validations']?.length ?? 0) > 0,
  );

export const schemaHasInvalidTypes = (s: JSONSchemaProps) => schemaHas(s, (n) => !!n.type && !OPENAPI_V3_TYPES.has(n.type));

const itemSchema = (s: JSONSchemaProps): JSONSchemaProps | undefined => (s.items && !Array.isArray(s.items) ? s.items : undefined);

/** A set list whose items are not atomic (granular maps, non-atomic lists). */
export const hasNonAtomicSetType = (s: JSONSchemaProps) =>
  schemaHas(s, (n) => {
    const is = itemSchema(n);
    if (n['x-kubernetes-list-type'] !== 'set' || !is) return false;
    if (is.type === 'array') return present(is['x-kubernetes-list-type']) && is['x-kubernetes-list-type'] !== 'atomic';
    if (is.type === 'object') return is['x-kubernetes-map-type'] !== 'atomic';
    return false;
  });

/** validateMapListKeysMapSet reports something: nullable set/map items, map keys neither required nor defaulted, nullable keys. */
export const hasInvalidMapListKeysMapSet = (s: JSONSchemaProps) =>
  schemaHas(s, (n) => {
    const is = itemSchema(n);
    const lt = n['x-kubernetes-list-type'];
    if (!is || (lt !== 'set' && lt !== 'map')) return false;
    if (is.nullable === true) return true;
    if (lt !== 'map') return false;
    const required = new Set(is.required ?? []);
    return (n['x-kubernetes-list-map-keys'] ?? []).some((k) => {
      const p = is.properties?.[k];
      return !!p && ((!required.has(k) && !present(p.default)) || p.nullable === true);
    });
  });
