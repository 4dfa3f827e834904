// client-go's EventCorrelator (tools/record/events_cache.go, v1.27), run on
// every event before it is written:
//
//   event ─► aggregator ─► logger ─► spam filter ─► write (create, or patch)
//
// aggregator  events alike but for the message (same source, object, type,
//             reason, reporting controller and instance): once 10 different
//             messages were seen within 10 minutes of each other, the event
//             becomes one with the message "(combined from similar events):
//             <message>", correlated under the group's key — so later ones
//             count up that one event.
// logger      an event seen before under the same key (the full key: source,
//             object, type, reason, message; or the group's key) becomes a
//             patch of the first one: its name, count + 1, lastTimestamp and
//             message. Its memory is set right by `updateState` with what
//             the server answered.
// spam filter a token bucket per source and object (burst 25, one more every
//             5 minutes): an event over the budget is dropped.
//
// Each memory is an LRU of 4096 entries. The clock is injectable.
import type { Clock } from './clock.js';
import { EventNamer, REAL_CLOCK, rfc3339 } from './clock.js';
import { LruCache } from './lru.js';
import type { CoreEvent } from './reference.js';
import { TokenBucket } from '../../admission/plugins/eventratelimit/bucket.js';

/** kube's maxLruCacheEntries. */
export const MAX_LRU_CACHE_ENTRIES = 4096;

export interface CorrelatorOptions {
  readonly clock?: Clock;
  readonly lruCacheSize?: number;
  /** Events per source and object before the filter drops them (defaultSpamBurst). */
  readonly burst?: number;
  /** Refill of that budget, per second (defaultSpamQPS: one every 5 minutes). */
  readonly qps?: number;
  /** Different messages of one group before they are combined (defaultAggregateMaxEvents). */
  readonly maxEvents?: number;
  /** How long a group is remembered since its last event (defaultAggregateIntervalInSeconds). */
  readonly maxIntervalSeconds?: number;
}

export const CORRELATOR_DEFAULTS = {
  lruCacheSize: MAX_LRU_CACHE_ENTRIES, burst: 25, qps: 1 / 300, maxEvents: 10, maxIntervalSeconds: 600,
} as const;

/** The fields of an existing event a repeat changes (client-go's two-way merge patch of them). */
export interface EventPatch {
  readonly count: number;
  readonly lastTimestamp: string;
  readonly message: string;
}

export type CorrelateResult =
  | { readonly skip: true }
  | { readonly skip: false; readonly event: CoreEvent; readonly patch?: EventPatch };

/** The message of a combined event (EventAggregatorByReasonMessageFunc). */
export const combinedMessage = (message: string): string => `(combined from similar events): ${message}`;

const join = (parts: readonly (string | undefined)[]): string => parts.map((p) => p ?? '').join('');

/** getEventKey: source, object, type, reason, message. */
export function eventKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return join([e.source.component, e.source.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, e.type, e.reason, e.message]);
}

/** getSpamKey (v1.27): source and object. */
export function spamKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return join([e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion]);
}

/** EventAggregatorByReasonFunc: [the group's key, the key within the group (the message)]. */
export function aggregateKeys(e: CoreEvent): [string, string] {
  const o = e.involvedObject;
  return [join([e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance]), e.message];
}

interface AggregateRecord {
  readonly localKeys: Set<string>;
  readonly last: number;
}

class Aggregator {
  private readonly cache: LruCache<string, AggregateRecord>;

  constructor(size: number, private readonly maxEvents: number, private readonly maxIntervalMs: number, private readonly clock: Clock, private readonly namer: EventNamer) {
    this.cache = new LruCache(size);
  }

