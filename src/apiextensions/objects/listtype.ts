// List-type invariants of a custom resource (apiextensions-apiserver
// pkg/apiserver/schema/listtype): an array with x-kubernetes-list-type "set"
// holds no value twice; one with "map" holds objects (or nulls) whose key
// fields (x-kubernetes-list-map-keys) differ. Each value seen a second time is
// reported once, at its index, with Kubernetes' rendering of the value:
//
//   spec.tags[1]: Duplicate value: "a"
//   spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}
//
// A missing key field (or a null item) is an unspecified key, equal only to
// other unspecified keys. Scalars compare by type and value, compound values
// by their JSON text (sorted keys, as Go marshals maps).
import { duplicate, type FieldError, FieldPath, invalid } from '../../api/meta/field.js';
import { isObject, type Schema } from '../../schema/model.js';
import { propertyIndex } from '../../schema/properties.js';
import { goValue } from './gofmt.js';
import { reaches } from './reach.js';

/**
 * The list-type errors of `obj` (the whole object, or any object value) under
 * the structural schema `s`; `path` is obj's path (the root: empty). On an
 * update pass the old object: the check ratchets — when the old object already
 * breaks the invariants, the new one is not checked (customResourceStrategy.ValidateUpdate).
 */
export function validateListTypes(s: Schema | undefined, obj: unknown, opts: { old?: unknown; path?: FieldPath } = {}): FieldError[] {
  const path = opts.path ?? new FieldPath('');
  if (opts.old !== undefined && collect(s, opts.old, path).length > 0) return [];
  return collect(s, obj, path);
}

function collect(s: Schema | undefined, obj: unknown, path: FieldPath): FieldError[] {
  if (s === undefined || !isObject(obj) || !reaches(s, 'listType')) return [];
  const errs: FieldError[] = [];
  visitObject(s, obj, path, errs, true);
  return errs;
}

/** The object's values under the schema; at the root `metadata` is passed over (a custom resource's metadata has no list types in kube's structural schema). */
function visitObject(s: Schema, obj: Record<string, unknown>, path: FieldPath, errs: FieldError[], root = false): void {
  const extra = s.additionalProperties;
  if (typeof extra === 'object') for (const k of Object.keys(obj)) visit(extra, obj[k], path.key(k), errs);
  const props = s.properties === undefined ? undefined : propertyIndex(s.properties);
  if (props) {
    for (const k of Object.keys(obj)) {
      if (root && k === 'metadata') continue;
      const sub = props.get(k);
      if (sub !== undefined) visit(sub, obj[k], path.child(k), errs);
    }
  }
}

function visit(s: Schema, v: unknown, path: FieldPath, errs: FieldError[]): void {
  // a subtree whose schema holds no set or map list has nothing to check
  if (!reaches(s, 'listType')) return;
  if (Array.isArray(v)) visitArray(s, v, path, errs);
  else if (isObject(v)) visitObject(s, v, path, errs);
}

function visitArray(s: Schema, items: unknown[], path: FieldPath, errs: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of secondOccurrences(items)) errs.push(duplicate(path.index(i), goValue(items[i])));
  } else if (listType === 'map') {
    errs.push(...mapListErrors(s['x-kubernetes-list-map-keys'] ?? [], items, path));
  }
  if (s.items) for (let i = 0; i < items.length; i++) visit(s.items, items[i], path.index(i), errs);
}

/** A key for "seen before": scalars by Go type and value, compounds by their JSON text. */
function identity(v: unknown): string {
  if (v === UNSPECIFIED) return 'u';
  if (v === null || v === undefined) return 'n';
  switch (typeof v) {
    case 'string': return `s${v}`;
    case 'boolean': return `b${v}`;
    // Go keeps int64 and float64 apart: 1 and 1.5 never meet, and whole numbers are int64.
    case 'number': return Number.isInteger(v) ? `i${v}` : `f${v}`;
    default: return `j${sortedJSON(v)}`;
  }
}

function sortedJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJSON).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sortedJSON(v[k])}`).join(',')}}`;
  return JSON.stringify(v ?? null);
}

/** Indexes of the second appearance of each value that appears more than once. */
function secondOccurrences(values: readonly unknown[]): number[] {
  if (values.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const id = identity(values[i]);
    const times = seen.get(id) ?? 0;
    seen.set(id, times + 1);
    if (times === 1) out.push(i);
  }
  return out;
}

const UNSPECIFIED = Symbol('unspecified key');

function mapListErrors(keyFields: readonly string[], items: unknown[], path: FieldPath): FieldError[] {
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (x !== null && !isObject(x)) return [invalid(path.index(i), goValue(x), 'must be an object for an array of list-type map')];
  }
  if (items.length <= 1) return [];
  if (keyFields.length === 1) {
    const f = keyFields[0]!;
    const keys = items.map((x) => (isObject(x) && Object.prototype.hasOwnProperty.call(x, f) ? x[f] : UNSPECIFIED));
    return secondOccurrences(keys).map((i) => duplicate(path.index(i), goValue(keys[i] === UNSPECIFIED ? {} : { [f]: keys[i] })));
  }
  const keys = items.map((x) => {
    const key: Record<string, unknown> = {};
    if (isObject(x)) for (const f of keyFields) if (Object.prototype.hasOwnProperty.call(x, f)) key[f] = x[f];
    return key;
  });
  return secondOccurrences(keys).map((i) => duplicate(path.index(i), goValue(keys[i])));
}
