// One version's (or the hoisted) schema: validateCustomResourceDefinitionValidation.
// The root rules live here (with the status subresource only a few keywords
// may sit at the root, and the root is never nullable); the schema itself is
// checked by the injected callbacks: schemaErrors (OpenAPI and structural
// rules, defaults; crd-schema) and ruleErrors (x-kubernetes-validations and
// their cost; crd-cel).
import { type FieldError, type FieldPath, forbidden, invalid } from '../../api/meta/field.js';
import type { JSONSchemaProps } from '../types.js';
import { goSchemaValue } from './gotext.js';
import type { InternalValidation } from './internal.js';
import type { ValidationOptions } from './options.js';

/** schemaErrors / ruleErrors: a schema, its field path (`spec.validation.openAPIV3Schema`) and the options. */
export type SchemaCheck = (schema: JSONSchemaProps, path: string, opts: ValidationOptions) => FieldError[];

export interface SchemaDeps {
  /** The OpenAPI and structural rules of the schema and its defaults (kube's SchemaErrors). */
  schemaErrors: SchemaCheck;
  /** The x-kubernetes-validations compile and cost errors (kube's CELErrors and the whole-schema cost). */
  ruleErrors: SchemaCheck;
  /**
   * kube compiles rules only when the schema is structural and its defaults are
   * valid (its CELSchemaContext exists). With this, rules are checked then and
   * a rule is dropped when its own subtree has schema errors, as kube does;
   * without it, rules are checked only when schemaErrors found nothing.
   */
  celReady?(schema: JSONSchemaProps, opts: ValidationOptions): boolean;
}

/** The Go fields allowed at the root with the status subresource, printed as kube prints the list. */
const ALLOWED_AT_ROOT = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];

/** JSONSchemaProps' fields in Go order: the JSON key and whether a value there is Go's zero value. */
type Zero = 'string' | 'bool' | 'pointer' | 'collection';
const ROOT_FIELDS: [string, string, Zero][] = [
  ['ID', 'id', 'string'], ['Schema', '$schema', 'string'], ['Ref', '$ref', 'pointer'], ['Description', 'description', 'string'],
  ['Type', 'type', 'string'], ['Nullable', 'nullable', 'bool'], ['Format', 'format', 'string'], ['Title', 'title', 'string'],
  ['Default', 'default', 'pointer'], ['Maximum', 'maximum', 'pointer'], ['ExclusiveMaximum', 'exclusiveMaximum', 'bool'],
  ['Minimum', 'minimum', 'pointer'], ['ExclusiveMinimum', 'exclusiveMinimum', 'bool'], ['MaxLength', 'maxLength', 'pointer'],
  ['MinLength', 'minLength', 'pointer'], ['Pattern', 'pattern', 'string'], ['MaxItems', 'maxItems', 'pointer'], ['MinItems', 'minItems', 'pointer'],
  ['UniqueItems', 'uniqueItems', 'bool'], ['MultipleOf', 'multipleOf', 'pointer'], ['Enum', 'enum', 'collection'],
  ['MaxProperties', 'maxProperties', 'pointer'], ['MinProperties', 'minProperties', 'pointer'], ['Required', 'required', 'collection'],
  ['Items', 'items', 'pointer'], ['AllOf', 'allOf', 'collection'], ['OneOf', 'oneOf', 'collection'], ['AnyOf', 'anyOf', 'collection'],
  ['Not', 'not', 'pointer'], ['Properties', 'properties', 'collection'], ['AdditionalProperties', 'additionalProperties', 'pointer'],
  ['PatternProperties', 'patternProperties', 'collection'], ['Dependencies', 'dependencies', 'collection'],
  ['AdditionalItems', 'additionalItems', 'pointer'], ['Definitions', 'definitions', 'collection'], ['ExternalDocs', 'externalDocs', 'pointer'],
  ['Example', 'example', 'pointer'], ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields', 'pointer'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource', 'bool'], ['XIntOrString', 'x-kubernetes-int-or-string', 'bool'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys', 'collection'], ['XListType', 'x-kubernetes-list-type', 'pointer'],
  ['XMapType', 'x-kubernetes-map-type', 'pointer'], ['XValidations', 'x-kubernetes-validations', 'collection'],
];

function isZero(v: unknown, zero: Zero): boolean {
  if (v === undefined || v === null) return true;
  if (zero === 'string') return v === '';
  if (zero === 'bool') return v === false;
  return false; // a present pointer, or a present (even empty) slice or map
}

function statusRootErrors(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const s = schema as Record<string, unknown>;
  for (const [goName, key, zero] of ROOT_FIELDS) {
    if (isZero(s[key], zero)) continue;
    if (goName === 'Type') {
      if (schema.type !== 'object') return [invalid(path.child('openAPIV3Schema.type'), schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(goName)) {
      return [invalid(path.child('openAPIV3Schema'), goSchemaValue(schema), `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

const RULES = '.x-kubernetes-validations[';

/** A rule error's schema node ("…properties[spec]" of "…properties[spec].x-kubernetes-validations[0].rule"), or undefined for whole-schema errors. */
function ruleNode(field: string): string | undefined {
  const at = field.lastIndexOf(RULES);
  return at < 0 ? undefined : field.slice(0, at);
}

const within = (field: string, node: string) => field === node || field.startsWith(`${node}.`) || field.startsWith(`${node}[`);

export function validateSchemaOf(validation: InternalValidation | undefined, statusEnabled: boolean, opts: ValidationOptions, deps: SchemaDeps, path: FieldPath): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!schema) return [];
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...statusRootErrors(schema, path));
  if (schema.nullable === true) errs.push(forbidden(path.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));
  const at = String(path.child('openAPIV3Schema'));
  const schemaErrs = deps.schemaErrors(schema, at, opts);
  errs.push(...schemaErrs);
  if (!opts.requireStructuralSchema) return errs;
  if (deps.celReady) {
    if (deps.celReady(schema, opts)) {
      for (const e of deps.ruleErrors(schema, at, opts)) {
        const node = ruleNode(e.field);
        if (node === undefined || !schemaErrs.some((s) => within(s.field, node))) errs.push(e);
      }
    }
  } else if (schemaErrs.length === 0) errs.push(...deps.ruleErrors(schema, at, opts));
  return errs;
}
