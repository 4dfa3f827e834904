// Event validation for events.svc.io/v1 (the strict rules of kube-apiserver
// v1.27's ValidateEventCreate/Update for events/v1 requests). Causes name the
// internal fields, as Kubernetes reports them: involvedObject for regarding,
// message for note, deprecated* for the legacy fields.
import { type FieldError, fieldPath, invalid, required } from '../../meta/field.js';
import { type Obj, immutable, isObj, num, obj, semanticEqual, str } from '../../meta/checks.js';
import { type InternalEvent, type KindValidator, legacyValidateEvent } from '../../core/v1/validation.js';

export function eventsV1ToInternal(e: Obj): InternalEvent {
  const src = obj(e.deprecatedSource);
  return {
    namespace: str(obj(e.metadata).namespace),
    involvedObject: obj(e.regarding),
    reason: str(e.reason),
    message: str(e.note),
    source: src,
    firstTimestamp: e.deprecatedFirstTimestamp ?? null,
    lastTimestamp: e.deprecatedLastTimestamp ?? null,
    count: num(e.deprecatedCount) ?? 0,
    type: str(e.type),
    eventTime: e.eventTime ?? null,
    series: isObj(e.series) ? e.series : undefined,
    action: str(e.action),
    related: e.related ?? null,
    reportingController: str(e.reportingController),
    reportingInstance: str(e.reportingInstance),
  };
}

const isSet = (t: unknown) => typeof t === 'string' && t !== '';

function validateSeries(e: InternalEvent): FieldError[] {
  if (!e.series) return [];
  const errs: FieldError[] = [];
  if ((num(e.series.count) ?? 0) < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (!isSet(e.series.lastObservedTime)) errs.push(required('series.lastObservedTime'));
  return errs;
}

export function validateEventV1(ev: Obj): FieldError[] {
  const e = eventsV1ToInternal(ev);
  const errs = legacyValidateEvent(e, false);
  errs.push(...validateSeries(e));
  if (!isSet(e.eventTime)) errs.push(required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${e.type}`));
  if (isSet(e.firstTimestamp)) errs.push(invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (isSet(e.lastTimestamp)) errs.push(invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (e.count !== 0) errs.push(invalid('deprecatedCount', '', 'needs to be unset'));
  if (str(e.source.component) || str(e.source.host)) errs.push(invalid('deprecatedSource', '', 'needs to be unset'));
  return errs;
}

export function validateEventV1Update(ev: Obj, old: Obj): FieldError[] {
  const e = eventsV1ToInternal(ev);
  const o = eventsV1ToInternal(old);
  const errs = legacyValidateEvent(e, false);
  if (!semanticEqual(e.series, o.series)) errs.push(...validateSeries(e));
  const pairs: [string, unknown, unknown][] = [
    ['involvedObject', e.involvedObject, o.involvedObject],
    ['reason', e.reason, o.reason],
    ['message', e.message, o.message],
    ['source', e.source, o.source],
    ['firstTimestamp', e.firstTimestamp, o.firstTimestamp],
    ['lastTimestamp', e.lastTimestamp, o.lastTimestamp],
    ['count', e.count, o.count],
    ['reason', e.reason, o.reason],
    ['type', e.type, o.type],
    ['eventTime', e.eventTime, o.eventTime],
    ['action', e.action, o.action],
    ['related', e.related, o.related],
    ['reportingController', e.reportingController, o.reportingController],
    ['reportingInstance', e.reportingInstance, o.reportingInstance],
  ];
  for (const [f, n, p] of pairs) errs.push(...immutable(n, p, fieldPath(f)));
  return errs;
}

export function eventsValidators(): Record<string, KindValidator> {
  return { Event: { validate: validateEventV1, validateUpdate: validateEventV1Update } };
}
