// The forms autoscaling/v1 keeps v2-only HPA fields in, inside annotations,
// as kube-apiserver v1.27 writes and reads them:
//   metrics, current metrics: autoscaling/v1's alpha MetricSpec/MetricStatus
//     (metricName, targetAverageValue, … — the v2beta1 shapes); a missing
//     quantity is written "0", and reading one back always sets it;
//   conditions: autoscaling/v1 HorizontalPodAutoscalerCondition (a missing
//     lastTransitionTime is written null);
//   behavior: the internal Go type, which has no JSON tags (ScaleUp,
//     StabilizationWindowSeconds, …; nil written null).
// Objects are built in Go field order so goJSON gives Kubernetes' exact text.
// Decoders follow json.Unmarshal and throw GoDecodeError where it fails.
import {
  decodeArray, decodeInt32, decodeObject, decodeQuantity, decodeString, decodeTime, field, GoDecodeError, isObj,
  quantityText, timeText, type Obj,
} from './gojson.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const objOf = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
/** `{ [k]: v }` when v is set, else nothing: Go's omitempty on a pointer. */
const opt = (k: string, v: unknown): Obj => (v === undefined || v === null ? {} : { [k]: v });

// ------------------------------------------------------------ shared pieces

/** A LabelSelector as Go writes it: matchLabels (sorted), matchExpressions; empty parts left out. */
export function labelSelector(v: unknown): Obj {
  if (!isObj(v)) throw new GoDecodeError('selector: not an object');
  const out: Obj = {};
  const labels = field(v, 'matchLabels');
  if (labels !== undefined && labels !== null) {
    if (!isObj(labels)) throw new GoDecodeError('matchLabels: not an object');
    const keys = Object.keys(labels).sort();
    for (const k of keys) if (labels[k] !== null && typeof labels[k] !== 'string') throw new GoDecodeError('matchLabels: not a string');
    if (keys.length > 0) out.matchLabels = Object.fromEntries(keys.map((k) => [k, str(labels[k])]));
  }
  const exprs = decodeArray(v, 'matchExpressions');
  if (exprs && exprs.length > 0) {
    out.matchExpressions = exprs.map((e) => {
      if (e !== null && !isObj(e)) throw new GoDecodeError('matchExpressions: not an object');
      const r = e ?? {};
      const values = decodeArray(r, 'values');
      if (values?.some((x) => x !== null && typeof x !== 'string')) throw new GoDecodeError('values: not a string');
      return { key: decodeString(r, 'key'), operator: decodeString(r, 'operator'), ...(values && values.length > 0 ? { values: values.map(str) } : {}) };
    });
  }
  return out;
}

/** A selector read from a stored object: normalized when well-formed, else kept as it is. */
function storedSelector(v: unknown): Obj | undefined {
  if (v === undefined || v === null) return undefined;
  try {
    return labelSelector(v);
  } catch {
    return v as Obj;
  }
}

const decodeSelector = (o: Obj, name: string): Obj | undefined => {
  const v = field(o, name);
  return v === undefined || v === null ? undefined : labelSelector(v);
};

/** CrossVersionObjectReference: kind, name, apiVersion (omitempty). */
function ref(r: Obj | undefined): Obj {
  const o = r ?? {};
  return { kind: str(o.kind), name: str(o.name), ...(str(o.apiVersion) ? { apiVersion: o.apiVersion } : {}) };
}

function decodeRef(o: Obj, name: string): Obj {
  const r = decodeObject(o, name) ?? {};
  const apiVersion = decodeString(r, 'apiVersion');
  return { kind: decodeString(r, 'kind'), name: decodeString(r, 'name'), ...(apiVersion ? { apiVersion } : {}) };
}

const identifier = (name: string, selector: Obj | undefined): Obj => ({ name, ...opt('selector', selector) });