  /** The event to write (maybe a combined one) and the key it is correlated under. */
  aggregate(e: CoreEvent): [CoreEvent, string] {
    const now = this.clock.now();
    const [groupKey, localKey] = aggregateKeys(e);
    let record = this.cache.get(groupKey);
    if (!record || now - record.last > this.maxIntervalMs) record = { localKeys: new Set(), last: 0 };
    record.localKeys.add(localKey);
    record = { localKeys: record.localKeys, last: now };
    this.cache.add(groupKey, record);
    if (record.localKeys.size < this.maxEvents) return [e, eventKey(e)];
    // do not let the group's set grow past the maximum
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const at = rfc3339(now);
    const combined: CoreEvent = {
      metadata: { name: this.namer.name(e.involvedObject.name, now), namespace: e.metadata.namespace },
      involvedObject: e.involvedObject, reason: e.reason, message: combinedMessage(e.message), source: e.source,
      firstTimestamp: at, lastTimestamp: at, count: 1, type: e.type,
    };
    return [combined, groupKey];
  }
}

interface EventLog {
  readonly count: number;
  readonly firstTimestamp: string;
  readonly name: string;
  readonly resourceVersion?: string;
}

class EventLogger {
  private readonly cache: LruCache<string, EventLog>;

  constructor(size: number) {
    this.cache = new LruCache(size);
  }

  observe(e: CoreEvent, key: string): { event: CoreEvent; patch?: EventPatch } {
    const last = this.cache.get(key);
    let event = e;
    let patch: EventPatch | undefined;
    if (last && last.count > 0) {
      const { resourceVersion: _, ...meta } = e.metadata;
      event = {
        ...e, metadata: { ...meta, name: last.name, ...(last.resourceVersion ? { resourceVersion: last.resourceVersion } : {}) },
        firstTimestamp: last.firstTimestamp, count: last.count + 1,
      };
      patch = { count: event.count, lastTimestamp: event.lastTimestamp, message: event.message };
    }
    this.remember(key, event);
    return patch ? { event, patch } : { event };
  }

  remember(key: string, e: CoreEvent): void {
    this.cache.add(key, {
      count: e.count, firstTimestamp: e.firstTimestamp, name: e.metadata.name,
      ...(e.metadata.resourceVersion ? { resourceVersion: e.metadata.resourceVersion } : {}),
    });
  }
}

class SpamFilter {
  private readonly cache: LruCache<string, TokenBucket>;

  constructor(size: number, private readonly burst: number, private readonly qps: number, private readonly clock: Clock) {
    this.cache = new LruCache(size);
  }

  /** True when the event is over its source and object's budget. */
  filter(e: CoreEvent): boolean {
    const key = spamKey(e);
    let bucket = this.cache.get(key);
    if (!bucket) bucket = new TokenBucket(this.qps, this.burst, () => this.clock.now());
    const over = !bucket.tryAccept();
    this.cache.add(key, bucket);
    return over;
  }
}

export class EventCorrelator {
  private readonly aggregator: Aggregator;
  private readonly logger: EventLogger;
  private readonly spam: SpamFilter;

  constructor(opts: CorrelatorOptions = {}, namer = new EventNamer()) {
    const o = { ...CORRELATOR_DEFAULTS, ...opts };
    const clock = opts.clock ?? REAL_CLOCK;
    this.aggregator = new Aggregator(o.lruCacheSize, o.maxEvents, o.maxIntervalSeconds * 1000, clock, namer);
    this.logger = new EventLogger(o.lruCacheSize);
    this.spam = new SpamFilter(o.lruCacheSize, o.burst, o.qps, clock);
  }

  /** EventCorrelate: what to write for `e`, or skip it. */
  correlate(e: CoreEvent): CorrelateResult {
    const [aggregated, key] = this.aggregator.aggregate(e);
    const observed = this.logger.observe(aggregated, key);
    if (this.spam.filter(observed.event)) return { skip: true };
    return { skip: false, ...observed };
  }

  /** UpdateState: the event as the server answered a write of it (its name, count, resourceVersion). */
  updateState(e: CoreEvent): void {
    this.logger.remember(eventKey(e), e);
  }
}
