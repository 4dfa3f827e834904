// core/v1 Event validation, through the internal Event both API versions map onto
// (events/v1 reuses legacyValidateEvent).
import { type FieldError, fieldPath, invalid, required } from '../../../meta/field.js';
import { dns1123SubdomainErrors } from '../../../meta/validation.js';
import { type Obj, isObj, num, obj, qualifiedName, str } from '../../../meta/checks.js';

export const EVENT_LIMITS = { reportingInstance: 128, action: 128, reason: 128, note: 1024 } as const;

/** The internal Event fields both API versions map onto (events/v1 names in comments). */
export interface InternalEvent {
  namespace: string;
  involvedObject: Obj; // regarding
  reason: string;
  message: string; // note
  source: Obj; // deprecatedSource
  firstTimestamp: unknown; // deprecatedFirstTimestamp
  lastTimestamp: unknown; // deprecatedLastTimestamp
  count: number; // deprecatedCount
  type: string;
  eventTime: unknown;
  series: Obj | undefined;
  action: string;
  related: unknown;
  reportingController: string;
  reportingInstance: string;
}

export function coreEventToInternal(e: Obj): InternalEvent {
  const series = isObj(e.series) ? { count: e.series.count, lastObservedTime: e.series.lastObservedTime } : undefined;
  return {
    namespace: str(obj(e.metadata).namespace),
    involvedObject: obj(e.involvedObject),
    reason: str(e.reason),
    message: str(e.message),
    source: obj(e.source),
    firstTimestamp: e.firstTimestamp ?? null,
    lastTimestamp: e.lastTimestamp ?? null,
    count: num(e.count) ?? 0,
    type: str(e.type),
    eventTime: e.eventTime ?? null,
    series,
    action: str(e.action),
    related: e.related ?? null,
    reportingController: str(e.reportingComponent),
    reportingInstance: str(e.reportingInstance),
  };
}

const isSet = (t: unknown) => typeof t === 'string' && t !== '';

/** legacyValidateEvent: what every Event must satisfy, whichever API wrote it. */
export function legacyValidateEvent(e: InternalEvent, coreV1: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ns = e.namespace;
  const ioNs = str(e.involvedObject.namespace);
  const mismatch = () => errs.push(invalid(fieldPath('involvedObject').child('namespace'), ioNs, 'does not match event.namespace'));
  if (!isSet(e.eventTime)) {
    if (!ioNs) {
      if (ns !== '' && ns !== 'default') mismatch();
    } else if (ns !== ioNs) mismatch();
  } else {
    if (!ioNs && ns !== 'default' && ns !== 'kube-system') mismatch();
    const rc = coreV1 ? 'source' : 'reportingController';
    if (!e.reportingController) errs.push(required(rc));
    errs.push(...qualifiedName(e.reportingController, fieldPath(rc)));
    if (!e.reportingInstance) errs.push(required('reportingInstance'));
    if (e.reportingInstance.length > EVENT_LIMITS.reportingInstance) errs.push(invalid('reportingInstance', '', `can have at most ${EVENT_LIMITS.reportingInstance} characters`));
    if (!e.action) errs.push(required('action'));
    if (e.action.length > EVENT_LIMITS.action) errs.push(invalid('action', '', `can have at most ${EVENT_LIMITS.action} characters`));
    if (!e.reason) errs.push(required('reason'));
    if (e.reason.length > EVENT_LIMITS.reason) errs.push(invalid('reason', '', `can have at most ${EVENT_LIMITS.reason} characters`));
    if (e.message.length > EVENT_LIMITS.note) errs.push(invalid('message', '', `can have at most ${EVENT_LIMITS.note} characters`));
  }
  for (const m of dns1123SubdomainErrors(ns)) errs.push(invalid('namespace', ns, m));
  return errs;
}

export function validateEvent(ev: Obj): FieldError[] {
  return legacyValidateEvent(coreEventToInternal(ev), true);
}

export function validateEventUpdate(ev: Obj): FieldError[] {
  return legacyValidateEvent(coreEventToInternal(ev), true);
}
