// client-go's tools/events de-duplication (event_broadcaster.go, v1.27):
// events.k8s.io/v1 Events are remembered by their isomorphic key — type,
// action, reason, reporting controller and instance, the regarding and the
// related object; NOT the note —
//
//   first of its key          → create it; remembered
//   second                    → series {count: 2, lastObservedTime: now}:
//                               a patch of the first event
//   later ones                → count + 1 and lastObservedTime in memory
//                               only; written by
//   refresh (every 30 min)    → every remembered series is patched again
//                               (client-go then keeps the server's answer; only
//                               the series is ever written, so we keep ours)
//   finish  (every 6 min)     → a series not observed for 6 minutes is patched
//                               a last time and forgotten; a single event 6
//                               minutes old is forgotten (a later repeat
//                               starts a new event)
import type { Clock } from './clock.js';
import { microTime } from '../leaderelection/record.js';
import type { EventType, InvolvedObject } from './reference.js';

/** kube's finishTime and refreshTime. */
export const FINISH_MS = 6 * 60_000;
export const REFRESH_MS = 30 * 60_000;

export interface EventSeries {
  readonly count: number;
  readonly lastObservedTime: string;
}

/** An events.k8s.io/v1 Event as client-go's tools/events makes it. */
export interface EventsV1Event {
  readonly metadata: { readonly name: string; readonly namespace: string; readonly resourceVersion?: string };
  readonly eventTime: string;
  readonly series?: EventSeries;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly reason: string;
  readonly regarding: InvolvedObject;
  readonly related?: InvolvedObject;
  readonly note: string;
  readonly type: EventType;
}

const REF_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;
const refKey = (r: InvolvedObject | undefined): string[] => REF_FIELDS.map((f) => r?.[f] ?? '');

/** getKey: what makes two events the same series (the note is not part of it). */
export function isomorphicKey(e: EventsV1Event): string {
  return JSON.stringify([e.type, e.action, e.reason, e.reportingController, e.reportingInstance, ...refKey(e.regarding), ...refKey(e.related)]);
}

/** The remembered events and what each observation, refresh and finish has to write. Pure: the recorder writes. */
export class SeriesCache {
  private readonly cache = new Map<string, EventsV1Event>();

  constructor(private readonly clock: Clock, private readonly finishMs = FINISH_MS) {}

  get size(): number {
    return this.cache.size;
  }

  /** An event recorded: what to write now (the event to create, or its first series to patch), or nothing. */
  observe(e: EventsV1Event): EventsV1Event | undefined {
    const key = isomorphicKey(e);
    const prior = this.cache.get(key);
    if (!prior) {
      this.cache.set(key, e);
      return e;
    }
    const series = { count: prior.series ? prior.series.count + 1 : 2, lastObservedTime: microTime(this.clock.now()) };
    const next = { ...prior, series };
    this.cache.set(key, next);
    return prior.series ? undefined : next;
  }

  /** refreshExistingEventSeries: every remembered series, to write again. */
  series(): EventsV1Event[] {
    return [...this.cache.values()].filter((e) => e.series);
  }

  /** finishSeries: single events older than the finish time are forgotten; series idle that long are returned to write a last time. */
  finish(): EventsV1Event[] {
    const limit = this.clock.now() - this.finishMs;
    const last: EventsV1Event[] = [];
    for (const [key, e] of this.cache) {
      if (e.series) {
        if (Date.parse(e.series.lastObservedTime) < limit) last.push(e);
      } else if (Date.parse(e.eventTime) < limit) {
        this.cache.delete(key);
      }
    }
    return last;
  }

  /** A finished series written: forgotten, unless observed again meanwhile. */
  forget(e: EventsV1Event): void {
    const key = isomorphicKey(e);
    if (this.cache.get(key) === e) this.cache.delete(key);
  }
}
