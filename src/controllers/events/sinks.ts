// Where recorders write (client-go's EventSink): through a controller's
// ControllerClient, authorized as its user.
//
// core/v1     create; a repeat patches count, lastTimestamp and message.
// events/v1   create in events.svc.io/v1; a series patches `series`. The
//             Events live in the core store (one resource, two APIs): the
//             ControllerClient converts, as the HTTP path does.
import type { ApiObject } from '../../registry/object.js';
import type { ControllerClient, Target, WriteOptions } from '../client.js';
import type { CoreEvent } from './reference.js';
import type { EventPatch } from './correlator.js';
import type { EventSeries, EventsV1Event } from './series.js';

export const CORE_EVENTS: Target = { group: '', version: 'v1', resource: 'events' };
export const EVENTS_V1: Target = { group: 'events.svc.io', version: 'v1', resource: 'events' };

export interface CoreEventSink {
  create(e: CoreEvent): Promise<CoreEvent>;
  /** A repeat of `e` (named as the first): count, lastTimestamp and message. NotFound when the first is gone. */
  patch(e: CoreEvent, patch: EventPatch): Promise<CoreEvent>;
}

export interface EventsV1Sink {
  create(e: EventsV1Event): Promise<EventsV1Event>;
  /** The series of `e` (named as the first). NotFound when it is gone. */
  patchSeries(e: EventsV1Event, series: EventSeries): Promise<EventsV1Event>;
}

const PATCH: WriteOptions = { verb: 'patch' };

export function coreEventSink(client: ControllerClient): CoreEventSink {
  return {
    async create(e) {
      const { resourceVersion: _, ...metadata } = e.metadata;
      return (await client.create(CORE_EVENTS, e.metadata.namespace, { apiVersion: 'v1', kind: 'Event', ...e, metadata } as unknown as ApiObject)) as unknown as CoreEvent;
    },
    async patch(e, patch) {
      return (await client.update(CORE_EVENTS, e.metadata.namespace, e.metadata.name, (cur) => ({ ...cur, ...patch }), PATCH)) as unknown as CoreEvent;
    },
  };
}

export function eventsV1Sink(client: ControllerClient): EventsV1Sink {
  return {
    async create(e) {
      const { resourceVersion: _, ...metadata } = e.metadata;
      return (await client.create(EVENTS_V1, e.metadata.namespace, { apiVersion: 'events.svc.io/v1', kind: 'Event', ...e, metadata } as unknown as ApiObject)) as unknown as EventsV1Event;
    },
    async patchSeries(e, series) {
      return (await client.update(EVENTS_V1, e.metadata.namespace, e.metadata.name, (cur) => ({ ...cur, series }), PATCH)) as unknown as EventsV1Event;
    },
  };
}
