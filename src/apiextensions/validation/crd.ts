// ValidateCustomResourceDefinition(Update) of kube v1.27 over a v1 object
// (after defaults, and after the strategy's prepare set status.storedVersions).
// The object is first put in kube's internal form (internal.ts), because kube
// validates that form and reports its paths. Metadata (name, labels, …) is the
// generic store's: give it crdNameErrors as the kind's name rule.
//
//   spec: group → scope → schemas present → defaults vs preserveUnknownFields
//     → each version (name, deprecationWarning, schema, subresources, columns)
//     → version list (unique, one storage) → spec.version → names required → names
//     → top-level schema → top-level subresources → top-level columns → conversion
//   then status.acceptedNames → status.storedVersions → API approval → preserveUnknownFields
import { type FieldError, type FieldPath, fieldPath, invalid, required } from '../../api/meta/field.js';
import { immutable } from '../../api/meta/checks.js';
import { dns1035LabelErrors } from '../../api/meta/validation.js';
import type { CustomResourceDefinition, CustomResourceSubresources } from '../types.js';
import { validatePreserveUnknownFields, validateAPIApproval } from './approval.js';
import { validateConversion } from './conversion.js';
import { enumErrors } from './enum.js';
import { goVersions } from './gotext.js';
import { type InternalSpec, toInternalSpec } from './internal.js';
import { requiredNames, validateGroup, validateNames } from './names.js';
import { createOptions, type StructuralFacts, updateOptions, type ValidationOptions } from './options.js';
import { type SchemaDeps, validateSchemaOf } from './openapiroot.js';
import { validateStatus, validateStoredVersions } from './status.js';
import { deprecationWarningErrors, validateColumn, validateSubresources } from './versions.js';
import { hasSchemaWith, schemaHasDefaults, schemaHasKubernetesExtensions } from './walk.js';

export type CrdValidationDeps = SchemaDeps & StructuralFacts;

const hasStatus = (s: CustomResourceSubresources | undefined | null) => !!s && s.status !== undefined && s.status !== null;

/** getSubresourcesForVersion: the top-level subresources unless some version has its own. */
function subresourcesFor(spec: InternalSpec, name: string): CustomResourceSubresources | undefined {
  if (!spec.versions.some((v) => v.subresources)) return spec.subresources;
  return spec.versions.find((v) => v.name === name)?.subresources;
}

const hasAnyStatus = (spec: InternalSpec) => hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));

