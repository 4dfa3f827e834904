// Event (the core/v1 form) and the deprecated ComponentStatus.
import { int32, list, obj, ref, str } from '../../../schema/dsl.js';
import { MicroTime, Time, kind } from '../../../schema/common.js';
import { ObjectReference } from './refs.js';
import { core } from './names.js';

export const EventSource = obj({
  component: str().proto(1).desc('The reporting component.'),
  host: str().proto(2).desc('The node the event comes from.'),
})
  .id(core('EventSource'))
  .desc('The component that reported an event.');

export const EventSeries = obj({
  count: int32().proto(1).desc('How many times the event happened so far.'),
  lastObservedTime: ref(MicroTime).proto(2, { always: true }).desc('When the event was last observed.'),
})
  .id(core('EventSeries'))
  .desc('A series of events that keep happening.');

export const Event = kind({
  involvedObject: ref(ObjectReference).required().proto(2, { always: true }).desc('The object the event is about.'),
  reason: str().proto(3).desc('A short machine-readable reason.'),
  message: str().proto(4).desc('A human-readable description.'),
  source: ref(EventSource).proto(5, { always: true }).desc('The component that reported the event.'),
  firstTimestamp: ref(Time).proto(6, { always: true }).desc('When the event was first recorded.'),
  lastTimestamp: ref(Time).proto(7, { always: true }).desc('When the event was most recently recorded.'),
  count: int32().proto(8).desc('How many times the event happened.'),
  type: str().proto(9).desc('Normal or Warning.'),
  eventTime: ref(MicroTime).proto(10, { always: true }).desc('When the event was first observed, with microseconds.'),
  series: ref(EventSeries).proto(11).desc('The series of repeated events this one belongs to.'),
  action: str().proto(12).desc('What action was taken or failed.'),
  related: ref(ObjectReference).proto(13).desc('A secondary object the event refers to.'),
  reportingComponent: str().proto(14, { always: true }).desc('The controller that emitted the event, such as kubernetes.io/kubelet.'),
  reportingInstance: str().proto(15, { always: true }).desc('The instance of that controller.'),
}, { required: ['metadata'] })
  .id(core('Event'))
  .desc('A report of something that happened in the cluster.');

export const ComponentCondition = obj({
  type: str().required().proto(1, { keepZero: true }).desc('The condition type; only "Healthy".'),
  status: str().required().proto(2, { keepZero: true }).desc("The condition's status: True, False or Unknown."),
  message: str().proto(3).desc('A human-readable explanation of the current state.'),
  error: str().proto(4).desc("An error code from the component's health check."),
})
  .id(core('ComponentCondition'))
  .desc('The health of one control-plane component.');

export const ComponentStatus = kind({
  conditions: list(ref(ComponentCondition)).patch('merge', 'type').proto(2).desc('The observed conditions of the component.'),
})
  .id(core('ComponentStatus'))
  .desc('The health of a control-plane component (deprecated).');
