// The OpenAPI-level rules of a CRD's openAPIV3Schema, node by node (kube's
// ValidateCustomResourceDefinitionOpenAPISchema and its specStandardValidator):
// keywords CRDs refuse, properties vs additionalProperties, defaults where
// they are forbidden, the x-kubernetes-* markers (preserve-unknown-fields,
// map-type, list-type, list-map-keys, embedded-resource inside metadata), and
// the static checks of x-kubernetes-validations. Schema errors and the CEL
// hook's errors are kept apart: CEL errors come after every schema error, and
// a node's rules are compiled only when nothing is wrong at or below it.
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../api/meta/field.js';
import type { JSONSchemaProps } from '../types.js';
import type { CelRuleSite, CelStep, SchemaValidationOptions } from './schemaoptions.js';

export const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'] as const;
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** What a node inherits from its parents (kube's specStandardValidatorV3). */
interface NodeState {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
  /** The highest path below which oldSelf cannot be correlated. */
  uncorrelatable?: string;
  /** Steps from the root through properties/items/additionalProperties; undefined under junctors (no CEL there). */
  steps?: CelStep[];
}

export interface OpenAPIErrors {
  schema: FieldError[];
  cel: FieldError[];
}

/** Walks the schema at `path`; `cel` (when given and the schema is structural) compiles each node's rules. */
export function validateOpenAPISchema(root: JSONSchemaProps, path: string, opts: SchemaValidationOptions, celEnabled: boolean): OpenAPIErrors {
  const state: NodeState = {
    allowDefaults: opts.allowDefaults,
    disallowDefaultsReason: opts.disallowDefaultsReason ?? '',
    insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType,
    ...(celEnabled ? { steps: [] } : {}),
  };
  return node(root, fieldPath(path), state, true, opts, root);
}

const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);
const set = (v: unknown) => v !== undefined && v !== null;

function forbidDefaults(st: NodeState, reason: string): NodeState {
  return { ...st, allowDefaults: false, disallowDefaultsReason: reason };
}
function forbidOldSelf(st: NodeState, at: FieldPath): NodeState {
  return st.uncorrelatable !== undefined ? st : { ...st, uncorrelatable: String(at) };
}
function step(st: NodeState, s: CelStep): NodeState {
  return st.steps ? { ...st, steps: [...st.steps, s] } : st;
}
function noCel(st: NodeState): NodeState {
  if (!st.steps) return st;
  const { steps: _drop, ...rest } = st;
  return rest;
}

