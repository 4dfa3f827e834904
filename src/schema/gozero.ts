// Values Go always writes for built-in kinds even when a client left them
// out, because the field is a value rather than a pointer and has no
// omitempty (or is a struct, which omitempty never drops): the top-level
// `spec` and `status` structs, the `creationTimestamp: null` of every
// embedded ObjectMeta (pod templates, claim templates) — whose `metadata`
// object is itself always written — and every field the schemas mark
// `goAlways` (ReplicaSetStatus's `replicas: 0`, a condition's
// `lastTransitionTime: null`, NodeStatus's `nodeInfo` struct, …). Applied to
// write bodies, and to the status a strategy resets on create
// (fillGoStatus), so what we store and answer matches what kube-apiserver
// stores and answers.
import { isObject, type Schema } from './model.js';
import { nodeOf, Zero, type SchemaNode } from './node.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

const DROP = 1; // Go's omitempty: zero values are dropped
const FILL = 2; // Go's always-written zero values are filled in

/**
 * One walk for both: a property holding an omittable zero value is deleted
 * (DROP), then (FILL) a struct's always-written fields missing (or null) get
 * their zero value, its embedded ObjectMetas get `metadata` with a null
 * creationTimestamp, and the top-level struct its zero `spec` and `status`.
 * FILL goes through properties and list items only, not into maps nor into
 * an embedded ObjectMeta (nothing there to fill); DROP also goes into maps.
 */
function finish(n: SchemaNode, v: unknown, mode: number, top: boolean): void {
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    const items = n.items;
    if (items === undefined) return;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (typeof x === 'object' && x !== null) finish(items, x, mode, false);
    }
    return;
  }
  const o = v as Record<string, unknown>;
  const props = n.props;
  if (props !== undefined) {
    for (const k in o) {
      const x = o[k];
      if (typeof x !== 'object') {
        // A scalar: only a zero one may be dropped, and only then is its schema looked up.
        if ((mode & DROP) === 0 || (x !== '' && x !== 0 && x !== false)) continue;
        if (props.get(k)?.omitZero) delete o[k];
        continue;
      }
      if (x === null) continue;
      const sub = props.get(k);
      if (sub === undefined) continue;
      if ((mode & DROP) !== 0 && sub.omitZero && isOmittable(sub, x)) delete o[k];
      else if (mode === DROP || top || !sub.isObjectMeta) finish(sub, x, mode, false);
      else if ((mode & DROP) !== 0) finish(sub, x, DROP, false);
    }
    if ((mode & FILL) === 0) return;
    fillAlways(n, o);
    if (!top) {
      for (const k of n.metaProps) {
        const meta = isObject(o[k]) ? (o[k] as Record<string, unknown>) : (o[k] = {});
        if (!('creationTimestamp' in meta)) meta.creationTimestamp = null;
      }
    } else {
      for (const k of n.topStructs) if (o[k] === undefined || o[k] === null) o[k] = zeroValue(props.get(k)!);
    }
  } else if (n.extra !== undefined && (mode & DROP) !== 0) {
    const extra = n.extra;
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'object' && x !== null) finish(extra, x, DROP, false);
    }
  }
}

/** A struct's always-written fields that are absent, or null where Go's zero is not, get their zero value. */
function fillAlways(n: SchemaNode, o: Record<string, unknown>): void {
  const always = n.always;
  for (let i = 0; i < always.length; i++) {
    const [k, sub] = always[i]!;
    const x = o[k];
    if (x === undefined) o[k] = zeroValue(sub);
    else if (x === null && sub.zero !== Zero.Null) o[k] = zeroValue(sub); // null decodes to the zero value
  }
}

/** The JSON Go writes for an always-written field of this schema holding its zero value (a fresh object). */
function zeroValue(n: SchemaNode): unknown {
  switch (n.zero) {
    case Zero.String:
      return '';
    case Zero.Number:
      return 0;
    case Zero.False:
      return false;
    case Zero.Quantity:
      return '0';
    case Zero.Struct: {
      const o: Record<string, unknown> = {};
      fillAlways(n, o);
      for (const k of n.metaProps) o[k] = { creationTimestamp: null };
      return o;
    }
    default:
      return null;
  }
}

/**
 * Fills Go's always-written zero values into a kind's `status` only, in
 * place (a missing status becomes the zero struct): for the status a
 * strategy set or reset after the body was decoded (kube's PrepareForCreate
 * resets it to the zero struct, which its encoder writes with the
 * non-omitempty fields, e.g. ReplicaSetStatus `{"replicas": 0}`).
 */
export function fillGoStatus(kindSchema: Schema, obj: Record<string, unknown>): void {
  const n = nodeOf(kindSchema);
  const status = n.statusObject ? n.props!.get('status')! : undefined;
  if (status === undefined) return;
  const x = obj.status;
  if (isObject(x)) finish(status, x, FILL, false);
  else if (x === undefined || x === null) obj.status = zeroValue(status);
}

/** Fills Go's always-written zero values into a kind's body, in place. */
export function fillGoZeroValues(kindSchema: Schema, body: Record<string, unknown>): void {
  finish(nodeOf(kindSchema), body, FILL, true);
}

/**
 * What a decoded write body needs after defaulting, in one walk: Go's
 * omitempty drop (dropGoOmitted), then its always-written zero values
 * (fillGoZeroValues), in place.
 */
export function finishGoDecode(kindSchema: Schema, body: Record<string, unknown>): void {
  finish(nodeOf(kindSchema), body, DROP | FILL, true);
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

function newZeroValue(s: Schema): unknown {
  if (s.properties) return POINTER_STRUCTS.has(s.id ?? '') ? null : newZeroStruct(s);
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

function newZeroStruct(s: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.id === OBJECT_META) return { creationTimestamp: null };
  const required = new Set(s.required ?? []);
  for (const [k, sub] of Object.entries(s.properties ?? {})) {
    if (required.has(k) || sub.goAlways) out[k] = newZeroValue(sub);
    else if (sub.properties && VALUE_STRUCTS.has(sub.id ?? '')) out[k] = newZeroStruct(sub);
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
  const out = newZeroStruct({ ...kindSchema, id: undefined });
  for (const top of ['spec', 'status'] as const) {
    const sub = kindSchema.properties?.[top];
    if (sub?.properties && !(top in out)) out[top] = newZeroStruct(sub);
  }
  if (kindSchema.properties?.metadata) out.metadata = { creationTimestamp: null };
  delete out.apiVersion;
  delete out.kind;
  return out;
}

/** Go's encoding/json omitempty: the zero values it leaves out (structs are never empty to it). */
function isOmittable(sub: SchemaNode, v: unknown): boolean {
  if (typeof v === 'object' && v !== null) {
    if (Array.isArray(v)) return v.length === 0;
    if (!sub.omitEmptyObject) return false;
    for (const _ in v) return false;
    return true;
  }
  return v === '' || v === 0 || v === false;
}

/**
 * Drops what Go's JSON encoding omits (`omitempty` fields holding their zero
 * value: "", 0, false, empty lists and maps), in place, so a stored object is
 * what kube-apiserver would store and answer after decoding into its types
 * (`spec.finalizers: []` is not kept, `metadata.annotations: {}` neither).
 */
export function dropGoOmitted(kindSchema: Schema, body: Record<string, unknown>): void {
  finish(nodeOf(kindSchema), body, DROP, true);
}
