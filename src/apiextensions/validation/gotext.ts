// Go's %#v rendering of the internal apiextensions types, for the values
// kube-apiserver prints in "Invalid value: …" messages about CRDs (a version,
// the version list, the root schema). fmt prints a struct field by field in
// declaration order, nested pointers as `(*T)(0xc…)` addresses and maps with
// sorted keys; an address differs on every run in Go, so ours is one fixed
// placeholder (the only part of these texts that cannot match byte for byte).
import { GoValue } from '../../api/meta/govalue.js';
import { goQuote } from '../../cel/goquote.js';
import type { JSONSchemaProps } from '../types.js';
import type { InternalVersion } from './internal.js';

const PKG = 'apiextensions';
const ADDRESS = '0xc000000000';
const q = goQuote;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function ptr(type: string, present: boolean): string {
  return present ? `(*${type})(${ADDRESS})` : `(*${type})(nil)`;
}

function slice<T>(type: string, xs: readonly T[] | undefined | null, item: (x: T) => string): string {
  return xs ? `${type}{${xs.map(item).join(', ')}}` : `${type}(nil)`;
}

function map<T>(type: string, m: Record<string, T> | undefined | null, item: (x: T) => string): string {
  if (!m) return `${type}(nil)`;
  return `${type}{${Object.keys(m)
    .sort()
    .map((k) => `${q(k)}:${item(m[k] as T)}`)
    .join(', ')}}`;
}

/** A JSON value held in an interface{} (apiextensions.JSON), as fmt prints it. */
function anyValue(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return q(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(anyValue).join(', ')}}`;
  return map('map[string]interface {}', v as Obj, anyValue);
}

function struct(type: string, fields: [string, string][]): string {
  return `${PKG}.${type}{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

const str = (v: unknown) => q(typeof v === 'string' ? v : '');
const bool = (v: unknown) => String(v === true);
const int = (v: unknown) => String(typeof v === 'number' ? v : 0);
const has = (v: unknown) => v !== undefined && v !== null;

/** apiextensions.JSONSchemaProps{…} (the internal form of a v1 schema). */
export function goSchema(s: JSONSchemaProps): string {
  const items = s.items;
  const props = (m: Record<string, JSONSchemaProps> | undefined) => map(`map[string]${PKG}.JSONSchemaProps`, m, goSchema);
  const schemas = (xs: JSONSchemaProps[] | undefined) => slice(`[]${PKG}.JSONSchemaProps`, xs, goSchema);
  return struct('JSONSchemaProps', [
    ['ID', str(s.id)],
    ['Schema', str(s.$schema)],
    ['Ref', ptr('string', has(s.$ref))],
    ['Description', str(s.description)],
    ['Type', str(s.type)],
    ['Nullable', bool(s.nullable)],
    ['Format', str(s.format)],
    ['Title', str(s.title)],
    ['Default', ptr(`${PKG}.JSON`, has(s.default))],
    ['Maximum', ptr('float64', has(s.maximum))],
    ['ExclusiveMaximum', bool(s.exclusiveMaximum)],
    ['Minimum', ptr('float64', has(s.minimum))],
    ['ExclusiveMinimum', bool(s.exclusiveMinimum)],
    ['MaxLength', ptr('int64', has(s.maxLength))],
    ['MinLength', ptr('int64', has(s.minLength))],
    ['Pattern', str(s.pattern)],
    ['MaxItems', ptr('int64', has(s.maxItems))],
    ['MinItems', ptr('int64', has(s.minItems))],
    ['UniqueItems', bool(s.uniqueItems)],
    ['MultipleOf', ptr('float64', has(s.multipleOf))],
    ['Enum', slice(`[]${PKG}.JSON`, s.enum as unknown[] | undefined, anyValue)],
    ['MaxProperties', ptr('int64', has(s.maxProperties))],
    ['MinProperties', ptr('int64', has(s.minProperties))],
    ['Required', slice('[]string', s.required, q)],
    ['Items', ptr(`${PKG}.JSONSchemaPropsOrArray`, has(items))],
    ['AllOf', schemas(s.allOf)],
    ['OneOf', schemas(s.oneOf)],
    ['AnyOf', schemas(s.anyOf)],
    ['Not', ptr(`${PKG}.JSONSchemaProps`, has(s.not))],
    ['Properties', props(s.properties)],
    ['AdditionalProperties', ptr(`${PKG}.JSONSchemaPropsOrBool`, has(s.additionalProperties))],
    ['PatternProperties', props(s.patternProperties)],
    ['Dependencies', map(`${PKG}.JSONSchemaDependencies`, s.dependencies, (d) => struct('JSONSchemaPropsOrStringArray', [
      ['Schema', ptr(`${PKG}.JSONSchemaProps`, !Array.isArray(d))],
      ['Property', slice('[]string', Array.isArray(d) ? d : undefined, q)],
    ]))],
    ['AdditionalItems', ptr(`${PKG}.JSONSchemaPropsOrBool`, has(s.additionalItems))],
    ['Definitions', map(`${PKG}.JSONSchemaDefinitions`, s.definitions, goSchema)],
    ['ExternalDocs', ptr(`${PKG}.ExternalDocumentation`, has(s.externalDocs))],
    ['Example', ptr(`${PKG}.JSON`, has(s.example))],
    ['XPreserveUnknownFields', ptr('bool', has(s['x-kubernetes-preserve-unknown-fields']))],
    ['XEmbeddedResource', bool(s['x-kubernetes-embedded-resource'])],
    ['XIntOrString', bool(s['x-kubernetes-int-or-string'])],
    ['XListMapKeys', slice('[]string', s['x-kubernetes-list-map-keys'], q)],
    ['XListType', ptr('string', has(s['x-kubernetes-list-type']))],
    ['XMapType', ptr('string', has(s['x-kubernetes-map-type']))],
    ['XValidations', slice(`${PKG}.ValidationRules`, s['x-kubernetes-validations'], (r) => struct('ValidationRule', [
      ['Rule', str(r.rule)],
      ['Message', str(r.message)],
      ['MessageExpression', str(r.messageExpression)],
    ]))],
  ]);
}

/** apiextensions.CustomResourceDefinitionVersion{…}. */
export function goVersionText(v: InternalVersion): string {
  return struct('CustomResourceDefinitionVersion', [
    ['Name', str(v.name)],
    ['Served', bool(v.served)],
    ['Storage', bool(v.storage)],
    ['Deprecated', bool(v.deprecated)],
    ['DeprecationWarning', ptr('string', has(v.deprecationWarning))],
    ['Schema', ptr(`${PKG}.CustomResourceValidation`, has(v.schema))],
    ['Subresources', ptr(`${PKG}.CustomResourceSubresources`, has(v.subresources))],
    ['AdditionalPrinterColumns', slice(`[]${PKG}.CustomResourceColumnDefinition`, v.additionalPrinterColumns, (c) => struct('CustomResourceColumnDefinition', [
      ['Name', str(c.name)],
      ['Type', str(c.type)],
      ['Format', str(c.format)],
      ['Description', str(c.description)],
      ['Priority', int(c.priority)],
      ['JSONPath', str(c.jsonPath)],
    ]))],
  ]);
}

export const goVersion = (v: InternalVersion): GoValue => new GoValue(v, goVersionText(v));
export const goVersions = (vs: readonly InternalVersion[], absent = false): GoValue =>
  new GoValue(vs, slice(`[]${PKG}.CustomResourceDefinitionVersion`, absent ? undefined : vs, goVersionText));
export const goSchemaValue = (s: JSONSchemaProps): GoValue => new GoValue(s, goSchema(s));
