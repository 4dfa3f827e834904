// kube's LatencyTrackers (endpoints/request/webhook_duration.go, v1.27), the
// part the request SLI needs: time a request spent in mutating admission
// webhooks (summed: they run one after another), in validating ones (the
// longest: they run together) and waiting in an APF queue (the longest). The
// request context carries the fields (no object per request); admission gets
// it through its attributes. apiserver_request_sli_duration_seconds is the
// request's duration less these (server/filters/metrics.ts).
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
