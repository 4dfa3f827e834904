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
//   customResourceErrors({operation, obj, old, kind, schema, scale, metaAndSchemaErrors})
//                                  all of the above in the strategy's order (before CEL)
//
// All take plain JSON and a structural schema (src/schema/model.ts Schema) and
// return FieldErrors with Kubernetes' messages; bad values that Kubernetes
// prints with Go's formatting carry a GoValue (api/meta/govalue.ts).
//
// Kubernetes decodes a body with coerceResource (requests: no dropping → 400;
// storage reads: dropping), then validates as customResourceErrors does, then
// runs the CEL rules unless an earlier error blocks them.
export { coerceObjectMeta, coerceResource, type CoerceOptions, type CoerceResult, type ResourceCoerceOptions, type ResourceCoerceResult } from './coerce.js';
export { validateEmbedded, groupVersionError, type EmbeddedOptions } from './embedded.js';
export { validateListTypes } from './listtype.js';
export { validateTypeMeta, validateScaleSpec, validateScaleStatus, type ResourceKind } from './resource.js';
export { customResourceErrors, type StrategyInput } from './strategy.js';
export { typedObjectMeta, objectMetaDecodeError } from './objectmeta.js';
export { goValue, goErrorValueText, goSharpV, goQuote, goFloat } from './gofmt.js';
