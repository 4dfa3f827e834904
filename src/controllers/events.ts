// Event recording (client-go's tools/record and tools/events); the pieces are
// in events/: the core/v1 recorder with kube's EventCorrelator
// (recorder.ts, correlator.ts) and kube-scheduler's events.k8s.io/v1
// recorder with series (v1recorder.ts, series.ts).
export { EventRecorder, type EventRecorderOptions } from './events/recorder.js';
export { EventsV1Recorder, SCHEDULER_ACTIONS, schedulerEventRecorder, type EventsV1RecorderOptions } from './events/v1recorder.js';
export { referenceTo, type EventType, type InvolvedObject, type CoreEvent } from './events/reference.js';
export { EventCorrelator, type CorrelatorOptions } from './events/correlator.js';
export { coreEventSink, eventsV1Sink, type CoreEventSink, type EventsV1Sink } from './events/sinks.js';
export type { EventsV1Event, EventSeries } from './events/series.js';
