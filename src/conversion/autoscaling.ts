// HorizontalPodAutoscaler between autoscaling/v2 (the storage version) and
// autoscaling/v1, as kube-apiserver v1.27 converts it:
//
//   v2 → v1   targetCPUUtilizationPercentage ← the first Resource cpu metric's
//             averageUtilization; currentCPUUtilizationPercentage ← the cpu
//             Resource statuses' averageUtilization. What v1 cannot hold goes
//             into annotations (svc.io spelling of Kubernetes' keys):
//               autoscaling.alpha.svc.io/metrics          the other metrics
//               autoscaling.alpha.svc.io/current-metrics  every current metric
//               autoscaling.alpha.svc.io/behavior         spec.behavior
//               autoscaling.alpha.svc.io/conditions       status.conditions
//   v1 → v2   the annotated metrics, then the cpu target (so a cpu metric
//             moves to the end); no metric at all → cpu at 80% utilization;
//             annotations that do not decode are ignored.
//
// Both directions (and v2 → v2) drop those four annotation keys from what
// they copy, so only the conversion's own ones ever appear: a client cannot
// plant them. Every other annotation passes through untouched.
import {
  behaviorFromInternal, behaviorToInternal, conditionsFromAlpha, conditionToAlpha, metricSpecsFromAlpha, metricSpecToAlpha,
  metricStatusesFromAlpha, metricStatusToAlpha,
} from './autoscaling-alpha.js';
import { goJSON, isObj, parseJSON, type Obj } from './gojson.js';

export const METRICS_ANNOTATION = 'autoscaling.alpha.svc.io/metrics';
export const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.svc.io/current-metrics';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.svc.io/behavior';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.svc.io/conditions';
const ROUND_TRIP_KEYS = [METRICS_ANNOTATION, CURRENT_METRICS_ANNOTATION, BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION];

/** The utilization target v1 implies when it names none (the HPA controller's historical default). */
export const DEFAULT_CPU_UTILIZATION = 80;

const objOf = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const copyIf = (out: Obj, from: Obj, keys: readonly string[]) => {
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
};

/** The object's annotations without the round-trip keys (a new map; undefined when none is left). */
function ownAnnotations(meta: Obj | undefined): Record<string, unknown> | undefined {
  const a = objOf(meta?.annotations);
  if (!a) return undefined;
  const out = Object.fromEntries(Object.entries(a).filter(([k]) => !ROUND_TRIP_KEYS.includes(k)));
  return Object.keys(out).length > 0 ? out : undefined;
}

/** metadata with the given annotations (dropped when there are none). */
function withAnnotations(meta: Obj | undefined, annotations: Record<string, unknown> | undefined): Obj | undefined {
  if (!meta && !annotations) return undefined;
  const { annotations: _old, ...rest } = meta ?? {};
  return annotations ? { ...rest, annotations } : rest;
}

/** The object with its type meta replaced, other top-level keys in their order. */
function rebuild(obj: Obj, parts: { metadata: Obj | undefined; spec: Obj | undefined; status: Obj | undefined }): Obj {
  const { apiVersion: _a, kind: _k, metadata: _m, spec: _s, status: _st, ...rest } = obj;
  return {
    ...(parts.metadata ? { metadata: parts.metadata } : {}), ...(parts.spec ? { spec: parts.spec } : {}),
    ...(parts.status ? { status: parts.status } : {}), ...rest,
  };
}

const isCpuResource = (m: Obj): Obj | undefined => {
  const r = objOf(m.resource);
  return m.type === 'Resource' && r && r.name === 'cpu' ? r : undefined;
};

