// EventRateLimit (validating; kube's plugin/pkg/admission/eventratelimit):
// creates and updates of core Events (the `events` resource of the core group;
// events.svc.io / events.k8s.io requests are another kind to kube and pass)
// take a token from a bucket per limit of the configuration — one for the
// server, or one per namespace, user, or event source + involved object (an
// LRU of `cacheSize` buckets). Every limit takes its token; when one has none
// left, the request is refused with 429 `Too many requests: limit reached on
// type Namespace for key <namespace>`.
import { isObject } from '../../../registry/object.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../registry/admission.js';
import type { ApiObject } from '../../../registry/object.js';
import { newTooManyRequestsError } from '../../../api/meta/index.js';
import { canonicalGroup } from '../../../endpoints/requestinfo.js';
import { BucketCache, TokenBucket } from './bucket.js';
import type { EventRateLimitConfiguration, Limit, LimitType } from './config.js';

export { parseEventRateLimitConfiguration, EventRateLimitConfigError, type EventRateLimitConfiguration } from './config.js';

const DEFAULT_CACHE_SIZE = 4096;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const rec = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

/** kube's getSourceAndObjectKey: source component and host, involved object kind, namespace, name, uid, apiVersion, joined. */
function sourceAndObjectKey(event: ApiObject | undefined): string {
  if (!event) return '';
  const source = rec((event as Record<string, unknown>).source);
  const involved = rec((event as Record<string, unknown>).involvedObject);
  return [source.component, source.host, involved.kind, involved.namespace, involved.name, involved.uid, involved.apiVersion].map(str).join('');
}

const KEYS: Record<LimitType, (a: AdmissionAttributes) => string> = {
  Server: () => '',
  Namespace: (a) => a.namespace,
  User: (a) => a.user?.name ?? '',
  SourceAndObject: (a) => sourceAndObjectKey(a.object),
};

interface Enforcer {
  readonly type: LimitType;
  bucket(key: string): TokenBucket;
}

function enforcer(limit: Limit, now: () => number): Enforcer {
  const make = () => new TokenBucket(limit.qps, limit.burst, now());
  if (limit.type === 'Server') {
    const single = make();
    return { type: limit.type, bucket: () => single };
  }
  const cache = new BucketCache(limit.cacheSize === 0 ? DEFAULT_CACHE_SIZE : limit.cacheSize, make);
  return { type: limit.type, bucket: (key) => cache.get(key) };
}

/** Whether the request is for core Events (kube compares the kind's GroupKind with core Event). */
function isCoreEvent(a: AdmissionAttributes): boolean {
  if (a.resource.group !== '' || a.resource.kind !== 'Event') return false;
  const requested = a.requestInfo?.apiGroup;
  return requested === undefined || canonicalGroup(requested) === '';
}

export function eventRateLimitPlugin(config: EventRateLimitConfiguration, now: () => number = Date.now): AdmissionPlugin {
  const enforcers = config.limits.map((l) => enforcer(l, now));
  return {
    name: 'EventRateLimit',
    phase: 'validating',
    admit(a) {
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      if (!isCoreEvent(a)) return;
      let refusal: Error | undefined;
      const t = now();
      for (const e of enforcers) {
        const key = KEYS[e.type](a);
        if (!e.bucket(key).tryAccept(t)) refusal = newTooManyRequestsError(`limit reached on type ${e.type} for key ${key}`);
      }
      if (refusal) throw refusal;
    },
  };
}
