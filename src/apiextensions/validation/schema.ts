// A CRD version's openAPIV3Schema checked at CRD write time, as kube v1.27's
// validateCustomResourceDefinitionValidation does it, in its order:
//
//   [crd-spec: status-subresource root keywords ─► nullable root] ─► structural?
//     (NewStructural converts ─► ValidateStructural ─► ValidateDefaults)
//   ─► the OpenAPI-level walk (schemaopenapi.ts; CEL rules through opts.cel)
//   ─► NewStructural's own error, only when nothing else was reported
//   ─► CEL total cost (opts.cel.total)
//
// Exports: `schemaDeps` plugs into crd-spec's CrdValidationDeps (schemaErrors =
// validateSchema, celReady, isNonStructural, hasUnprunedDefaults);
// `validateSchema(schema, path, opts)` takes
// `path` the openAPIV3Schema's own path (spec.validation.openAPIV3Schema when
// every version shares the schema, as kube's internal form reports it) and
// crd-spec's options (createOptions / updateOptions with schemaDeps as facts).
import { invalid, type FieldError } from '../../api/meta/field.js';
import { prune } from '../../schema/prune.js';
import { structuralError } from '../structural/convert.js';
import type { JSONSchemaProps } from '../types.js';
import { validateDefaults } from './schemadefaults.js';
import { validateOpenAPISchema } from './schemaopenapi.js';
import type { SchemaValidationOptions } from './schemaoptions.js';
import { validateStructural } from './schemastructural.js';
import { toStructural, toStructuralNode } from '../structural/runtime.js';
import type { CrdValidationDeps } from './crd.js';
import { schemaHasDefaults } from './walk.js';

export type { CelDefaultSite, CelRuleSite, CelSchemaHooks, CelStep, SchemaValidationOptions } from './schemaoptions.js';

/**
 * Every error of a version's openAPIV3Schema (at `path`) in kube's order, but the root checks
 * (status-subresource keywords, nullable root) that crd-spec's validateSchemaOf makes around it:
 * its `schemaErrors` dependency. CEL errors come only through `opts.cel` (crd-spec asks its
 * `ruleErrors` dependency instead).
 */
export function validateSchema(schema: JSONSchemaProps, path: string, opts: SchemaValidationOptions): FieldError[] {
  const state = structuralState(schema, path, opts);
  const errs = [...state.errors];
  const walked = validateOpenAPISchema(schema, path, opts, state.celEnabled);
  errs.push(...walked.schema, ...walked.cel);
  // kube also counts the root errors here: with a nullable root, NewStructural's error is not shown
  if (errs.length === 0 && state.conversionError !== undefined) errs.push(invalid(path, '', state.conversionError));
  if (state.celEnabled && opts.cel?.total) errs.push(...opts.cel.total());
  return errs;
}

/** kube compiles a schema's rules only when it converts, is structural and its defaults are valid: crd-spec's `celReady`. */
export function celReady(schema: JSONSchemaProps, opts: SchemaValidationOptions): boolean {
  return structuralState(schema, '', opts).celEnabled;
}

/** Everything crd-spec's CrdValidationDeps wants from this module (the lead adds `ruleErrors` from the CEL code). */
export const schemaDeps = {
  schemaErrors: validateSchema,
  celReady,
  isNonStructural: (s: JSONSchemaProps) => schemaIsNonStructural(s),
  hasUnprunedDefaults: (s: JSONSchemaProps) => schemaHasUnprunedDefaults(s),
} satisfies Omit<CrdValidationDeps, 'ruleErrors'>;

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
