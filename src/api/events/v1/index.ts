// events/v1: Event, a report of something that happened to an object (the
// same objects as core v1 events, with renamed and deprecated fields).
import { int32, kind, MicroTime, obj, ref, str, Time, type S } from '../../../schema/index.js';
import { EventSource, ObjectReference } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.events.v1';

export const EventSeries = obj({
  count: int32().proto(1, { always: true }).required().desc('How many times the event has happened so far.'),
  lastObservedTime: ref(MicroTime).proto(2, { always: true }).required().desc('When the event last happened.'),
})
  .id(`${PKG}.EventSeries`)
  .desc('A repeating event: how often and when last.');

export const Event = kind(
  {
    eventTime: ref(MicroTime).proto(2, { always: true }).desc('When the event first happened.'),
    series: ref(EventSeries).proto(3).desc('Repetitions of the event; unset for a single occurrence.'),
    reportingController: str().proto(4).desc('The controller that reported the event, such as "kubernetes.io/kubelet".'),
    reportingInstance: str().proto(5).desc('The instance of the controller, such as "kubelet-node1".'),
    action: str().proto(6).desc('What was done, or failed, in CamelCase.'),
    reason: str().proto(7).desc('Why the action was taken, in CamelCase.'),
    regarding: ref(ObjectReference).proto(8, { always: true }).desc('The object the event is about.'),
    related: ref(ObjectReference).proto(9).desc('A second object involved, if any.'),
    note: str().proto(10).desc('A human-readable description, at most 1 kB.'),
    type: str().proto(11).desc('Normal or Warning.'),
    deprecatedSource: ref(EventSource).proto(12, { always: true }).desc('The reporter, as core v1 events record it; deprecated.'),
    deprecatedFirstTimestamp: ref(Time).proto(13, { always: true }).desc('The core v1 firstTimestamp; deprecated.'),
    deprecatedLastTimestamp: ref(Time).proto(14, { always: true }).desc('The core v1 lastTimestamp; deprecated.'),
    deprecatedCount: int32().proto(15).desc('The core v1 count; deprecated.'),
  },
  { required: ['eventTime'] },
)
  .id(`${PKG}.Event`)
  .desc('A report of something that happened to an object.');

export const kinds: Readonly<Record<string, S>> = { Event };
