// What a conversion webhook may change in an object (kube's
// validateConvertedObject and restoreObjectMeta): the converted object must
// keep the original's kind, name, namespace and uid; its metadata is then the
// original's, but for labels and annotations, which are the webhook's (string
// values only, and valid ones when they changed). The result is a new object;
// neither input is modified.
import { aggregateErrors } from '../../api/meta/aggregate.js';
import { errorBody, fieldPath } from '../../api/meta/field.js';
import { validateAnnotations, validateLabels } from '../../api/meta/validation.js';
import { stringField } from './versions.js';
import { isObject } from '../../registry/object.js';

type Json = Record<string, unknown>;

/** Go's %T of a value as unstructured JSON holds it. */
export function goTypeOf(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** kube's validateConvertedObject: the error text, or undefined. */
export function convertedObjectError(original: object, converted: object): string | undefined {
  const same = (what: string, ...path: string[]) => {
    const e = stringField(original, ...path);
    const a = stringField(converted, ...path);
    return e === a ? undefined : `must have the same ${what}: ${e} != ${a}`;
  };
  return same('kind', 'kind') ?? same('name', 'metadata', 'name') ?? same('namespace', 'metadata', 'namespace') ?? same('UID', 'metadata', 'uid');
}

/** The converted object with the original's metadata and the webhook's labels and annotations; throws an Error with kube's text. */
export function restoreObjectMeta(original: object, converted: object): Json {
  const out: Json = { ...(converted as Json) };
  if (!('metadata' in out)) throw new Error('missing metadata in converted object');
  const answered = out.metadata;
  if (!isObject(answered)) throw new Error(`invalid metadata of type ${goTypeOf(answered)} in converted object`);
  const kept = (original as Json).metadata;
  const meta: Json = kept === undefined ? {} : structuredClone(kept) as Json;
  if (!isObject(meta)) throw new Error(`invalid metadata of type ${goTypeOf(meta)} in input object`);
  out.metadata = meta;
  for (const field of ['labels', 'annotations'] as const) {
    const theirs = answered[field];
    if (theirs === undefined || theirs === null) {
      delete meta[field];
      continue;
    }
    if (!isObject(theirs)) throw new Error(`invalid metadata.${field} of type ${goTypeOf(theirs)} in converted object`);
    const ours = meta[field];
    if (!isObject(ours) && ours !== undefined && ours !== null) throw new Error(`invalid metadata.${field} of type ${goTypeOf(ours)} in original object`);
    const before: Json = isObject(ours) ? ours : {};
    let changed = Object.keys(before).length !== Object.keys(theirs).length;
    for (const [k, v] of Object.entries(theirs)) {
      if (typeof v !== 'string') throw new Error(`metadata.${field}[${k}] must be a string, but is ${goTypeOf(v)} in converted object`);
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      // kube's path for annotations is "metadata.annotation".
      const errs = field === 'labels' ? validateLabels(theirs, fieldPath('metadata.labels')) : validateAnnotations(theirs, fieldPath('metadata.annotation'));
      if (errs.length > 0) throw new Error(aggregateErrors(errs.map((e) => `${e.field}: ${errorBody(e)}`)));
    }
    meta[field] = theirs;
  }
  return out;
}