function standard(s: JSONSchemaProps, at: FieldPath, st: NodeState): FieldError[] {
  const errs: FieldError[] = [];
  const type = s.type as string | undefined;
  if (st.requireValidPropertyType && type && !(OPENAPI_V3_TYPES as readonly string[]).includes(type)) errs.push(notSupported(at.child('type'), type, OPENAPI_V3_TYPES));
  if (set(s.default) && !st.allowDefaults) errs.push(forbidden(at.child('default'), `must not be set${st.disallowDefaultsReason ? ` ${st.disallowDefaultsReason}` : ''}`));
  if (s.id) errs.push(forbidden(at.child('id'), 'id is not supported'));
  if (set(s.additionalItems)) errs.push(forbidden(at.child('additionalItems'), 'additionalItems is not supported'));
  if (s.patternProperties && Object.keys(s.patternProperties).length) errs.push(forbidden(at.child('patternProperties'), 'patternProperties is not supported'));
  if (s.definitions && Object.keys(s.definitions).length) errs.push(forbidden(at.child('definitions'), 'definitions is not supported'));
  if (set(s.dependencies)) errs.push(forbidden(at.child('dependencies'), 'dependencies is not supported'));
  if (set(s.$ref)) errs.push(forbidden(at.child('$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(forbidden(at.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length) errs.push(forbidden(at.child('items'), 'items must be a schema object and not an array'));
  if (st.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) errs.push(forbidden(at.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  return errs;
}

function node(s: JSONSchemaProps, at: FieldPath, st: NodeState, isRoot: boolean, opts: SchemaValidationOptions, root: JSONSchemaProps): OpenAPIErrors {
  const out: OpenAPIErrors = { schema: standard(s, at, st), cel: [] };
  const add = (r: OpenAPIErrors) => (out.schema.push(...r.schema), out.cel.push(...r.cel));
  const recurse = (x: JSONSchemaProps, p: FieldPath, sub: NodeState) => add(node(x, p, sub, false, opts, root));
  if (s.uniqueItems === true) out.schema.push(forbidden(at.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const props = s.properties ?? {};
  const hasProps = Object.keys(props).length > 0;
  const ap = s.additionalProperties;
  if (set(ap)) {
    if (hasProps && (ap === false || isSchema(ap))) out.schema.push(forbidden(at.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    const sub = st.insideResourceMeta ? forbidDefaults(st, 'inside additionalProperties applying to object metadata') : st;
    if (isSchema(ap)) recurse(ap, at.child('additionalProperties'), step(sub, { kind: 'additionalProperties' }));
  }
  const mapType = s['x-kubernetes-map-type'] as string | undefined;
  for (const [k, p] of Object.entries(props)) {
    let sub = st;
    if (!(mapType === undefined || mapType === 'granular' || mapType === 'atomic')) sub = forbidOldSelf(sub, at);
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${k}`);
    }
    recurse(p, at.child('properties').key(k), step(sub, { kind: 'property', name: k }));
  }
  const plain = noCel(st);
  if (isSchema(s.not)) recurse(s.not, at.child('not'), plain);
  (s.allOf ?? []).forEach((x, i) => recurse(x, at.child('allOf').index(i), plain));
  (s.oneOf ?? []).forEach((x, i) => recurse(x, at.child('oneOf').index(i), plain));
  (s.anyOf ?? []).forEach((x, i) => recurse(x, at.child('anyOf').index(i), plain));
  for (const [k, x] of Object.entries(s.definitions ?? {})) recurse(x, at.child('definitions').key(k), plain);
  const listType = s['x-kubernetes-list-type'] as string | undefined;
  if (set(s.items)) {
    const sub = listType !== 'map' ? forbidOldSelf(st, at) : st;
    if (isSchema(s.items)) recurse(s.items, at.child('items'), step(sub, { kind: 'items' }));
    else (s.items as JSONSchemaProps[]).forEach((x, i) => recurse(x, at.child('items').index(i), step(sub, { kind: 'items' })));
  }
  for (const [k, d] of Object.entries(s.dependencies ?? {})) if (isSchema(d)) recurse(d, at.child('dependencies').key(k), plain);
  out.schema.push(...markers(s, at, opts));
  out.schema.push(...staticRuleChecks(s, at));
  if (s['x-kubernetes-validations']?.length && out.schema.length === 0 && st.steps && opts.cel) {
    const site: CelRuleSite = { root, schema: s, path: String(at), steps: st.steps, ...(st.uncorrelatable !== undefined ? { uncorrelatablePath: st.uncorrelatable } : {}) };
    out.cel.push(...opts.cel.rules(site));
  }
  return out;
}

function markers(s: JSONSchemaProps, at: FieldPath, opts: SchemaValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = (s.type as string | undefined) ?? '';
  const mapType = s['x-kubernetes-map-type'] as string | undefined | null;
  const listType = s['x-kubernetes-list-type'] as string | undefined | null;
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const items = s.items;
  const itemSchema = isSchema(items) ? items : undefined;
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errs.push(invalid(at.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  if (set(mapType) && type !== 'object') {
    const d = 'must be object if x-kubernetes-map-type is specified';
    errs.push(type === '' ? required(at.child('type'), d) : invalid(at.child('type'), type, d));
  }
  if (set(mapType) && mapType !== 'atomic' && mapType !== 'granular') errs.push(notSupported(at.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  if (set(listType) && type !== 'array') {
    const d = 'must be array if x-kubernetes-list-type is specified';
    errs.push(type === '' ? required(at.child('type'), d) : invalid(at.child('type'), type, d));
  } else if (opts.requireAtomicSetType && listType === 'set' && itemSchema) {
    const d = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = itemSchema['x-kubernetes-list-type'];
    if (itemSchema.type === 'array' && set(itemListType) && itemListType !== 'atomic') errs.push(invalid(at.child('items').child('x-kubernetes-list-type'), itemListType, d));
    // kube shows the items' list type here too (unset for an object, so null)
    if (itemSchema.type === 'object' && itemSchema['x-kubernetes-map-type'] !== 'atomic') errs.push(invalid(at.child('items').child('x-kubernetes-map-type'), itemListType ?? null, d));
  }
  if (set(listType) && listType !== 'atomic' && listType !== 'set' && listType !== 'map') errs.push(notSupported(at.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  if (keys.length > 0) {
    const d = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (!set(listType)) errs.push(required(at.child('x-kubernetes-list-type'), d));
    else if (listType !== 'map') errs.push(invalid(at.child('x-kubernetes-list-type'), listType, d));
  }
  if (listType === 'map') {
    if (keys.length === 0) errs.push(required(at.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (!set(items)) errs.push(required(at.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (set(items) && !itemSchema) errs.push(invalid(at.child('items'), items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (itemSchema && itemSchema.type !== 'object') errs.push(invalid(at.child('items').child('type'), itemSchema.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (itemSchema && itemSchema.type === 'object') {
      const seen = new Set<string>();
      const itemProps = itemSchema.properties ?? {};
      for (const k of keys) {
        if (Object.prototype.hasOwnProperty.call(itemProps, k)) {
          const kt = itemProps[k]!.type;
          // kube shows the item's type ("object") as the value
          if (kt === 'array' || kt === 'object') errs.push(invalid(at.child('items').child('properties').key(k).child('type'), itemSchema.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        } else {
          errs.push(invalid(at.child('x-kubernetes-list-map-keys'), keys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(invalid(at.child('x-kubernetes-list-map-keys'), keys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSet(s, at));
  return errs;
}

/** Set and map lists: items not nullable; map keys required or defaulted, and not nullable. */
export function mapListKeysMapSet(s: JSONSchemaProps, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const items = isSchema(s.items) ? s.items : undefined;
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return errs;
  if (items.nullable === true) errs.push(forbidden(at.child('items').child('nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errs;
  const req = new Set(items.required ?? []);
  for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
    const p = items.properties && Object.prototype.hasOwnProperty.call(items.properties, k) ? items.properties[k]! : undefined;
    if (!p) continue;
    const kp = at.child('items').child('properties').key(k);
    if (!req.has(k) && !set(p.default)) errs.push(required(kp.child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    if (p.nullable === true) errs.push(forbidden(kp.child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errs;
}

const NEWLINES = /[\n\r]+/;
/** Go's strings.TrimSpace (Unicode white space). */
const trim = (v: string | undefined) => (v ?? '').replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');

function staticRuleChecks(s: JSONSchemaProps, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (s['x-kubernetes-validations'] ?? []).forEach((r, i) => {
    const p = at.child('x-kubernetes-validations').index(i);
    const rule = trim(r.rule);
    const msg = trim(r.message);
    if (rule.length === 0) errs.push(required(p.child('rule'), 'rule is not specified'));
    else if ((r.message ?? '').length > 0 && msg.length === 0) errs.push(invalid(p.child('message'), r.message, 'message must be non-empty if specified'));
    else if (NEWLINES.test(msg)) errs.push(invalid(p.child('message'), r.message, 'message must not contain line breaks'));
    else if (NEWLINES.test(rule) && msg.length === 0) errs.push(required(p.child('message'), 'message must be specified if rule contains line breaks'));
    if ((r.messageExpression ?? '').length > 0 && trim(r.messageExpression).length === 0) errs.push(required(p.child('messageExpression'), 'messageExpression must be non-empty if specified'));
  });
  return errs;
}
