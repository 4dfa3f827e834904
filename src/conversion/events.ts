// Event between core v1 (the storage version of both) and events.svc.io/v1,
// as kube-apiserver v1.27 converts them: the same fields under other names,
// so nothing is lost either way.
//
//   core v1              events.svc.io/v1
//   involvedObject   ↔   regarding
//   message          ↔   note
//   source           ↔   deprecatedSource
//   firstTimestamp   ↔   deprecatedFirstTimestamp
//   lastTimestamp    ↔   deprecatedLastTimestamp
//   count            ↔   deprecatedCount
//   reportingComponent ↔ reportingController
//   reason, type, eventTime, series, action, related, reportingInstance: same
//
// Fields come out in the target type's Go field order; fields neither type
// has are dropped, as a Go decode drops them.
import type { Obj } from './gojson.js';

/** [core v1 field, events/v1 field], in events/v1's Go field order. */
const FIELDS: readonly (readonly [string, string])[] = [
  ['eventTime', 'eventTime'], ['series', 'series'], ['reportingComponent', 'reportingController'], ['reportingInstance', 'reportingInstance'],
  ['action', 'action'], ['reason', 'reason'], ['involvedObject', 'regarding'], ['related', 'related'], ['message', 'note'], ['type', 'type'],
  ['source', 'deprecatedSource'], ['firstTimestamp', 'deprecatedFirstTimestamp'], ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
];
/** core v1 Event's Go field order. */
const CORE_ORDER = [
  'involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'series',
  'action', 'related', 'reportingComponent', 'reportingInstance',
];
const TO_V1 = FIELDS;
const TO_CORE = CORE_ORDER.map((core) => [FIELDS.find(([c]) => c === core)![1], core] as const);

/** The fields of `e` named in `pairs` ([from, to], in the target's order), renamed; metadata kept. */
function mapFields(e: Obj, pairs: readonly (readonly [string, string])[]): Obj {
  const out: Obj = {};
  if (e.metadata !== undefined) out.metadata = e.metadata;
  for (const [from, to] of pairs) if (e[from] !== undefined) out[to] = e[from];
  return out;
}

/** A core v1 Event as events.svc.io/v1 shows it; type meta left to the caller. */
export const coreEventToEventsV1 = (e: Obj): Obj => mapFields(e, TO_V1);

/** An events.svc.io/v1 Event as core v1 stores it; type meta left to the caller. */
export const eventsV1ToCoreEvent = (e: Obj): Obj => mapFields(e, TO_CORE);
