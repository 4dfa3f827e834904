// The structural-schema rules of a CRD's openAPIV3Schema (kube's
// ValidateStructural, pkg/apiserver/schema/validation.go and complete.go):
// a type everywhere (but under int-or-string or preserve-unknown-fields),
// only value validations inside allOf/anyOf/oneOf/not, embedded resources
// typed object, metadata restricted at the root, and every field a junctor
// names also specified outside it. Errors are sorted by their text, as kube
// sorts them.
import { errorBody, fieldPath, forbidden, invalid, required, type FieldError, type FieldPath } from '../../api/meta/field.js';
import type { JSONSchemaProps } from '../types.js';
import { regexpError } from './schemaregexp.js';

type Level = 'root' | 'item' | 'field';

/** The structural-schema errors of `schema` (the openAPIV3Schema at `path`), sorted as kube sorts them. */
export function validateStructural(schema: JSONSchemaProps, path: string): FieldError[] {
  const at = fieldPath(path);
  const errs = [...invariants(schema, 'root', at), ...completeness(schema, at)];
  const text = (e: FieldError) => `${e.field}: ${errorBody(e)}`;
  return errs.map((e) => [text(e), e] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
}

const set = (v: unknown) => v !== undefined && v !== null;
const nonEmpty = (v: unknown[] | undefined) => v !== undefined && v !== null && v.length > 0;
const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);
const itemsOf = (s: JSONSchemaProps) => (isSchema(s.items) ? s.items : undefined);

