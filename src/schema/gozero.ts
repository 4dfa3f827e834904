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

/**
 * Structs that Kubernetes' types embed by value (not by pointer) although
 * they are optional, so a zero object writes them as `{}`.
 */
const VALUE_STRUCTS = new Set([
  OBJECT_META,
  'io.k8s.api.apps.v1.DeploymentStrategy',
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy',
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy',
  'io.k8s.api.core.v1.LoadBalancerStatus',
  'io.k8s.api.core.v1.ResourceRequirements',
  'io.k8s.api.core.v1.PodTemplateSpec',
  'io.k8s.api.core.v1.PodSpec',
  'io.k8s.api.batch.v1.JobTemplateSpec',
  'io.k8s.api.batch.v1.JobSpec',
]);

/** Required structs Kubernetes' types hold by pointer (null in a zero object). */
const POINTER_STRUCTS = new Set(['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']);

function zeroValue(s: Schema): unknown {
  if (s.properties) return POINTER_STRUCTS.has(s.id ?? '') ? null : zeroStruct(s);
  if (s['x-kubernetes-int-or-string']) return s.format === 'quantity' ? '0' : 0;
  switch (s.type) {
    case 'string':
      return s.format === 'date-time' ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null; // slices, maps and anything else are nil
  }
}

function zeroStruct(s: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.id === OBJECT_META) return { creationTimestamp: null };
  const required = new Set(s.required ?? []);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    if (required.has(k)) out[k] = zeroValue(sub);
    else if (sub.properties && VALUE_STRUCTS.has(sub.id ?? '')) out[k] = zeroStruct(sub);
  }
  return out;
}

/**
 * The JSON of a kind's Go zero value (what `New()` gives kube-apiserver):
 * metadata with a null creationTimestamp, spec and status as structs, and
 * every field Go always writes. Server-side apply compares a create against
 * it, so ownership entries match Kubernetes' ("." only where a field is new).
 */
export function goZeroObject(kindSchema: Schema): Record<string, unknown> {
  const out = zeroStruct({ ...kindSchema, id: undefined });
  for (const top of ['spec', 'status'] as const) {
    const sub = kindSchema.properties?.[top];
    if (sub?.properties && !(top in out)) out[top] = zeroStruct(sub);
  }
  if (kindSchema.properties?.metadata) out.metadata = { creationTimestamp: null };
  delete out.apiVersion;
  delete out.kind;
  return out;
}

/** Go's encoding/json omitempty: the zero values it leaves out (structs are never empty to it). */
function isOmittable(sub: Schema, v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return !sub.properties && Object.keys(v).length === 0 && !sub['x-kubernetes-preserve-unknown-fields'];
  return v === '' || v === 0 || v === false;
}

function dropWalk(s: Schema, v: unknown): void {
  if (Array.isArray(v)) {
    if (s.items) for (const item of v) dropWalk(s.items, item);
    return;
  }
  if (!isObject(v)) return;
  if (s.properties) {
    for (const [k, sub] of Object.entries(s.properties)) {
      if (!(k in v)) continue;
      // Only fields known to be Go fields (they carry a protobuf number) without keepZero (omitempty, not a pointer).
      if (sub.proto !== undefined && !sub.protoKeepZero && !sub['x-kubernetes-int-or-string'] && isOmittable(sub, v[k])) delete v[k];
      else dropWalk(sub, v[k]);
    }
  } else if (typeof s.additionalProperties === 'object') {
    for (const item of Object.values(v)) dropWalk(s.additionalProperties, item);
  }
}

/**
 * Drops what Go's JSON encoding omits (`omitempty` fields holding their zero
 * value: "", 0, false, empty lists and maps), in place, so a stored object is
 * what kube-apiserver would store and answer after decoding into its types
 * (`spec.finalizers: []` is not kept, `metadata.annotations: {}` neither).
 */
export function dropGoOmitted(kindSchema: Schema, body: Record<string, unknown>): void {
  dropWalk(kindSchema, body);
}