function elements(list: unknown, what: string): Obj[] {
  if (!Array.isArray(list)) throw new GoDecodeError(`${what}: not an array`);
  return list.map((e) => {
    if (e === null) return {};
    if (!isObj(e)) throw new GoDecodeError(`${what}: not an object`);
    return e;
  });
}

// ------------------------------------------------------------ metric specs

/** A v2 MetricSpec in the v1 annotation form. */
export function metricSpecToAlpha(m: Obj): Obj {
  const out: Obj = { type: str(m.type) };
  const o = objOf(m.object);
  if (o) {
    const t = objOf(o.target) ?? {};
    const id = objOf(o.metric) ?? {};
    out.object = {
      target: ref(objOf(o.describedObject)), metricName: str(id.name), targetValue: quantityText(t.value),
      ...opt('selector', storedSelector(id.selector)), ...opt('averageValue', t.averageValue == null ? undefined : quantityText(t.averageValue)),
    };
  }
  const p = objOf(m.pods);
  if (p) {
    const id = objOf(p.metric) ?? {};
    out.pods = { metricName: str(id.name), targetAverageValue: quantityText(objOf(p.target)?.averageValue), ...opt('selector', storedSelector(id.selector)) };
  }
  const r = objOf(m.resource);
  if (r) out.resource = { name: str(r.name), ...resourceTarget(objOf(r.target)) };
  const c = objOf(m.containerResource);
  if (c) out.containerResource = { name: str(c.name), ...resourceTarget(objOf(c.target)), container: str(c.container) };
  const e = objOf(m.external);
  if (e) {
    const t = objOf(e.target) ?? {};
    const id = objOf(e.metric) ?? {};
    out.external = {
      metricName: str(id.name), ...opt('metricSelector', storedSelector(id.selector)),
      ...opt('targetValue', t.value == null ? undefined : quantityText(t.value)),
      ...opt('targetAverageValue', t.averageValue == null ? undefined : quantityText(t.averageValue)),
    };
  }
  return out;
}

function resourceTarget(t: Obj | undefined): Obj {
  return {
    ...opt('targetAverageUtilization', num(t?.averageUtilization)),
    ...opt('targetAverageValue', t?.averageValue == null ? undefined : quantityText(t.averageValue)),
  };
}

/** MetricTarget in Go field order. */
const target = (type: string, t: { value?: string; averageValue?: string; averageUtilization?: number }): Obj => ({
  type, ...opt('value', t.value), ...opt('averageValue', t.averageValue), ...opt('averageUtilization', t.averageUtilization),
});

/** The metrics annotation's text as v2 MetricSpecs; throws where Go's decode fails. */
export function metricSpecsFromAlpha(list: unknown): Obj[] {
  return elements(list, 'metrics').map((a) => {
    const out: Obj = { type: decodeString(a, 'type') };
    const o = decodeObject(a, 'object');
    if (o) {
      const averageValue = decodeQuantity(o, 'averageValue');
      out.object = {
        describedObject: decodeRef(o, 'target'),
        target: target(averageValue === undefined ? 'Value' : 'AverageValue', { value: decodeQuantity(o, 'targetValue') ?? '0', averageValue }),
        metric: identifier(decodeString(o, 'metricName'), decodeSelector(o, 'selector')),
      };
    }
    const p = decodeObject(a, 'pods');
    if (p) {
      out.pods = {
        metric: identifier(decodeString(p, 'metricName'), decodeSelector(p, 'selector')),
        target: target('AverageValue', { averageValue: decodeQuantity(p, 'targetAverageValue') ?? '0' }),
      };
    }
    const r = decodeObject(a, 'resource');
    if (r) out.resource = { name: decodeString(r, 'name'), target: decodeResourceTarget(r) };
    const c = decodeObject(a, 'containerResource');
    if (c) out.containerResource = { name: decodeString(c, 'name'), target: decodeResourceTarget(c), container: decodeString(c, 'container') };
    const e = decodeObject(a, 'external');
    if (e) {
      const value = decodeQuantity(e, 'targetValue');
      out.external = {
        metric: identifier(decodeString(e, 'metricName'), decodeSelector(e, 'metricSelector')),
        target: target(value === undefined ? 'AverageValue' : 'Value', { value, averageValue: decodeQuantity(e, 'targetAverageValue') }),
      };
    }
    return out;
  });
}

