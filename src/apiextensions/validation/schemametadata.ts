// apiVersion, kind and metadata of the resources inside a default value, as
// kube checks them (pkg/apiserver/schema/objectmeta: Coerce then Validate):
// in every embedded resource (and the resource root when asked), apiVersion and
// kind must be strings and metadata must decode as ObjectMeta (Coerce: the
// first problem only), then apiVersion and kind are required and well formed
// and metadata passes ValidateObjectMeta (name "fakename" when empty).
import { invalid, required, type FieldError } from '../../api/meta/field.js';
import { dns1035LabelErrors, pathSegmentNameErrors, validateObjectMeta, type MetaLike } from '../../api/meta/validation.js';
import { ObjectMeta } from '../../schema/common.js';
import { goDecodeError } from '../../schema/gotypes.js';
import { isObject } from '../../schema/model.js';
import type { JSONSchemaProps } from '../types.js';
import { goJson } from './schemagovalue.js';

const join = (path: string, k: string) => (path ? `${path}.${k}` : k);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const embedded = (s: JSONSchemaProps) => s['x-kubernetes-embedded-resource'] === true;

function childSchema(s: JSONSchemaProps, k: string): [JSONSchemaProps | undefined, boolean] {
  if (s.properties && has(s.properties, k)) return [s.properties[k], true];
  const ap = s.additionalProperties;
  return [typeof ap === 'object' && ap !== null ? ap : undefined, typeof ap === 'object' && ap !== null];
}

/** Coerce: the first type problem of apiVersion/kind/metadata in embedded resources under `x`, or undefined. */
export function coerceError(path: string, x: unknown, s: JSONSchemaProps | undefined, isResourceRoot: boolean): FieldError | undefined {
  if (s === undefined) return undefined;
  const schema = isResourceRoot && !embedded(s) ? { ...s, 'x-kubernetes-embedded-resource': true } : s;
  return coerce(path, x, schema);
}

function coerce(path: string, x: unknown, s: JSONSchemaProps): FieldError | undefined {
  if (Array.isArray(x)) {
    const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
    if (!items) return undefined;
    for (let i = 0; i < x.length; i++) {
      const e = coerce(`${path}[${i}]`, x[i], items);
      if (e) return e;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  for (const [k, v] of Object.entries(x)) {
    if (embedded(s)) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string') return invalid(join(path, k), v, 'must be a string');
      if (k === 'metadata') {
        const err = goDecodeError(ObjectMeta.schema, v, 'ObjectMeta');
        if (err !== undefined) return invalid(join(path, 'metadata'), goJson(v), err);
      }
    }
    const [sub, known] = childSchema(s, k);
    if (known && sub) {
      const e = coerce(s.properties && has(s.properties, k) ? join(path, k) : `${path}[${k}]`, v, sub);
      if (e) return e;
    }
  }
  return undefined;
}

/** Validate: apiVersion, kind and ObjectMeta of every embedded resource under `x`. */
export function embeddedMetaErrors(path: string, x: unknown, s: JSONSchemaProps | undefined, isResourceRoot: boolean): FieldError[] {
  if (s === undefined) return [];
  const schema = isResourceRoot && !embedded(s) ? { ...s, 'x-kubernetes-embedded-resource': true } : s;
  const errs: FieldError[] = [];
  walk(path, x, schema, errs);
  return errs;
}

function walk(path: string, x: unknown, s: JSONSchemaProps, errs: FieldError[]): void {
  if (Array.isArray(x)) {
    const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
    if (items) x.forEach((v, i) => walk(`${path}[${i}]`, v, items, errs));
    return;
  }
  if (!isObject(x)) return;
  if (embedded(s)) errs.push(...resource(path, x));
  for (const [k, v] of Object.entries(x)) {
    if (s.properties && has(s.properties, k)) walk(join(path, k), v, s.properties[k]!, errs);
    else if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) walk(`${path}[${k}]`, v, s.additionalProperties, errs);
  }
}

function resource(path: string, x: { [k: string]: unknown }): FieldError[] {
  const errs: FieldError[] = [];
  if (!has(x, 'apiVersion')) errs.push(required(join(path, 'apiVersion'), 'must not be empty'));
  if (!has(x, 'kind')) errs.push(required(join(path, 'kind'), 'must not be empty'));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(join(path, k), v, 'must be a string'));
      else if (v === '') errs.push(invalid(join(path, k), v, 'must not be empty'));
      else if (v.split('/').length > 2) errs.push(invalid(join(path, k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(join(path, k), v, 'must be a string'));
      else if (v === '') errs.push(invalid(join(path, k), v, 'must not be empty'));
      else {
        const e = dns1035LabelErrors(v.toLowerCase());
        if (e.length) errs.push(invalid(join(path, k), v, `may have mixed case, but should otherwise match: ${e.join(',')}`));
      }
    } else if (k === 'metadata') {
      const decodeErr = goDecodeError(ObjectMeta.schema, v, 'ObjectMeta');
      if (decodeErr !== undefined) {
        errs.push(invalid(join(path, 'metadata'), goJson(v), decodeErr));
        continue;
      }
      const meta = { ...(isObject(v) ? v : {}) } as MetaLike;
      if (!meta.name) meta.name = 'fakename';
      const metaErrs = validateObjectMeta(meta, { namespaced: !!meta.namespace, validateName: pathSegmentNameErrors });
      // validateObjectMeta names fields from "metadata"; place them under this resource
      for (const e of metaErrs) errs.push({ ...e, field: path ? `${path}.${e.field}` : e.field });
    }
  }
  return errs;
}