/** A stored (v2) HPA as autoscaling/v1 shows it; type meta left to the caller. */
export function hpaV2ToV1(obj: Obj): Obj {
  const spec = objOf(obj.spec);
  const status = objOf(obj.status);
  const metrics = arr(spec?.metrics);
  const annotations: Record<string, unknown> = { ...ownAnnotations(objOf(obj.metadata)) };

  let v1spec: Obj | undefined;
  if (spec) {
    v1spec = {};
    copyIf(v1spec, spec, ['scaleTargetRef', 'minReplicas', 'maxReplicas']);
    for (const m of metrics) {
      const r = isCpuResource(m);
      if (!r) continue;
      const u = objOf(r.target)?.averageUtilization;
      if (typeof u === 'number') v1spec.targetCPUUtilizationPercentage = u;
      break;
    }
  }
  let v1status: Obj | undefined;
  if (status) {
    // v1 always writes both replica counts; v2 leaves out a zero currentReplicas.
    v1status = {};
    copyIf(v1status, status, ['observedGeneration', 'lastScaleTime']);
    v1status.currentReplicas = status.currentReplicas ?? 0;
    v1status.desiredReplicas = status.desiredReplicas ?? 0;
    for (const m of arr(status.currentMetrics)) {
      const u = objOf(isCpuResource(m)?.current)?.averageUtilization;
      if (typeof u === 'number') v1status.currentCPUUtilizationPercentage = u;
    }
  }

  const others = metrics.filter((m) => typeof objOf(isCpuResource(m)?.target)?.averageUtilization !== 'number');
  if (others.length > 0) annotations[METRICS_ANNOTATION] = goJSON(others.map(metricSpecToAlpha));
  const currentMetrics = arr(status?.currentMetrics);
  if (currentMetrics.length > 0) annotations[CURRENT_METRICS_ANNOTATION] = goJSON(currentMetrics.map(metricStatusToAlpha));
  const behavior = objOf(spec?.behavior);
  if (behavior) annotations[BEHAVIOR_ANNOTATION] = goJSON(behaviorToInternal(behavior));
  const conditions = arr(status?.conditions);
  if (conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = goJSON(conditions.map(conditionToAlpha));

  const metadata = withAnnotations(objOf(obj.metadata), Object.keys(annotations).length > 0 ? annotations : undefined);
  return rebuild(obj, { metadata, spec: v1spec, status: v1status });
}

/** The annotation's value decoded by `decode`; undefined when absent or when Go's decode would fail. */
function fromAnnotation<T>(meta: Obj | undefined, key: string, decode: (v: unknown) => T): T | undefined {
  const text = objOf(meta?.annotations)?.[key];
  if (typeof text !== 'string') return undefined;
  const parsed = parseJSON(text);
  if (parsed === undefined) return undefined;
  try {
    return decode(parsed);
  } catch {
    return undefined; // Kubernetes moves only well-formed data from annotations to fields
  }
}

const cpuTarget = (u: number): Obj => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: u } } });
const cpuCurrent = (u: number): Obj => ({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: u } } });
const listOrNull = <T>(decode: (v: unknown) => T[]) => (v: unknown): T[] => (v === null ? [] : decode(v));

/** An autoscaling/v1 HPA in the storage version (v2); type meta left to the caller. */
export function hpaV1ToV2(obj: Obj): Obj {
  const meta = objOf(obj.metadata);
  const spec = objOf(obj.spec);
  const status = objOf(obj.status);
  const annotated = fromAnnotation(meta, METRICS_ANNOTATION, listOrNull(metricSpecsFromAlpha));
  let v2spec: Obj | undefined;
  if (spec || annotated) {
    v2spec = {};
    copyIf(v2spec, spec ?? {}, ['scaleTargetRef', 'minReplicas', 'maxReplicas']);
    const target = spec?.targetCPUUtilizationPercentage;
    const metrics: Obj[] = [...(annotated ?? []), ...(typeof target === 'number' ? [cpuTarget(target)] : [])];
    v2spec.metrics = metrics.length > 0 ? metrics : [cpuTarget(DEFAULT_CPU_UTILIZATION)];
    const behavior = fromAnnotation(meta, BEHAVIOR_ANNOTATION, behaviorFromInternal);
    if (behavior) v2spec.behavior = behavior;
  }

  const currentMetrics = fromAnnotation(meta, CURRENT_METRICS_ANNOTATION, listOrNull(metricStatusesFromAlpha));
  const conditions = fromAnnotation(meta, CONDITIONS_ANNOTATION, listOrNull(conditionsFromAlpha));
  let v2status: Obj | undefined;
  if (status || currentMetrics || conditions) {
    v2status = {};
    copyIf(v2status, status ?? {}, ['observedGeneration', 'lastScaleTime']);
    if (status?.currentReplicas !== undefined && status.currentReplicas !== 0) v2status.currentReplicas = status.currentReplicas;
    copyIf(v2status, status ?? {}, ['desiredReplicas']);
    const u = status?.currentCPUUtilizationPercentage;
    const metrics = currentMetrics ?? (typeof u === 'number' ? [cpuCurrent(u)] : []);
    if (metrics.length > 0) v2status.currentMetrics = metrics;
    if (conditions && conditions.length > 0) v2status.conditions = conditions;
  }

  return rebuild(obj, { metadata: withAnnotations(meta, ownAnnotations(meta)), spec: v2spec, status: v2status });
}

/** v2 → v2: the round-trip annotation keys dropped, as Kubernetes does on every v2 decode and encode. */
export function hpaV2Normalize(obj: Obj): Obj {
  const meta = objOf(obj.metadata);
  const annotations = objOf(meta?.annotations);
  if (!annotations || !ROUND_TRIP_KEYS.some((k) => k in annotations)) return obj;
  return { ...obj, metadata: withAnnotations(meta, ownAnnotations(meta)) };
}