function invariants(s: JSONSchemaProps, lvl: Level, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type ?? '';
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (type === 'array' && itemsOf(s) === undefined) errs.push(required(at.child('items'), 'must be specified'));
  const items = itemsOf(s);
  if (items) errs.push(...invariants(items, 'item', at.child('items')));
  for (const [k, p] of Object.entries(s.properties ?? {})) errs.push(...invariants(p, 'field', at.child('properties').key(k)));
  // generic: additionalProperties
  if (set(s.additionalProperties)) {
    if (lvl === 'root') errs.push(forbidden(at.child('additionalProperties'), 'must not be used at the root'));
    if (isSchema(s.additionalProperties)) errs.push(...invariants(s.additionalProperties, 'field', at.child('additionalProperties')));
  }
  // extensions
  if (intOrString && preserve) errs.push(invalid(at.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalid(at.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  const skipAnyOf = isIntOrStringAnyOf(s.anyOf);
  const skipFirstAllOfAnyOf = nonEmpty(s.allOf) && isIntOrStringAnyOf(s.allOf![0]!.anyOf);
  errs.push(...valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, at));
  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    const d = 'must be object if x-kubernetes-embedded-resource is true';
    errs.push(type === '' ? required(at.child('type'), d) : invalid(at.child('type'), type, d));
  } else if (type === '' && !intOrString && !preserve) {
    const where = lvl === 'root' ? 'at the root' : lvl === 'item' ? 'for specified array items' : 'for specified object fields';
    errs.push(required(at.child('type'), `must not be empty ${where}`));
  }
  if (embedded && set(s.additionalProperties)) errs.push(forbidden(at.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(invalid(at.child('type'), type, 'must be object at the root'));
  const props = s.properties ?? {};
  for (const k of ['kind', 'apiVersion']) {
    if (checkMetadata && Object.prototype.hasOwnProperty.call(props, k) && props[k]!.type !== 'string') {
      errs.push(invalid(at.child('properties').key(k).child('type'), props[k]!.type ?? '', 'must be string'));
    }
  }
  if (Object.prototype.hasOwnProperty.call(props, 'metadata')) errs.push(...metadataInvariants(props.metadata!, checkMetadata, lvl, at.child('properties').key('metadata')));
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(required(at.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** Keywords a root metadata schema may not carry (all but type, default and the properties name/generateName). */
const METADATA_FORBIDDEN: readonly (keyof JSONSchemaProps)[] = [
  'description', 'title', 'additionalProperties', 'items', 'format', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties', 'minProperties',
  'required', 'allOf', 'anyOf', 'oneOf', 'not', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(invalid(at.child('type'), s.type ?? '', 'must be object'));
  if (lvl !== 'root') return errs;
  const names = Object.keys(s.properties ?? {});
  const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
  const other = (names.length > 0 && !onlyNames) || s.nullable === true || METADATA_FORBIDDEN.some((k) => {
    const v = s[k];
    return v !== undefined && v !== null && v !== false && v !== '';
  });
  if (other) errs.push(forbidden(at, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  return errs;
}

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (anyOf === undefined || anyOf === null || anyOf.length !== 2) return false;
  const only = (x: JSONSchemaProps, t: string) => x.type === t && Object.keys(x).every((k) => k === 'type' || (x as Record<string, unknown>)[k] === undefined);
  return only(anyOf[0]!, 'integer') && only(anyOf[1]!, 'string');
}

function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((x, i) => errs.push(...nested(x, false, false, lvl, at.child('anyOf').index(i))));
  (s.allOf ?? []).forEach((x, i) => errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, false, lvl, at.child('allOf').index(i))));
  (s.oneOf ?? []).forEach((x, i) => errs.push(...nested(x, false, false, lvl, at.child('oneOf').index(i))));
  if (set(s.not)) errs.push(...nested(s.not!, false, false, lvl, at.child('not')));
  if (s.pattern) {
    const e = regexpError(s.pattern);
    if (e !== undefined) errs.push(invalid(at.child('pattern'), s.pattern, `must be a valid regular expression, but isn't: ${e}`));
  }
  return errs;
}

const NESTED_FORBIDDEN: [keyof JSONSchemaProps, string, (v: unknown) => boolean][] = [
  ['type', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['additionalProperties', 'must be undefined to be structural', set],
  ['default', 'must be undefined to be structural', set],
  ['title', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['description', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['nullable', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-embedded-resource', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-int-or-string', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural', (v) => Array.isArray(v) && v.length > 0],
  ['x-kubernetes-list-type', 'must be undefined to be structural', set],
  ['x-kubernetes-map-type', 'must be undefined to be structural', set],
  ['x-kubernetes-validations', 'must be empty to be structural', (v) => Array.isArray(v) && v.length > 0],
];

/** A junctor branch: value validations only. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, skipAllOfAnyOf: boolean, lvl: Level, at: FieldPath): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, skipAllOfAnyOf, lvl, at);
  const items = itemsOf(v);
  if (items) errs.push(...nested(items, false, false, lvl, at.child('items')));
  for (const [k, p] of Object.entries(v.properties ?? {})) errs.push(...nested(p, false, false, 'field', at.child('properties').key(k)));
  for (const [k, msg, isSet] of NESTED_FORBIDDEN) if (isSet(v[k])) errs.push(forbidden(at.child(k), msg));
  if (v.properties && Object.prototype.hasOwnProperty.call(v.properties, 'metadata')) {
    errs.push(forbidden(at.child('properties').key('metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

/** Every field or array a root junctor names must be specified outside the junctors too. */
function completeness(s: JSONSchemaProps, at: FieldPath): FieldError[] {
  return junctorCompleteness(s, s, at, at);
}

function junctorCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (set(v.not)) errs.push(...nestedCompleteness(v.not!, s, sPath, vPath.child('not')));
  (v.allOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('allOf').index(i))));
  (v.anyOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('anyOf').index(i))));
  (v.oneOf ?? []).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, vPath.child('oneOf').index(i))));
  return errs;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: FieldPath, vPath: FieldPath): FieldError[] {
  if (s === undefined) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = junctorCompleteness(v, s, sPath, vPath);
  const vItems = itemsOf(v);
  if (vItems) errs.push(...nestedCompleteness(vItems, itemsOf(s), sPath.child('items'), vPath.child('items')));
  for (const [k, vf] of Object.entries(v.properties ?? {})) {
    const sf = s.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
    const sp = sPath.child('properties').key(k);
    const vp = vPath.child('properties').key(k);
    if (sf === undefined) errs.push(required(sp, `because it is defined in ${vp}`));
    else errs.push(...nestedCompleteness(vf, sf, sp, vp));
  }
  return errs;
}
