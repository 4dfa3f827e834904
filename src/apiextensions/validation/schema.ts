// A CRD version's openAPIV3Schema checked at CRD write time, as kube v1.27's
// validateCustomResourceDefinitionValidation does it, in its order:
//
//   status subresource: root keywords ─► nullable root ─► structural?
//     (NewStructural converts ─► ValidateStructural ─► ValidateDefaults)
//   ─► the OpenAPI-level walk (schemaopenapi.ts; CEL rules through opts.cel)
//   ─► NewStructural's own error, only when nothing else was reported
//   ─► CEL total cost (opts.cel.total)
//
// Exports: `schemaDeps` plugs into crd-spec's CrdValidationDeps (schemaErrors,
// celReady, isNonStructural, hasUnprunedDefaults; crd-spec checks the root
// keywords itself); `validateSchema(schema, path, opts)` is the whole of it with
// `path` the openAPIV3Schema's own path (spec.validation.openAPIV3Schema when
// every version shares the schema, as kube's internal form reports it), and
// the options builders `createSchemaOptions()` / `updateSchemaOptions(old)`.
import { forbidden, invalid, type FieldError } from '../../api/meta/field.js';
import { structuralError } from '../structural/convert.js';
import type { JSONSchemaProps } from '../types.js';
import { validateDefaults } from './schemadefaults.js';
import { mapListKeysMapSet, OPENAPI_V3_TYPES, validateOpenAPISchema } from './schemaopenapi.js';
import type { SchemaValidationOptions } from './schemaoptions.js';
import { validateStructural } from './schemastructural.js';
import { fieldPath } from '../../api/meta/field.js';
import { prune } from '../../schema/prune.js';
import { toStructural, toStructuralNode } from '../structural/runtime.js';
import type { CrdValidationDeps } from './crd.js';

export type { CelDefaultSite, CelRuleSite, CelSchemaHooks, CelStep, SchemaValidationOptions } from './schemaoptions.js';

