// kube-scheduler's recorder (client-go tools/events, v1.27): events.k8s.io/v1
// Events with reportingController (the scheduler's name), reportingInstance
// `<controller>-<hostname>`, an action, `regarding` the object, a note and an
// eventTime; repeats become a series (series.ts), written by the same rules
// as client-go's broadcaster: the first creates, the second patches the
// series, later ones are counted and written by the periodic refresh (30
// min) and finish (6 min) passes. The passes run only while something is
// remembered. Writes are made one at a time; a failed one is logged.
import { hostname } from 'node:os';
import type { ApiObject } from '../../registry/object.js';
import { isReason } from '../informer.js';
import type { ControllerClient } from '../client.js';
import { microTime } from '../leaderelection/record.js';
import { EventNamer, REAL_CLOCK, type Clock } from './clock.js';
import { asReference, eventNamespace, type EventType, type InvolvedObject } from './reference.js';
import { FINISH_MS, REFRESH_MS, SeriesCache, type EventsV1Event } from './series.js';
import { eventsV1Sink, type EventsV1Sink } from './sinks.js';

export interface EventsV1RecorderOptions {
  readonly clock?: Clock;
  /** The host part of reportingInstance (default: this machine's hostname). */
  readonly hostname?: string;
  /** The action of each reason when `event` is given none (e.g. the scheduler's: FailedScheduling → Scheduling). */
  readonly actions?: Readonly<Record<string, string>>;
  readonly refreshMs?: number;
  readonly finishMs?: number;
}

/** The actions kube-scheduler v1.27 records with its reasons. */
export const SCHEDULER_ACTIONS: Readonly<Record<string, string>> = {
  Scheduled: 'Binding', FailedScheduling: 'Scheduling', Preempted: 'Preempting',
};

export class EventsV1Recorder {
  readonly reportingInstance: string;
  private readonly clock: Clock;
  private readonly cache: SeriesCache;
  private readonly namer = new EventNamer();
  private readonly actions: Readonly<Record<string, string>>;
  private readonly refreshMs: number;
  private readonly finishMs: number;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly sink: EventsV1Sink, readonly reportingController: string, opts: EventsV1RecorderOptions = {}) {
    this.clock = opts.clock ?? REAL_CLOCK;
    this.reportingInstance = `${reportingController}-${opts.hostname ?? hostname()}`;
    this.actions = opts.actions ?? {};
    this.refreshMs = opts.refreshMs ?? REFRESH_MS;
    this.finishMs = opts.finishMs ?? FINISH_MS;
    this.cache = new SeriesCache(this.clock, this.finishMs);
  }

  /** Records an event about `obj`; resolves when what it causes is written (or failed and logged). */
  event(obj: ApiObject | InvolvedObject, type: EventType, reason: string, note: string, action = this.actions[reason] ?? '', related?: ApiObject | InvolvedObject): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const e = this.make(asReference(obj), related && asReference(related), type, reason, action, note);
    const write = this.cache.observe(e);
    this.ensureTimers();
    return write ? this.enqueue(() => this.write(write)) : this.tail;
  }

  /** refreshExistingEventSeries: every remembered series written again (run every refreshMs). */
  refresh(): Promise<void> {
    return this.enqueue(async () => {
      for (const e of this.cache.series()) await this.write(e);
    });
  }

  /** finishSeries: series idle for finishMs written a last time and forgotten; old single events forgotten (run every finishMs). */
  finish(): Promise<void> {
    return this.enqueue(async () => {
      for (const e of this.cache.finish()) {
        await this.write(e); // forgotten whatever the answer: no write here is worth retrying
        this.cache.forget(e);
      }
      if (this.cache.size === 0) this.clearTimers();
    });
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
  }

  private make(regarding: InvolvedObject, related: InvolvedObject | undefined, type: EventType, reason: string, action: string, note: string): EventsV1Event {
    const now = this.clock.now();
    return {
      metadata: { name: this.namer.name(regarding.name, now), namespace: eventNamespace(regarding) },
      eventTime: microTime(now), reportingController: this.reportingController, reportingInstance: this.reportingInstance,
      action, reason, regarding: { ...regarding }, ...(related ? { related: { ...related } } : {}), note, type,
    };
  }

  /** recordEvent: a series is a patch (a create when its event is gone), anything else a create. */
  private async write(e: EventsV1Event): Promise<EventsV1Event | undefined> {
    try {
      if (e.series) {
        try {
          return await this.sink.patchSeries(e, e.series);
        } catch (err) {
          if (!isReason(err, 'NotFound')) throw err;
        }
      }
      return await this.sink.create(e);
    } catch (err) {
      if (!isReason(err, 'AlreadyExists')) {
        console.error(`${this.reportingController}: event ${e.reason} for ${e.regarding.kind} ${e.regarding.namespace ?? ''}/${e.regarding.name} not recorded: ${(err as Error).message}`);
      }
      return undefined;
    }
  }

  private enqueue(f: () => Promise<unknown>): Promise<void> {
    const done = this.tail.then(f).then(() => undefined, (err) => console.error(`${this.reportingController}: event recording failed`, err));
    this.tail = done;
    return done;
  }

  private ensureTimers(): void {
    if (this.timers.length || this.stopped) return;
    const every = (ms: number, f: () => Promise<void>) => {
      const t = setInterval(() => void f(), ms);
      t.unref();
      return t;
    };
    this.timers = [every(this.refreshMs, () => this.refresh()), every(this.finishMs, () => this.finish())];
  }

  private clearTimers(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }
}

/** kube-scheduler's recorder for a profile: events.svc.io/v1 as the scheduler's user, with its actions. */
export function schedulerEventRecorder(client: ControllerClient, schedulerName: string, opts: EventsV1RecorderOptions = {}): EventsV1Recorder {
  return new EventsV1Recorder(eventsV1Sink(client), schedulerName, { actions: SCHEDULER_ACTIONS, ...opts });
}
