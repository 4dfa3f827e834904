// EventRateLimit (off by default; validating), as kube-apiserver v1.27 runs it
// (plugin/pkg/admission/eventratelimit): creates and updates of core Events
// take a token from a bucket per configured limit (config.ts; buckets:
// bucket.ts, lru.ts, limiter.ts; keys per type: keys.ts). Every limit is
// asked, so one request counts against each; when any bucket is empty the
// request is refused with kube's NewTooManyRequestsError over the aggregated
// reasons:
//
//   429 TooManyRequests  "Too many requests: limit reached on type Namespace for key ns1"
//   (several: "Too many requests: [limit reached on type Server for key , limit reached on type User for key bob]")
//
// As kube: only the kind Event of the core group counts, as the request names
// it, so Events written through events.svc.io/v1 (or events.k8s.io/v1) are
// not limited; dry runs are neither counted nor refused; other kinds pass.
import { aggregateErrors, newTooManyRequestsError } from '../../../api/meta/index.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import { monotonicClock, type Clock } from './bucket.js';
import { EventRateLimitConfigError, parseEventRateLimitConfig, type EventRateLimitConfig } from './config.js';
import { LimitEnforcer } from './limiter.js';

export const PLUGIN_NAME = 'EventRateLimit';


/** An Event of the core group, as the request names its kind (kube compares the request's GroupKind with core Event). */
function isCoreEvent(a: AdmissionAttributes): boolean {
  if (a.resource.group !== '' || a.resource.kind !== 'Event') return false;
  return a.requestInfo === undefined || a.requestInfo.apiGroup === '';
}

export interface EventRateLimitPlugin extends AdmissionPlugin {
  readonly enforcers: readonly LimitEnforcer[];
}

export function eventRateLimit(config: EventRateLimitConfig, now: Clock = monotonicClock): EventRateLimitPlugin {
  const enforcers = config.limits.map((l) => new LimitEnforcer(l, now));
  return {
    name: PLUGIN_NAME,
    enforcers,
    admit(a) {
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      if (!isCoreEvent(a) || a.dryRun) return;
      const refusals: string[] = [];
      for (const e of enforcers) {
        const refused = e.accept(a);
        if (refused !== undefined) refusals.push(refused);
      }
      if (refusals.length > 0) throw newTooManyRequestsError(aggregateErrors(refusals));
    },
  };
}

/** The plugin from its admission configuration; a missing or bad one stops the start as kube's `couldn't init admission plugin …`. */
export function eventRateLimitFromConfig(raw: unknown, now: Clock = monotonicClock): EventRateLimitPlugin {
  try {
    return eventRateLimit(parseEventRateLimitConfig(raw), now);
  } catch (err) {
    if (!(err instanceof EventRateLimitConfigError)) throw err;
    throw new EventRateLimitConfigError(`couldn't init admission plugin "${PLUGIN_NAME}": ${err.message}`);
  }
}
