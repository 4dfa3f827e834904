// CustomResourceDefinition validation (kube v1.27 apiextensions
// pkg/apis/apiextensions/validation): what a CRD write must satisfy beyond its
// metadata, with kube's messages and its internal-form paths.
//
// Wiring (the CRD strategy):
//   validateName      (name, prefix, obj) => crdNameErrors(name, prefix, obj.spec)
//   prepareForCreate  kube's: status reset, storedVersions = [the first storage version]
//                     (left null when there is none: the error then prints []string(nil))
//   validate          validateCrdCreate(crd, deps)
//   validateUpdate    validateCrdUpdate(crd, old, deps); /status: validateCrdStatusUpdate(crd, old)
//   deps              { schemaErrors, ruleErrors } (+ optional celReady, isNonStructural,
//                     hasUnprunedDefaults), called with kube's ValidationOptions for the write.
export { validateCrdCreate, validateCrdUpdate, validateCrdStatusUpdate, type CrdValidationDeps } from './crd.js';
export { crdNameErrors } from './names.js';
export { createOptions, updateOptions, isEstablished, type ValidationOptions, type StructuralFacts } from './options.js';
export type { SchemaCheck, SchemaDeps } from './openapiroot.js';
export { toInternalSpec, semanticEqual, type InternalSpec, type InternalVersion } from './internal.js';
export { isProtectedCommunityGroup, API_APPROVED_ANNOTATION, API_APPROVED_ANNOTATION_SVC } from './approval.js';
export { ACCEPTED_CONVERSION_REVIEW_VERSIONS } from './conversion.js';
export { validateWebhookURL, validateWebhookService, parseGoURL } from './webhookconfig.js';