function decodeResourceTarget(r: Obj): Obj {
  const averageUtilization = decodeInt32(r, 'targetAverageUtilization');
  return target(averageUtilization === undefined ? 'AverageValue' : 'Utilization', { averageValue: decodeQuantity(r, 'targetAverageValue'), averageUtilization });
}

// ------------------------------------------------------------ metric statuses

/** A v2 MetricStatus in the v1 annotation form. */
export function metricStatusToAlpha(m: Obj): Obj {
  const out: Obj = { type: str(m.type) };
  const o = objOf(m.object);
  if (o) {
    const cur = objOf(o.current) ?? {};
    const id = objOf(o.metric) ?? {};
    out.object = {
      target: ref(objOf(o.describedObject)), metricName: str(id.name), currentValue: quantityText(cur.value),
      ...opt('selector', storedSelector(id.selector)), ...opt('averageValue', cur.averageValue == null ? undefined : quantityText(cur.averageValue)),
    };
  }
  const p = objOf(m.pods);
  if (p) {
    const id = objOf(p.metric) ?? {};
    out.pods = { metricName: str(id.name), currentAverageValue: quantityText(objOf(p.current)?.averageValue), ...opt('selector', storedSelector(id.selector)) };
  }
  const r = objOf(m.resource);
  if (r) out.resource = { name: str(r.name), ...resourceCurrent(objOf(r.current)) };
  const c = objOf(m.containerResource);
  if (c) out.containerResource = { name: str(c.name), ...resourceCurrent(objOf(c.current)), container: str(c.container) };
  const e = objOf(m.external);
  if (e) {
    const cur = objOf(e.current) ?? {};
    const id = objOf(e.metric) ?? {};
    out.external = {
      metricName: str(id.name), ...opt('metricSelector', storedSelector(id.selector)), currentValue: quantityText(cur.value),
      ...opt('currentAverageValue', cur.averageValue == null ? undefined : quantityText(cur.averageValue)),
    };
  }
  return out;
}

function resourceCurrent(c: Obj | undefined): Obj {
  return { ...opt('currentAverageUtilization', num(c?.averageUtilization)), currentAverageValue: quantityText(c?.averageValue) };
}

/** MetricValueStatus in Go field order. */
const current = (c: { value?: string; averageValue?: string; averageUtilization?: number }): Obj => ({
  ...opt('value', c.value), ...opt('averageValue', c.averageValue), ...opt('averageUtilization', c.averageUtilization),
});

/** The current-metrics annotation's text as v2 MetricStatuses; throws where Go's decode fails. */
export function metricStatusesFromAlpha(list: unknown): Obj[] {
  return elements(list, 'current metrics').map((a) => {
    const out: Obj = { type: decodeString(a, 'type') };
    const o = decodeObject(a, 'object');
    if (o) {
      out.object = {
        metric: identifier(decodeString(o, 'metricName'), decodeSelector(o, 'selector')),
        current: current({ value: decodeQuantity(o, 'currentValue') ?? '0', averageValue: decodeQuantity(o, 'averageValue') }),
        describedObject: decodeRef(o, 'target'),
      };
    }
    const p = decodeObject(a, 'pods');
    if (p) {
      out.pods = {
        metric: identifier(decodeString(p, 'metricName'), decodeSelector(p, 'selector')),
        current: current({ averageValue: decodeQuantity(p, 'currentAverageValue') ?? '0' }),
      };
    }
    const r = decodeObject(a, 'resource');
    if (r) out.resource = { name: decodeString(r, 'name'), current: decodeResourceCurrent(r) };
    const c = decodeObject(a, 'containerResource');
    if (c) out.containerResource = { name: decodeString(c, 'name'), current: decodeResourceCurrent(c), container: decodeString(c, 'container') };
    const e = decodeObject(a, 'external');
    if (e) {
      out.external = {
        metric: identifier(decodeString(e, 'metricName'), decodeSelector(e, 'metricSelector')),
        current: current({ value: decodeQuantity(e, 'currentValue') ?? '0', averageValue: decodeQuantity(e, 'currentAverageValue') }),
      };
    }
    return out;
  });
}

