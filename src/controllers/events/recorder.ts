// Events as kube's controllers record them (client-go tools/record): a
// core/v1 Event about an object, named `<object>.<hex nanoseconds>` in the
// object's namespace ('default' for cluster-scoped objects), with
// source.component (what `kubectl describe` shows under "From"). Every event
// goes through the EventCorrelator (correlator.ts): a repeat patches the
// first (count, lastTimestamp), similar events are combined, and a source
// spamming one object is cut off. Writes are made one at a time, in order,
// as client-go's broadcaster makes them. Recording never fails the caller: a
// refused or failed write is logged.
import type { ApiObject } from '../../registry/object.js';
import { isReason } from '../informer.js';
import type { ControllerClient } from '../client.js';
import { EventNamer, REAL_CLOCK, rfc3339, type Clock } from './clock.js';
import { EventCorrelator, type CorrelatorOptions } from './correlator.js';
import { asReference, eventNamespace, type CoreEvent, type EventType, type InvolvedObject } from './reference.js';
import { coreEventSink, type CoreEventSink } from './sinks.js';

export interface EventRecorderOptions extends CorrelatorOptions {
  /** Where events are written (default: the client's core/v1 events). */
  readonly sink?: CoreEventSink;
}

export class EventRecorder {
  private readonly sink: CoreEventSink;
  private readonly correlator: EventCorrelator;
  private readonly clock: Clock;
  private readonly namer = new EventNamer();
  private tail: Promise<void> = Promise.resolve();

  constructor(client: ControllerClient | undefined, readonly component: string, private readonly host = '', opts: EventRecorderOptions = {}) {
    if (!opts.sink && !client) throw new Error('EventRecorder: a client or a sink is needed');
    this.sink = opts.sink ?? coreEventSink(client!);
    this.clock = opts.clock ?? REAL_CLOCK;
    this.correlator = new EventCorrelator({ ...opts, clock: this.clock }, this.namer);
  }

  /** Records an event about `obj` (an object or a reference); resolves when written, dropped, or failed and logged. */
  event(obj: ApiObject | InvolvedObject, type: EventType, reason: string, message: string): Promise<void> {
    const ref = asReference(obj);
    const e = this.make(ref, type, reason, message);
    const done = this.tail.then(() => this.record(e)).catch((err) => {
      console.error(`${this.component}: event ${reason} for ${ref.kind} ${ref.namespace ?? ''}/${ref.name} not recorded: ${(err as Error).message}`);
    });
    this.tail = done;
    return done;
  }

  private make(ref: InvolvedObject, type: EventType, reason: string, message: string): CoreEvent {
    const now = this.clock.now();
    const at = rfc3339(now);
    return {
      metadata: { name: this.namer.name(ref.name, now), namespace: eventNamespace(ref) },
      involvedObject: { ...ref }, reason, message,
      source: { component: this.component, ...(this.host ? { host: this.host } : {}) },
      firstTimestamp: at, lastTimestamp: at, count: 1, type,
      reportingComponent: this.component, reportingInstance: this.host,
    };
  }

  /** recordToSink: correlate, then patch the first event or create one; the server's answer updates the correlator. */
  private async record(e: CoreEvent): Promise<void> {
    const r = this.correlator.correlate(e);
    if (r.skip) return;
    let written: CoreEvent | undefined;
    if (r.patch) {
      try {
        written = await this.sink.patch(r.event, r.patch);
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
      }
    }
    if (!written) {
      try {
        written = await this.sink.create(r.event);
      } catch (err) {
        if (isReason(err, 'AlreadyExists')) return;
        throw err;
      }
    }
    this.correlator.updateState(written);
  }
}
