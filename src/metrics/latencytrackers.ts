// kube's LatencyTrackers (endpoints/request/webhook_duration.go, v1.27): time a
// request spent in mutating admission webhooks (summed: they run one after
// another), in validating ones (the longest: they run together), waiting in an
// APF queue (the longest), in storage calls (summed: kube's etcd layer, here
// SQLite or etcd), converting what storage answered to the request's form
// (transform: versions, Tables), encoding the response (serialize) and
// handing its bytes to the connection (response-write). The request context
// carries the fields (no object per request); admission and the store get it
// through their write context. apiserver_request_sli_duration_seconds is the
// request's duration less the webhooks and the queue wait
// (server/filters/metrics.ts); a request slower than 500 ms gets the
// trackers' times as audit annotations (kube's writeLatencyToAnnotation:
// apiserver.latency.k8s.io/<layer> and /total).
import { formatGoDuration } from '../api/meta/goduration.js';
export interface LatencyTrackers {
  mutatingWebhookMs?: number;
  validatingWebhookMs?: number;
  apfQueueWaitMs?: number;
  storageMs?: number;
  transformMs?: number;
  serializeMs?: number;
  responseWriteMs?: number;
}

/** Runs one storage call, adding its time to the request's storage layer (kube's TrackStorageLatency). */
export async function timedStorage<T>(t: LatencyTrackers | undefined, call: () => Promise<T>): Promise<T> {
  if (!t) return call();
  const start = performance.now();
  try {
    return await call();
  } finally {
    t.storageMs = (t.storageMs ?? 0) + (performance.now() - start);
  }
}

/** The layers timed around a synchronous step of the response: what `f` took is added to it. */
export type SyncLayer = 'transformMs' | 'serializeMs' | 'responseWriteMs';

/** Runs `f`, adding its time to `layer` of the request's trackers (kube's Track*ResponseObjectLatency). */
export function timed<T>(t: LatencyTrackers | undefined, layer: SyncLayer, f: () => T): T {
  if (!t) return f();
  const start = performance.now();
  try {
    return f();
  } finally {
    t[layer] = (t[layer] ?? 0) + (performance.now() - start);
  }
}

export function trackMutatingWebhook(t: LatencyTrackers | undefined, ms: number): void {
  if (t) t.mutatingWebhookMs = (t.mutatingWebhookMs ?? 0) + ms;
}

export function trackValidatingWebhook(t: LatencyTrackers | undefined, ms: number): void {
  if (t && ms > (t.validatingWebhookMs ?? 0)) t.validatingWebhookMs = ms;
}

export function trackApfQueueWait(t: LatencyTrackers | undefined, ms: number): void {
  if (t && ms > (t.apfQueueWaitMs ?? 0)) t.apfQueueWaitMs = ms;
}

/** What the SLI leaves out (ms). */
export function excludedLatencyMs(t: LatencyTrackers): number {
  return (t.mutatingWebhookMs ?? 0) + (t.validatingWebhookMs ?? 0) + (t.apfQueueWaitMs ?? 0);
}

/** kube's threshold: only requests slower than this get latency annotations. */
export const LATENCY_ANNOTATION_THRESHOLD_MS = 500;
const DOMAINS = ['k8s.io', 'svc.io'] as const;

/** kube's annotation keys (apiserver.latency.k8s.io/<layer>) by tracker field. */
const LAYERS: readonly [layer: string, field: keyof LatencyTrackers][] = [
  ['transform-response-object', 'transformMs'], ['etcd', 'storageMs'], ['serialize-response-object', 'serializeMs'],
  ['response-write', 'responseWriteMs'], ['mutating-webhook', 'mutatingWebhookMs'], ['validating-webhook', 'validatingWebhookMs'],
];

/**
 * The audit annotations of a request that took totalMs (kube's
 * AuditAnnotationsFromLatencyTrackers and writeLatencyToAnnotation, v1.27):
 * none at or under 500 ms or when no tracked layer took time; else each
 * layer that did (Go's Duration text) and the total, under kube's key and
 * its svc.io spelling (the APF queue wait is not an annotation in v1.27).
 */
const NONE: readonly [string, string][] = [];
export function latencyAnnotations(t: LatencyTrackers, totalMs: number): readonly [key: string, value: string][] {
  if (!(totalMs > LATENCY_ANNOTATION_THRESHOLD_MS)) return NONE;
  const out: [string, string][] = [];
  const text = (ms: number) => formatGoDuration(Math.round(ms * 1e6) / 1e6);
  for (const [layer, field] of LAYERS) {
    const ms = t[field];
    if (ms) for (const d of DOMAINS) out.push([`apiserver.latency.${d}/${layer}`, text(ms)]);
  }
  if (out.length === 0) return NONE;
  for (const d of DOMAINS) out.push([`apiserver.latency.${d}/total`, text(totalMs)]);
  return out;
}
