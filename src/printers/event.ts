// The Event printer, for core v1 Events and events.svc.io/v1 Events (one
// storage, one printer in Kubernetes). An events.svc.io object is read through
// its field names (regarding, note, deprecated*) so both shapes print alike.
//
// Last Seen: series.lastObservedTime, else lastTimestamp, else the first-seen
// value (firstTimestamp, else eventTime). Count: series.count, else count, 1 when 0.
import { since } from './age.js';
import { NAME_COLUMN, WIDE, col, has, nameOf, num, rec, str } from './cells.js';
import type { Json } from './cells.js';
import type { KObject, Printer } from './table.js';

const COLUMNS = [
  col('Last Seen', 'string', 'Time since the event last happened.'),
  col('Type', 'string', "The event's type: Normal or Warning."),
  col('Reason', 'string', 'A short, machine-readable cause of the event.'),
  col('Object', 'string', 'The object the event is about, as kind/name.'),
  col('Subobject', 'string', 'The part of the object the event is about, such as one container.', WIDE),
  col('Source', 'string', 'The component, and host, that reported the event.', WIDE),
  col('Message', 'string', "The event's human-readable message."),
  col('First Seen', 'string', 'Time since the event first happened.', WIDE),
  col('Count', 'string', 'How many times the event happened.', WIDE),
  { ...NAME_COLUMN, ...WIDE },
];

/** The fields the printer reads, from either API shape. */
interface EventView {
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  eventTime: unknown;
  count: number;
  series: Json | undefined;
  involved: Json;
  source: Json;
  reportingController: string;
  reportingInstance: string;
  message: string;
}

function view(o: KObject): EventView {
  const eventsApi = has(o.regarding) || has(o.note) || has(o.deprecatedSource) || str(o.apiVersion).startsWith('events.');
  const series = has(o.series) ? rec(o.series) : undefined;
  if (eventsApi) {
    return {
      firstTimestamp: o.deprecatedFirstTimestamp, lastTimestamp: o.deprecatedLastTimestamp, eventTime: o.eventTime,
      count: num(o.deprecatedCount), series, involved: rec(o.regarding), source: rec(o.deprecatedSource),
      reportingController: str(o.reportingController), reportingInstance: str(o.reportingInstance), message: str(o.note),
    };
  }
  return {
    firstTimestamp: o.firstTimestamp, lastTimestamp: o.lastTimestamp, eventTime: o.eventTime,
    count: num(o.count), series, involved: rec(o.involvedObject), source: rec(o.source),
    // core/v1 spells ReportingController `reportingComponent`.
    reportingController: str(o.reportingComponent), reportingInstance: str(o.reportingInstance), message: str(o.message),
  };
}

const isSet = (t: unknown): boolean => since(t, 0) !== '<unknown>';

/** formatEventSource: component (or reporting controller), then `, host` (or reporting instance) when known. */
function eventSource(v: EventView): string {
  const component = str(v.source.component) || v.reportingController;
  const instance = str(v.source.host) || v.reportingInstance;
  return instance === '' ? component : `${component}, ${instance}`;
}

export const eventPrinter: Printer = {
  columns: COLUMNS,
  row: (o, { now }) => {
    const v = view(o);
    const firstSeen = isSet(v.firstTimestamp) ? since(v.firstTimestamp, now) : since(v.eventTime, now);
    let lastSeen = isSet(v.lastTimestamp) ? since(v.lastTimestamp, now) : firstSeen;
    let count = v.count;
    if (v.series !== undefined) {
      lastSeen = since(v.series.lastObservedTime, now);
      count = num(v.series.count);
    } else if (count === 0) {
      count = 1;
    }
    const kind = str(v.involved.kind).toLowerCase();
    const target = str(v.involved.name) !== '' ? `${kind}/${str(v.involved.name)}` : kind;
    return {
      cells: [lastSeen, str(o.type), str(o.reason), target, str(v.involved.fieldPath), eventSource(v), v.message.trim(), firstSeen, count, nameOf(o)],
    };
  },
};