function decodeResourceCurrent(r: Obj): Obj {
  return current({ averageValue: decodeQuantity(r, 'currentAverageValue') ?? '0', averageUtilization: decodeInt32(r, 'currentAverageUtilization') });
}

// ------------------------------------------------------------ conditions

/** A v2 condition in the v1 annotation form (lastTransitionTime null when unset). */
export function conditionToAlpha(c: Obj): Obj {
  return {
    type: str(c.type), status: str(c.status), lastTransitionTime: timeText(c.lastTransitionTime),
    ...(str(c.reason) ? { reason: c.reason } : {}), ...(str(c.message) ? { message: c.message } : {}),
  };
}

/** The conditions annotation's text as v2 conditions; throws where Go's decode fails. */
export function conditionsFromAlpha(list: unknown): Obj[] {
  return elements(list, 'conditions').map((a) => {
    const reason = decodeString(a, 'reason');
    const message = decodeString(a, 'message');
    return {
      type: decodeString(a, 'type'), status: decodeString(a, 'status'), ...opt('lastTransitionTime', decodeTime(a, 'lastTransitionTime')),
      ...(reason ? { reason } : {}), ...(message ? { message } : {}),
    };
  });
}

// ------------------------------------------------------------ behavior

/** A v2 behavior as the internal Go type marshals: Go field names, nil as null. */
export function behaviorToInternal(b: Obj): Obj {
  const rules = (v: unknown): Obj | null => {
    const r = objOf(v);
    if (!r) return null;
    const policies = Array.isArray(r.policies) ? r.policies.map((p) => {
      const q = objOf(p) ?? {};
      return { Type: str(q.type), Value: num(q.value) ?? 0, PeriodSeconds: num(q.periodSeconds) ?? 0 };
    }) : null;
    return { StabilizationWindowSeconds: num(r.stabilizationWindowSeconds) ?? null, SelectPolicy: typeof r.selectPolicy === 'string' ? r.selectPolicy : null, Policies: policies };
  };
  return { ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) };
}

/**
 * The behavior annotation's text as a v2 behavior; undefined when it sets
 * neither direction (Kubernetes then leaves behavior unset). Throws where
 * Go's decode fails.
 */
export function behaviorFromInternal(v: unknown): Obj | undefined {
  if (!isObj(v)) throw new GoDecodeError('behavior: not an object');
  const rules = (name: string): Obj | undefined => {
    const r = decodeObject(v, name);
    if (!r) return undefined;
    const window = decodeInt32(r, 'StabilizationWindowSeconds');
    const select = field(r, 'SelectPolicy');
    if (select !== undefined && select !== null && typeof select !== 'string') throw new GoDecodeError('SelectPolicy: not a string');
    const policies = elements(decodeArray(r, 'Policies') ?? [], 'Policies').map((p) => ({
      type: decodeString(p, 'Type'), value: decodeInt32(p, 'Value') ?? 0, periodSeconds: decodeInt32(p, 'PeriodSeconds') ?? 0,
    }));
    return { ...opt('stabilizationWindowSeconds', window), ...opt('selectPolicy', select), ...(policies.length > 0 ? { policies } : {}) };
  };
  const scaleUp = rules('ScaleUp');
  const scaleDown = rules('ScaleDown');
  if (!scaleUp && !scaleDown) return undefined;
  return { ...opt('scaleUp', scaleUp), ...opt('scaleDown', scaleDown) };
}
