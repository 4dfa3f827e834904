// kube's LatencyTrackers (endpoints/request/webhook_duration.go, v1.27), the
// part the request SLI needs: time a request spent in mutating admission
// webhooks (summed: they run one after another), in validating ones (the
// longest: they run together) and waiting in an APF queue (the longest). The
// request context carries the fields (no object per request); admission gets
// it through its attributes. apiserver_request_sli_duration_seconds is the
// request's duration less these (server/filters/metrics.ts); a request slower
// than 500 ms gets the trackers' times as audit annotations (kube's
// writeLatencyToAnnotation: apiserver.latency.k8s.io/<layer> and /total).
import { formatGoDuration } from '../api/meta/goduration.js';
export interface LatencyTrackers {
  mutatingWebhookMs?: number;
  validatingWebhookMs?: number;
  apfQueueWaitMs?: number;
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

/**
 * The audit annotations of a request that took totalMs (kube's
 * AuditAnnotationsFromLatencyTrackers and writeLatencyToAnnotation, v1.27):
 * none at or under 500 ms or when no tracked layer took time; else each
 * layer that did (Go's Duration text) and the total, under kube's key and
 * its svc.io spelling. The layers this server tracks are admission webhooks'
 * (kube's etcd, transform, serialize and response-write layers are not
 * tracked here; the APF queue wait is not an annotation in v1.27).
 */
const NONE: readonly [string, string][] = [];
export function latencyAnnotations(t: LatencyTrackers, totalMs: number): readonly [key: string, value: string][] {
  if (!(totalMs > LATENCY_ANNOTATION_THRESHOLD_MS)) return NONE;
  const layers: [string, number | undefined][] = [['mutating-webhook', t.mutatingWebhookMs], ['validating-webhook', t.validatingWebhookMs]];
  const out: [string, string][] = [];
  const text = (ms: number) => formatGoDuration(Math.round(ms * 1e6) / 1e6);
  for (const [layer, ms] of layers) {
    if (ms) for (const d of DOMAINS) out.push([`apiserver.latency.${d}/${layer}`, text(ms)]);
  }
  if (out.length === 0) return NONE;
  for (const d of DOMAINS) out.push([`apiserver.latency.${d}/total`, text(totalMs)]);
  return out;
}
