// Unknown fields: object keys the schema does not describe, found by one walk
// that pruning (prune.ts) shares. A key is known when it is a property, when
// the object is a map (additionalProperties) or keeps unknown fields
// (x-kubernetes-preserve-unknown-fields), or when the object is an embedded
// resource and the key is apiVersion, kind or metadata (checked as ObjectMeta).
// Values whose type does not match the schema are left to validation.
// Paths read like Kubernetes' field-validation messages: `spec.foo`,
// `spec.containers[0].bogus`, `metadata.labels` never (a map).
import { ObjectMeta } from './common.js';
import { isObject, type Schema } from './model.js';
import { PathStack } from './path.js';
import { propertyIndex } from './properties.js';

/** Called for each unknown key, with the object holding it and the key's path. */
export type UnknownVisitor = (parent: { [key: string]: unknown }, key: string, path: string) => void;

/** Visits every unknown key under `value`, depth first in document order; `path` is the path of `value`. */
export function walkUnknown(s: Schema, value: unknown, path: string, visit: UnknownVisitor): void {
  walk(s, value, new PathStack(path), visit);
}

function walk(s: Schema, value: unknown, at: PathStack, visit: UnknownVisitor): void {
  if (Array.isArray(value)) {
    const items = s.items;
    if (items === undefined || (s.type !== undefined && s.type !== 'array')) return;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v !== 'object' || v === null) continue;
      at.push(i);
      walk(items, v, at, visit);
      at.pop();
    }
    return;
  }
  if (!isObject(value) || (s.type !== undefined && s.type !== 'object') || s['x-kubernetes-int-or-string']) return;
  const props = s.properties === undefined ? undefined : propertyIndex(s.properties);
  const extra = s.additionalProperties;
  const keep = s['x-kubernetes-preserve-unknown-fields'] === true || extra === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  for (const k of Object.keys(value)) {
    let sub: Schema | undefined;
    const declared = props?.get(k);
    if (declared !== undefined) sub = declared;
    else if (embedded && (k === 'apiVersion' || k === 'kind')) continue;
    else if (embedded && k === 'metadata') sub = ObjectMeta.schema;
    else if (typeof extra === 'object') sub = extra;
    if (sub !== undefined) {
      // a scalar has no unknown fields: no step down for it (most of a resource's values)
      const v = value[k];
      if (typeof v !== 'object' || v === null) continue;
      at.push(k);
      walk(sub, v, at, visit);
      at.pop();
    } else if (!keep) {
      at.push(k);
      visit(value, k, String(at));
      at.pop();
    }
  }
}

/** The paths of all unknown fields of `value`; `opts.path` is the path of `value` itself. */
export function unknownFields(schema: Schema, value: unknown, opts: { path?: string } = {}): string[] {
  const out: string[] = [];
  walkUnknown(schema, value, opts.path ?? '', (_parent, _key, path) => out.push(path));
  return out;
}

/** The field-validation message for an unknown field (a warning, or part of a strict error). */
export const unknownFieldMessage = (path: string): string => `unknown field "${path}"`;

/** The field-validation message for a duplicate field (json.ts finds them). */
export const duplicateFieldMessage = (path: string): string => `duplicate field "${path}"`;