/** The keywords a root schema may carry when the status subresource is on (kube's allowedFieldsAtRootSchema, JSON names). */
const ALLOWED_AT_ROOT = ['description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties', 'externalDocs', 'example', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations'];
/** kube's message names them by Go field name. */
const ALLOWED_AT_ROOT_GO = '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';
/** JSONSchemaProps in Go's field order (the order kube meets them when it checks the root). */
const GO_FIELD_ORDER = ['id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'additionalProperties', 'patternProperties', 'dependencies', 'additionalItems', 'definitions', 'externalDocs', 'example', 'nullable', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations'];

/** The JSONSchemaProps fields Go holds by value (strings and booleans): "" and false are their zero values; the others are pointers, slices or maps, zero only when absent. */
const BY_VALUE = new Set(['id', '$schema', 'description', 'type', 'format', 'title', 'pattern', 'exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'nullable', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string']);

/** Go's zero-value test for a JSONSchemaProps field as decoded from JSON. */
function isZero(k: string, v: unknown): boolean {
  return v === undefined || v === null || (BY_VALUE.has(k) && (v === false || v === ''));
}

/** Every error of a version's openAPIV3Schema (at `path`), in kube's order. */
export function validateSchema(schema: JSONSchemaProps, path: string, opts: SchemaValidationOptions): FieldError[] {
  const root = rootErrors(schema, path, opts);
  return [...root, ...bodyErrors(schema, path, opts, root.length)];
}

/**
 * The schema's own errors without the root checks (status-subresource keywords, nullable root)
 * that crd-spec's validateSchemaOf makes itself: its `schemaErrors` dependency. CEL errors are
 * added only through `opts.cel` (crd-spec asks `ruleErrors` for them instead).
 */
export const schemaErrors = (schema: JSONSchemaProps, path: string, opts: SchemaValidationOptions): FieldError[] => bodyErrors(schema, path, opts, 0);

/** kube compiles a schema's rules only when it converts, is structural and its defaults are valid: crd-spec's `celReady`. */
export function celReady(schema: JSONSchemaProps, opts: SchemaValidationOptions): boolean {
  return structuralState(schema, '', opts).celEnabled;
}

/** Everything crd-spec's CrdValidationDeps wants from this module (the lead adds `ruleErrors` from the CEL code). */
export const schemaDeps = {
  schemaErrors,
  celReady,
  isNonStructural: (s: JSONSchemaProps) => schemaIsNonStructural(s),
  hasUnprunedDefaults: (s: JSONSchemaProps) => schemaHasUnprunedDefaults(s),
} satisfies Omit<CrdValidationDeps, 'ruleErrors'>;

function rootErrors(schema: JSONSchemaProps, path: string, opts: SchemaValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.statusSubresourceEnabled) {
    for (const k of GO_FIELD_ORDER) {
      const v = (schema as Record<string, unknown>)[k];
      if (isZero(k, v)) continue;
      if (k === 'type') {
        if (v !== 'object') {
          errs.push(invalid(`${path}.type`, v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!ALLOWED_AT_ROOT.includes(k)) {
        errs.push(invalid(path, schema, `only ${ALLOWED_AT_ROOT_GO} fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable === true) errs.push(forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  return errs;
}

interface StructuralState {
  errors: FieldError[];
  /** NewStructural's error, shown only when nothing else is wrong. */
  conversionError?: string;
  /** Structural with valid defaults: CEL rules are compiled. */
  celEnabled: boolean;
}

/** NewStructural → ValidateStructural → ValidateDefaults, each only when the previous passed. */
function structuralState(schema: JSONSchemaProps, path: string, opts: SchemaValidationOptions): StructuralState {
  if (!opts.requireStructuralSchema) return { errors: [], celEnabled: false };
  const conversionError = structuralError(schema);
  if (conversionError !== undefined) return { errors: [], conversionError, celEnabled: false };
  const structural = validateStructural(schema, path);
  if (structural.length) return { errors: structural, celEnabled: false };
  const defaults = validateDefaults(schema, path, { requirePrunedDefaults: opts.requirePrunedDefaults, ...(opts.cel ? { cel: opts.cel } : {}) });
  return { errors: defaults, celEnabled: defaults.length === 0 };
}

/** `before`: how many errors the caller already has (NewStructural's error shows only when there are none). */
function bodyErrors(schema: JSONSchemaProps, path: string, opts: SchemaValidationOptions, before: number): FieldError[] {
  const state = structuralState(schema, path, opts);
  const errs = [...state.errors];
  const walked = validateOpenAPISchema(schema, path, opts, state.celEnabled);
  errs.push(...walked.schema, ...walked.cel);
  if (before + errs.length === 0 && state.conversionError !== undefined) errs.push(invalid(path, '', state.conversionError));
  if (state.celEnabled && opts.cel?.total) errs.push(...opts.cel.total());
  return errs;
}

/** The options of a CRD create (kube's ValidateCustomResourceDefinition): every requirement on. */
export function createSchemaOptions(extra: Partial<SchemaValidationOptions> = {}): SchemaValidationOptions {
  return {
    allowDefaults: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    ...extra,
  };
}

/**
 * The options of a CRD update (kube's ValidateCustomResourceDefinitionUpdate), from the old CRD's
 * schemas (every version's openAPIV3Schema): a requirement the old CRD did not meet is not imposed.
 * Note kube still requires structural schemas when spec.preserveUnknownFields is false (always in v1),
 * when the CRD has defaults or any x-kubernetes-* extension: the caller sets requireStructuralSchema then.
 */
export function updateSchemaOptions(oldSchemas: readonly (JSONSchemaProps | undefined)[], extra: Partial<SchemaValidationOptions> = {}): SchemaValidationOptions {
  const any = (pred: (s: JSONSchemaProps) => boolean) => oldSchemas.some((s) => s !== undefined && pred(s));
  return {
    allowDefaults: true,
    requireValidPropertyType: !any(schemaHasInvalidTypes),
    requireStructuralSchema: !any(schemaIsNonStructural),
    requirePrunedDefaults: !any(schemaHasUnprunedDefaults),
    requireAtomicSetType: !any(hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !any(hasInvalidMapListKeysMapSet),
    ...extra,
  };
}

/** kube's SchemaHas: `pred` anywhere in the schema (items, junctors, properties, additionalProperties, and the keywords CRDs refuse). */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (s === undefined || s === null || typeof s !== 'object') return false;
  if (pred(s)) return true;
  const subs: unknown[] = [
    ...(Array.isArray(s.items) ? s.items : [s.items]),
    ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), s.not,
    ...Object.values(s.properties ?? {}),
    s.additionalProperties,
    ...Object.values(s.patternProperties ?? {}),
    s.additionalItems,
    ...Object.values(s.definitions ?? {}),
    ...Object.values(s.dependencies ?? {}),
  ];
  return subs.some((x) => typeof x === 'object' && x !== null && !Array.isArray(x) && schemaHas(x as JSONSchemaProps, pred));
}

/** Some node has a `default`. */
export const schemaHasDefaults = (s: JSONSchemaProps | undefined) => schemaHas(s, (x) => x.default !== undefined && x.default !== null);

/** Some node uses an x-kubernetes-* extension (which makes a structural schema required). */
export const schemaHasKubernetesExtensions = (s: JSONSchemaProps | undefined) =>
  schemaHas(s, (x) => x['x-kubernetes-embedded-resource'] === true || (x['x-kubernetes-preserve-unknown-fields'] !== undefined && x['x-kubernetes-preserve-unknown-fields'] !== null) || x['x-kubernetes-int-or-string'] === true || (x['x-kubernetes-list-map-keys']?.length ?? 0) > 0 || (x['x-kubernetes-list-type'] !== undefined && x['x-kubernetes-list-type'] !== null) || (x['x-kubernetes-validations']?.length ?? 0) > 0);

/** Some node has a `type` OpenAPI v3 does not know. */
export const schemaHasInvalidTypes = (s: JSONSchemaProps | undefined) => schemaHas(s, (x) => !!x.type && !(OPENAPI_V3_TYPES as readonly string[]).includes(x.type));

/** The schema does not convert, or breaks a structural rule. */
export function schemaIsNonStructural(s: JSONSchemaProps | undefined): boolean {
  if (s === undefined) return false;
  return structuralError(s) !== undefined || validateStructural(s, '').length > 0;
}

/** Some default (of a structural schema) loses fields when pruned. */
export function schemaHasUnprunedDefaults(s: JSONSchemaProps | undefined): boolean {
  if (s === undefined || !schemaHasDefaults(s) || schemaIsNonStructural(s)) return false;
  let found = false;
  const visit = (x: JSONSchemaProps, isRoot: boolean) => {
    if (found) return;
    if (x.default !== undefined && x.default !== null) {
      const copy = JSON.parse(JSON.stringify(x.default));
      if (prune(isRoot ? toStructural(x, 'opaque') : toStructuralNode(x, 'opaque'), copy).length > 0) found = true;
    }
    if (x.items && !Array.isArray(x.items)) visit(x.items, false);
    for (const p of Object.values(x.properties ?? {})) visit(p, false);
    if (typeof x.additionalProperties === 'object' && x.additionalProperties !== null) visit(x.additionalProperties, false);
  };
  visit(s, true);
  return found;
}

/** A set list whose items are not atomic. */
export const hasNonAtomicSetType = (s: JSONSchemaProps | undefined) =>
  schemaHas(s, (x) => {
    const items = x.items && !Array.isArray(x.items) ? x.items : undefined;
    if (x['x-kubernetes-list-type'] !== 'set' || !items) return false;
    if (items.type === 'array') return items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic';
    if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
    return false;
  });

/** A set/map list breaking the key and nullability rules. */
export const hasInvalidMapListKeysMapSet = (s: JSONSchemaProps | undefined) => schemaHas(s, (x) => mapListKeysMapSet(x, fieldPath('')).length > 0);
