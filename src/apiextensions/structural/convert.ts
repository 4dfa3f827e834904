// Whether a CRD's openAPIV3Schema can be read as a structural schema at all
// (kube's NewStructural): the keywords a structural schema has no slot for
// must be unset, `items` must be one schema, and
// x-kubernetes-preserve-unknown-fields may only be true. The first problem
// found, in kube's walk order and words; CRD validation reports it only when
// nothing else is wrong (the OpenAPI-level checks say the same, better placed).
import type { JSONSchemaProps } from '../types.js';

/** The error NewStructural would return for `s`, or undefined when it converts. */
export function structuralError(s: JSONSchemaProps | undefined): string | undefined {
  if (s === undefined) return undefined;
  return unsupported(s) ?? valueValidationError(s) ?? genericsError(s) ?? extensionsError(s) ?? itemsError(s, structuralError) ?? propertiesError(s, structuralError);
}

function unsupported(s: JSONSchemaProps): string | undefined {
  const no = (name: string) => `OpenAPIV3Schema '${name}' is not supported`;
  if (s.id) return no('id');
  if (s.$schema) return no('schema');
  if (s.$ref) return no('$ref');
  if (s.patternProperties && Object.keys(s.patternProperties).length) return no('patternProperties');
  if (s.dependencies && Object.keys(s.dependencies).length) return no('dependencies');
  if (s.additionalItems !== undefined && s.additionalItems !== null) return no('additionalItems');
  if (s.definitions && Object.keys(s.definitions).length) return no('definitions');
  return undefined;
}

/** The junctors' schemas, as NewStructural converts them (nested value validations). */
function valueValidationError(s: JSONSchemaProps): string | undefined {
  const nested = [s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  for (const n of nested) {
    const e = nestedError(n);
    if (e !== undefined) return e;
  }
  return undefined;
}

function nestedError(s: JSONSchemaProps | undefined): string | undefined {
  if (s === undefined || s === null) return undefined;
  return unsupported(s) ?? valueValidationError(s) ?? genericsError(s) ?? extensionsError(s) ?? itemsError(s, nestedError) ?? propertiesError(s, nestedError);
}

function genericsError(s: JSONSchemaProps): string | undefined {
  return typeof s.additionalProperties === 'object' && s.additionalProperties !== null ? structuralError(s.additionalProperties) : undefined;
}

function extensionsError(s: JSONSchemaProps): string | undefined {
  return s['x-kubernetes-preserve-unknown-fields'] === false ? "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined" : undefined;
}

function itemsError(s: JSONSchemaProps, next: (s: JSONSchemaProps | undefined) => string | undefined): string | undefined {
  if (s.items === undefined || s.items === null) return undefined;
  if (Array.isArray(s.items)) return s.items.length ? "OpenAPIV3Schema 'items' must be a schema, but is an array" : undefined;
  return next(s.items);
}

function propertiesError(s: JSONSchemaProps, next: (s: JSONSchemaProps | undefined) => string | undefined): string | undefined {
  for (const p of Object.values(s.properties ?? {})) {
    const e = next(p);
    if (e !== undefined) return e;
  }
  return undefined;
}
