// Values Go always writes for built-in kinds even when a client left them
// out, because the field is a struct rather than a pointer: the top-level
// `status` (`{}`), and the `creationTimestamp: null` of every embedded
// ObjectMeta (pod templates, claim templates) — whose `metadata` object is
// itself always written. Applied to write bodies so what we store and answer
// matches what kube-apiserver stores and answers.
import { isObject, type Schema } from './model.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

function walk(s: Schema, v: unknown, top: boolean): void {
  if (Array.isArray(v)) {
    if (s.items) for (const item of v) walk(s.items, item, false);
    return;
  }
  if (!isObject(v) || !s.properties) return;
  for (const [k, sub] of Object.entries(s.properties)) {
    if (sub.id === OBJECT_META && !top) {
      const meta = isObject(v[k]) ? v[k] : (v[k] = {});
      if (!('creationTimestamp' in (meta as object))) (meta as Record<string, unknown>).creationTimestamp = null;
      continue;
    }
    if (k in v) walk(sub, v[k], false);
  }
  if (top && s.properties.status?.type === 'object' && v.status === undefined) v.status = {};
}

/** Fills Go's always-written zero values into a kind's body, in place. */
export function fillGoZeroValues(kindSchema: Schema, body: Record<string, unknown>): void {
  walk(kindSchema, body, true);
}
