// CustomResourceDefinition validation (kube v1.27 apiextensions
// pkg/apis/apiextensions/validation): what a CRD write must satisfy beyond its
// metadata. The schema's own rules come in as callbacks (deps.schemaErrors:
// crd-schema's OpenAPI/structural rules; deps.ruleErrors: crd-cel's
// x-kubernetes-validations), called with kube's ValidationOptions for the write.
export { validateCrdCreate, validateCrdUpdate, validateCrdStatusUpdate, type CrdValidationDeps } from './crd.js';
export { crdNameErrors } from './names.js';
export { createOptions, updateOptions, isEstablished, type ValidationOptions, type StructuralFacts } from './options.js';
export type { SchemaCheck, SchemaDeps } from './openapiroot.js';
export { toInternalSpec, semanticEqual, type InternalSpec, type InternalVersion } from './internal.js';
export { isProtectedCommunityGroup, API_APPROVED_ANNOTATION, API_APPROVED_ANNOTATION_SVC } from './approval.js';
export { ACCEPTED_CONVERSION_REVIEW_VERSIONS } from './conversion.js';
export { validateWebhookURL, validateWebhookService } from './webhookconfig.js';
