// Where recorders write (client-go's EventSink): through a controller's
// ControllerClient, authorized as its user.
//
// core/v1     create; a repeat patches count, lastTimestamp and message.
// events/v1   create in events.svc.io/v1; a series patches `series`. The
//             Events live in the core store (one resource, two APIs): the
//             write is authorized, decoded and tracked in events.svc.io/v1,
//             and converted to the stored core/v1 Event by the managedFields
//             hook, as the HTTP path converts a request in another version
//             (the ControllerClient does not convert versions itself: a
//             target whose version is not the storage version needs this).
import type { ApiObject } from '../../registry/object.js';
import type { ControllerClient, Target, WriteOptions } from '../client.js';
import type { ControllerContext } from '../context.js';
import type { TrackFields } from '../../registry/store.js';
import { managedFieldsConverter, versionerFor, type Versioner } from '../../endpoints/versioning.js';
import { trackWrite } from '../../endpoints/fieldmanager.js';
import { kindSchema } from '../../endpoints/kindschema.js';
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

/** The events.svc.io/v1 view of the stored Events and the managedFields hook that stores a write as core/v1. */
function eventsV1Lens(ctx: ControllerContext, manager: string): { versions: Versioner; track: TrackFields } {
  const served = ctx.registry.lookup(EVENTS_V1.group, EVENTS_V1.version, EVENTS_V1.resource);
  if (!served) throw new Error('events.svc.io/v1 events are not served');
  const versions = versionerFor(served, ctx.gates);
  const tracking = {
    manager, apiVersion: `${served.group}/${served.version}`, kind: served.kind, schema: kindSchema(served), converter: managedFieldsConverter(served),
  };
  const track: TrackFields = (live, next) => versions.toStorage(trackWrite(tracking, live && versions.toRequest(live), next));
  return { versions, track };
}

export function eventsV1Sink(ctx: ControllerContext, client: ControllerClient): EventsV1Sink {
  const { versions, track } = eventsV1Lens(ctx, client.manager);
  const shown = (o: ApiObject) => versions.toRequest(o) as unknown as EventsV1Event;
  return {
    async create(e) {
      const { resourceVersion: _, ...metadata } = e.metadata;
      return shown(await client.create(EVENTS_V1, e.metadata.namespace, { apiVersion: 'events.svc.io/v1', kind: 'Event', ...e, metadata } as unknown as ApiObject, { track }));
    },
    async patchSeries(e, series) {
      return shown(await client.update(EVENTS_V1, e.metadata.namespace, e.metadata.name, (cur) => ({ ...versions.toRequest(cur), series }), { ...PATCH, track }));
    },
  };
}