function validateSpec(spec: InternalSpec, base: ValidationOptions, deps: SchemaDeps, path: FieldPath): FieldError[] {
  const opts = { ...base };
  const errs = validateGroup(spec.group, path.child('group'));
  errs.push(...enumErrors(path.child('scope'), spec.scope, ['Cluster', 'Namespaced'], true));
  // pruning needs structural schemas
  if (!spec.preserveUnknownFields) opts.requireStructuralSchema = true;
  const versionsPath = path.child('versions');
  if (!spec.validation?.openAPIV3Schema) {
    spec.versions.forEach((v, i) => {
      const schemaPath = versionsPath.index(i).child('schema').child('openAPIV3Schema');
      if (opts.requireOpenAPISchema) {
        if (!v.schema?.openAPIV3Schema) errs.push(required(schemaPath, 'schemas are required'));
      } else if (!spec.preserveUnknownFields && v.served && !v.schema?.openAPIV3Schema) errs.push(required(schemaPath, 'because otherwise all fields are pruned'));
    });
  }
  if (opts.allowDefaults && hasSchemaWith(spec, schemaHasDefaults)) {
    opts.requireStructuralSchema = true;
    if (spec.preserveUnknownFields) errs.push(invalid(path.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }
  if (hasSchemaWith(spec, schemaHasKubernetesExtensions)) opts.requireStructuralSchema = true;

  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  spec.versions.forEach((v, i) => {
    const vp = versionsPath.index(i);
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    else seen.add(v.name);
    const nameErrs = dns1035LabelErrors(v.name ?? '');
    if (nameErrs.length) errs.push(invalid(vp.child('name'), v.name ?? '', nameErrs.join(',')));
    for (const m of deprecationWarningErrors(v.deprecated, v.deprecationWarning)) errs.push(invalid(vp.child('deprecationWarning'), v.deprecationWarning ?? null, m));
    errs.push(...validateSchemaOf(v.schema, hasStatus(subresourcesFor(spec, v.name)), opts, deps, vp.child('schema')));
    errs.push(...validateSubresources(v.subresources, vp.child('subresources')));
    (v.additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...validateColumn(c, vp.child('additionalPrinterColumns').index(j))));
  });
  // (the v1 → internal conversion never leaves both top-level and per-version
  // values, nor identical per-version values, so kube's checks of those cannot fire)
  if (!unique) errs.push(invalid(versionsPath, goVersions(spec.versions, spec.versionsAbsent), 'must contain unique version names'));
  if (storage !== 1) errs.push(invalid(versionsPath, goVersions(spec.versions, spec.versionsAbsent), 'must have exactly one version marked as storage version'));
  if (spec.version) {
    const msgs = dns1035LabelErrors(spec.version);
    if (msgs.length) errs.push(invalid(path.child('version'), spec.version, msgs.join(',')));
  }
  errs.push(...requiredNames(spec.names, path.child('names')));
  errs.push(...validateNames(spec.names, path.child('names')));
  errs.push(...validateSchemaOf(spec.validation, hasAnyStatus(spec), opts, deps, path.child('validation')));
  errs.push(...validateSubresources(spec.subresources, path.child('subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...validateColumn(c, path.child('additionalPrinterColumns').index(j))));
  if (spec.conversion && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(invalid(path.child('conversion').child('strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, opts.requireRecognizedConversionReviewVersion, path.child('conversion')));
  return errs;
}

/** A body without spec (or names, versions) is validated as Go sees it: zero values, not a crash. */
function withSpec(crd: CustomResourceDefinition): CustomResourceDefinition {
  const spec = (crd.spec ?? {}) as Partial<CustomResourceDefinition['spec']>;
  if (crd.spec && crd.spec.names) return crd;
  return { ...crd, spec: { ...spec, names: spec.names ?? ({} as CustomResourceDefinition['spec']['names']) } as CustomResourceDefinition['spec'] };
}

function validateRest(crd: CustomResourceDefinition, spec: InternalSpec, old: CustomResourceDefinition | undefined): FieldError[] {
  return [
    ...validateStatus(crd.status),
    ...validateStoredVersions(crd.status?.storedVersions, spec.versions),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}

/** ValidateCustomResourceDefinition without ValidateObjectMeta (the store's). */
export function validateCrdCreate(crd: CustomResourceDefinition, deps: CrdValidationDeps): FieldError[] {
  crd = withSpec(crd);
  const spec = toInternalSpec(crd.spec);
  return [...validateSpec(spec, createOptions(), deps, fieldPath('spec')), ...validateRest(crd, spec, undefined)];
}

/** ValidateCustomResourceDefinitionUpdate without ValidateObjectMetaUpdate (the store's). */
export function validateCrdUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition, deps: CrdValidationDeps): FieldError[] {
  crd = withSpec(crd);
  old = withSpec(old);
  const opts = updateOptions(old, deps);
  const spec = toInternalSpec(crd.spec);
  const path = fieldPath('spec');
  const errs = validateSpec(spec, opts, deps, path);
  if (opts.requireImmutableNames) {
    errs.push(...immutable(crd.spec.scope, old.spec.scope, path.child('scope')));
    errs.push(...immutable(crd.spec.names?.kind, old.spec.names?.kind, path.child('names').child('kind')));
  }
  errs.push(...immutable(crd.spec.group, old.spec.group, path.child('group')));
  errs.push(...immutable(crd.spec.names?.plural, old.spec.names?.plural, path.child('names').child('plural')));
  errs.push(...validateRest(crd, spec, old));
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus without ValidateObjectMetaUpdate (the store's). */
export function validateCrdStatusUpdate(crd: CustomResourceDefinition, _old: CustomResourceDefinition): FieldError[] {
  return validateStatus(crd.status);
}
