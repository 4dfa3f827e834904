// kube's validationOptions (apiextensions validation.go): what a CRD write must
// satisfy. A create gets the strict set; an update relaxes a rule only when the
// stored (old) CRD already breaks it (ratcheting), so an old object stays
// writable. The spec validation then tightens requireStructuralSchema when the
// CRD prunes (preserveUnknownFields false), has defaults or x-kubernetes-*
// extensions (see crd.ts).
import type { CustomResourceDefinition, JSONSchemaProps } from '../types.js';
import { toInternalSpec, type InternalSpec } from './internal.js';
import { hasInvalidMapListKeysMapSet, hasNonAtomicSetType, hasSchemaWith, schemaHasInvalidTypes } from './walk.js';
import { isAcceptedConversionReviewVersion } from './conversion.js';
import { isEstablished } from '../conditions.js';

export { isEstablished };

export interface ValidationOptions {
  /** The schema may contain `default`. */
  allowDefaults: boolean;
  /** Why defaults are not allowed (appended to "must not be set"). */
  disallowDefaultsReason?: string;
  /** Webhook conversionReviewVersions must include a version this server understands. */
  requireRecognizedConversionReviewVersion: boolean;
  /** spec.scope and spec.names.kind are immutable (the old CRD is Established). */
  requireImmutableNames: boolean;
  /** Every version must have an openAPIV3Schema. */
  requireOpenAPISchema: boolean;
  /** Schema `type`s must be OpenAPI v3 types. */
  requireValidPropertyType: boolean;
  /** Schemas must be structural. */
  requireStructuralSchema: boolean;
  /** Defaults must be unchanged by pruning. */
  requirePrunedDefaults: boolean;
  /** Items of x-kubernetes-list-type=set lists must be atomic. */
  requireAtomicSetType: boolean;
  /** Map-list keys required or defaulted and not nullable; set/map list items not nullable. */
  requireMapListKeysMapSetValidation: boolean;
}

/** What crd-schema knows about a stored schema, for the update ratchets (kube: schemaIsNonStructural, schemaHasUnprunedDefaults). */
export interface StructuralFacts {
  /** NewStructural fails or ValidateStructural reports errors. */
  isNonStructural?(schema: JSONSchemaProps): boolean;
  /** The structural schema has defaults that pruning would change (false when it is not structural). */
  hasUnprunedDefaults?(schema: JSONSchemaProps): boolean;
}

/** ValidateCustomResourceDefinition's options. */
export function createOptions(): ValidationOptions {
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    requireOpenAPISchema: true,
    requireValidPropertyType: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
  };
}

function schemasOf(spec: InternalSpec): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

function allVersionsSpecifyOpenAPISchema(spec: InternalSpec): boolean {
  if (spec.validation?.openAPIV3Schema) return true;
  return spec.versions.every((v) => v.schema?.openAPIV3Schema !== undefined && v.schema.openAPIV3Schema !== null);
}


/** ValidateCustomResourceDefinitionUpdate's options, from the stored CRD. */
export function updateOptions(old: CustomResourceDefinition, facts: StructuralFacts = {}): ValidationOptions {
  const spec = toInternalSpec(old.spec);
  const schemas = schemasOf(spec);
  const conv = old.spec.conversion;
  const reviewVersions = conv?.webhook?.conversionReviewVersions ?? [];
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: !conv || reviewVersions.length === 0 || reviewVersions.some(isAcceptedConversionReviewVersion),
    requireImmutableNames: isEstablished(old),
    requireOpenAPISchema: allVersionsSpecifyOpenAPISchema(spec),
    requireValidPropertyType: !hasSchemaWith(spec, schemaHasInvalidTypes),
    requireStructuralSchema: !schemas.some((s) => facts.isNonStructural?.(s) === true),
    requirePrunedDefaults: !schemas.some((s) => facts.hasUnprunedDefaults?.(s) === true),
    requireAtomicSetType: !hasSchemaWith(spec, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !hasSchemaWith(spec, hasInvalidMapListKeysMapSet),
  };
}
