// Custom-resource checks beyond the schema walk (kube v1.27's customresource
// strategy and apiextensions-apiserver pkg/apiserver/schema/{objectmeta,listtype}):
//
//   coerceResource(obj, {group, kind, schemaFor, dropInvalidMetadata, returnUnknownFieldPaths, prune})
//                                  the CRD handler's decode-time typing of a custom
//                                  resource: TypeMeta, root ObjectMeta, the caller's
//                                  pruning, embedded resources (in place)
//   coerceObjectMeta(schema, obj, {root, dropInvalidFields, returnUnknownFieldPaths})
//                                  objectmeta.Coerce: TypeMeta/ObjectMeta typing in
//                                  embedded resources (and the root when asked)
//   validateEmbedded(schema, obj, {root})   embedded resources' apiVersion/kind/metadata
//   validateListTypes(schema, obj)          set and map list uniqueness
//   validateTypeMeta(obj, {group, version, kind})
//   validateScaleSpec(obj, scale) / validateScaleStatus(obj, scale)
//
// All take plain JSON and a structural schema (src/schema/model.ts Schema) and
// return FieldErrors with Kubernetes' messages; bad values that Kubernetes
// prints with Go's formatting carry a GoValue (api/meta/govalue.ts).
//
// Kubernetes' order (customResourceStrategy.Validate / ValidateUpdate, v1.27):
//   decode: coerceResource (requests: no dropping → 400; storage reads: dropping)
//   validateTypeMeta — any error is the whole answer
//   ObjectMeta (create / update) · schema walk · validateScaleSpec (not on /status)
//   · validateScaleStatus · validateEmbedded (root: false) · validateListTypes
//   (on update with {old}) · CEL rules unless an earlier error blocks them
export { coerceObjectMeta, coerceResource, type CoerceOptions, type CoerceResult, type ResourceCoerceOptions, type ResourceCoerceResult } from './coerce.js';
export { validateEmbedded, groupVersionError, type EmbeddedOptions } from './embedded.js';
export { validateListTypes } from './listtype.js';
export { validateTypeMeta, validateScaleSpec, validateScaleStatus, type ResourceKind } from './resource.js';
export { typedObjectMeta, objectMetaDecodeError } from './objectmeta.js';
export { goValue, goErrorValueText, goSharpV, goQuote, goFloat } from './gofmt.js';
