// Events as kube's controllers record them (client-go tools/record): a
// core/v1 Event about an object, named `<object>.<hex nanoseconds>` in the
// object's namespace ('default' for cluster-scoped objects), with
// source.component (what `kubectl describe` shows under "From"). A repeat of
// the same event (same object, type, reason, message and source) within the
// correlator's memory updates the first one — count + 1, lastTimestamp — as
// kube's EventCorrelator does, instead of adding another. Recording never
// fails the caller: a refused or failed write is logged.
import type { ApiObject } from '../registry/object.js';
import { nowTimestamp } from '../registry/object.js';
import { isReason } from './informer.js';
import type { ControllerClient } from './client.js';

const EVENTS = { group: '', version: 'v1', resource: 'events' };
/** How many distinct events are remembered for correlation (kube's maxLruCacheEntries). */
const REMEMBERED = 4096;

export type EventType = 'Normal' | 'Warning';

export interface InvolvedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly fieldPath?: string;
}

/** The reference an Event keeps of its object. */
export function referenceTo(obj: ApiObject, fieldPath?: string): InvolvedObject {
  return {
    apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '',
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    name: obj.metadata.name!, ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
    ...(obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {}),
    ...(fieldPath ? { fieldPath } : {}),
  };
}

export class EventRecorder {
  /** correlation key → the Event written for it (namespace, name, count). */
  private readonly seen = new Map<string, { namespace: string; name: string; count: number }>();
  private lastNanos = 0n;

  constructor(private readonly client: ControllerClient, readonly component: string, private readonly host = '') {}

  /** Records an event about `obj` (an object or a reference); resolves when written (or when the write failed and was logged). */
  event(obj: ApiObject | InvolvedObject, type: EventType, reason: string, message: string): Promise<void> {
    const ref = 'metadata' in obj ? referenceTo(obj as ApiObject) : (obj as InvolvedObject);
    return this.record(ref, type, reason, message).catch((err) => {
      console.error(`${this.component}: event ${reason} for ${ref.kind} ${ref.namespace ?? ''}/${ref.name} not recorded: ${(err as Error).message}`);
    });
  }

  private async record(ref: InvolvedObject, type: EventType, reason: string, message: string): Promise<void> {
    const namespace = ref.namespace || 'default';
    const key = [this.component, this.host, ref.kind, ref.namespace ?? '', ref.name, ref.uid ?? '', ref.apiVersion, type, reason, message].join('\u0000');
    const prior = this.seen.get(key);
    const now = nowTimestamp();
    if (prior) {
      try {
        await this.client.update(EVENTS, prior.namespace, prior.name, (cur) => ({ ...cur, count: ((cur.count as number) ?? prior.count) + 1, lastTimestamp: now }));
        prior.count++;
        this.touch(key, prior);
        return;
      } catch (err) {
        if (!isReason(err, 'NotFound')) throw err;
        this.seen.delete(key); // gone (expired or deleted): a new one
      }
    }
    const name = `${ref.name}.${this.nanos().toString(16)}`;
    await this.client.create(EVENTS, namespace, {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { ...ref },
      reason, message, type,
      source: { component: this.component, ...(this.host ? { host: this.host } : {}) },
      firstTimestamp: now, lastTimestamp: now, count: 1,
      reportingComponent: this.component, reportingInstance: this.host,
    });
    this.touch(key, { namespace, name, count: 1 });
  }

  /** Unique, increasing nanosecond timestamps (two events in one millisecond get different names). */
  private nanos(): bigint {
    let n = BigInt(Date.now()) * 1_000_000n;
    if (n <= this.lastNanos) n = this.lastNanos + 1n;
    this.lastNanos = n;
    return n;
  }

  private touch(key: string, v: { namespace: string; name: string; count: number }): void {
    this.seen.delete(key);
    this.seen.set(key, v);
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
  }
}
