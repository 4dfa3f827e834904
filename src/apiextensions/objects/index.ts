// Custom-resource checks beyond the schema walk (kube v1.27's customresource
// strategy and apiextensions-apiserver pkg/apiserver/schema/{objectmeta,listtype}):
//
//   coerceObjectMeta(schema, obj, {root, dropInvalidFields, returnUnknownFieldPaths})
//                                  TypeMeta/ObjectMeta typing at the root and in
//                                  embedded resources (decode time; in place)
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
//   decode: coerceObjectMeta (requests: no dropping → 400; storage reads: dropping)
//   validateTypeMeta — any error is the whole answer
//   ObjectMeta (create / update) · schema walk · validateScaleSpec (not on /status)
//   · validateScaleStatus · validateEmbedded (root: false) · validateListTypes
//   (on update with {old}) · CEL rules unless an earlier error blocks them
export { coerceObjectMeta, type CoerceOptions, type CoerceResult } from './coerce.js';
export { validateEmbedded, groupVersionError, type EmbeddedOptions } from './embedded.js';
export { validateListTypes } from './listtype.js';
export { validateTypeMeta, validateScaleSpec, validateScaleStatus, type ResourceKind } from './resource.js';
export { typedObjectMeta, objectMetaDecodeError } from './objectmeta.js';
export { goValue, goErrorValueText, goSharpV, goQuote, goFloat } from './gofmt.js';
