// Admission metrics of kube-apiserver v1.27 (apiserver/pkg/admission/metrics):
//
//   step_admission_duration_seconds {type, operation, rejected}        the whole mutating
//       ("admit") or validating ("validate") phase
//   step_admission_duration_seconds_summary {type, operation, rejected}  the same as a
//       summary over the last 5 h (kube's latencySummaryMaxAge)
//   controller_admission_duration_seconds {name, type, operation, rejected}  each plugin's step
//   webhook_admission_duration_seconds {name, type, operation, rejected}     each webhook call
//   webhook_request_total {name, type, operation, code, rejected}
//   webhook_rejection_count {name, type, operation, error_type, rejection_code}
//   webhook_fail_open_count {name, type}
//
// Webhook types are "admit" (mutating) and "validating", as kube's dispatchers
// write them; codes over 600 are recorded as 600.
import { newCounter, newHistogram, type CounterChild, type HistogramChild } from './registry.js';
import { newSummary, type SummaryChild } from './summary.js';

const BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

export const stepAdmissionDuration = newHistogram({
  name: 'apiserver_admission_step_admission_duration_seconds',
  help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
  labelNames: ['type', 'operation', 'rejected'], buckets: BUCKETS, stabilityLevel: 'STABLE',
});
export const stepAdmissionDurationSummary = newSummary({
  name: 'apiserver_admission_step_admission_duration_seconds_summary',
  help: 'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
  labelNames: ['type', 'operation', 'rejected'], maxAgeSeconds: 5 * 3600,
});
export const controllerAdmissionDuration = newHistogram({
  name: 'apiserver_admission_controller_admission_duration_seconds',
  help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  labelNames: ['name', 'type', 'operation', 'rejected'], buckets: BUCKETS, stabilityLevel: 'STABLE',
});
export const webhookAdmissionDuration = newHistogram({
  name: 'apiserver_admission_webhook_admission_duration_seconds',
  help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  labelNames: ['name', 'type', 'operation', 'rejected'], buckets: [...BUCKETS, 10, 25], stabilityLevel: 'STABLE',
});
export const webhookRejections = newCounter({
  name: 'apiserver_admission_webhook_rejection_count',
  help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
});
export const webhookFailOpen = newCounter({
  name: 'apiserver_admission_webhook_fail_open_count',
  help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
  labelNames: ['name', 'type'],
});
export const webhookRequests = newCounter({
  name: 'apiserver_admission_webhook_request_total',
  help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
});

export type AdmissionStepType = 'admit' | 'validate';

/** Children by label value, one map level per label: a plugin step records without building a key. */
type Level = Map<string, unknown>;
const stepChildren: Level = new Map();
const controllerChildren: Level = new Map();

function level(m: Level, k: string): Level {
  let n = m.get(k) as Level | undefined;
  if (!n) m.set(k, (n = new Map()));
  return n;
}

/** One admission phase took `seconds` (kube's WithStepMetrics). */
export function observeAdmissionStep(type: AdmissionStepType, operation: string, rejected: boolean, seconds: number): void {
  const last = level(level(stepChildren, type), operation);
  const r = rejected ? 'true' : 'false';
  let c = last.get(r) as StepSeries | undefined;
  if (!c) last.set(r, (c = { histogram: stepAdmissionDuration.child({ type, operation, rejected: r }), summary: stepAdmissionDurationSummary.child({ type, operation, rejected: r }) }));
  c.histogram.observe(seconds);
  c.summary.observe(seconds);
}

/** A step's two series: kube records every step in the histogram and the summary. */
interface StepSeries {
  readonly histogram: HistogramChild;
  readonly summary: SummaryChild;
}

/** One plugin's step took `seconds` (kube's WithControllerMetrics). */
export function observeAdmissionController(name: string, type: AdmissionStepType, operation: string, rejected: boolean, seconds: number): void {
  const last = level(level(level(controllerChildren, name), type), operation);
  const r = rejected ? 'true' : 'false';
  let c = last.get(r) as HistogramChild | undefined;
  if (!c) last.set(r, (c = controllerAdmissionDuration.child({ name, type, operation, rejected: r })));
  c.observe(seconds);
}

/**
 * observeAdmissionController for one plugin's steps of one type, its series
 * found once per operation and outcome instead of on every call (the chain
 * records twenty-odd steps per write).
 */
export function controllerRecorder(name: string, type: AdmissionStepType): (operation: string, rejected: boolean, seconds: number) => void {
  const admitted = new Map<string, HistogramChild>();
  const refused = new Map<string, HistogramChild>();
  return (operation, rejected, seconds) => {
    const m = rejected ? refused : admitted;
    let c = m.get(operation);
    if (!c) m.set(operation, (c = controllerAdmissionDuration.child({ name, type, operation, rejected: rejected ? 'true' : 'false' })));
    c.observe(seconds);
  };
}

export type WebhookType = 'admit' | 'validating';

/** How a webhook call ended, as kube's dispatchers tell them apart. */
export type WebhookOutcome =
  | { readonly kind: 'allowed' }
  /** The webhook answered allowed: false, with this code. */
  | { readonly kind: 'rejected'; readonly code: number }
  /** The call failed (network, time-out, bad answer); `failOpen` under failurePolicy Ignore. */
  | { readonly kind: 'callFailed'; readonly failOpen: boolean; readonly code: number }
  /** The server failed around the call (a patch that does not apply…). */
  | { readonly kind: 'internal' };

export const WEBHOOK_ALLOWED: WebhookOutcome = { kind: 'allowed' };

const bounded = (code: number): string => String(code > 600 ? 600 : code);

/** The two series an allowed call records, by webhook name, type and operation: found once (nearly every call is allowed). */
const allowedSeries: Level = new Map();
function allowedOf(name: string, type: WebhookType, operation: string): { requests: CounterChild; duration: HistogramChild } {
  const last = level(level(allowedSeries, name), type);
  let s = last.get(operation) as { requests: CounterChild; duration: HistogramChild } | undefined;
  if (!s) {
    s = { requests: webhookRequests.child({ name, type, operation, code: '200', rejected: 'false' }), duration: webhookAdmissionDuration.child({ name, type, operation, rejected: 'false' }) };
    last.set(operation, s);
  }
  return s;
}

/** One webhook call: request count, latency, and rejections or fail-open as kube records them. */
export function observeWebhook(name: string, type: WebhookType, operation: string, seconds: number, outcome: WebhookOutcome): void {
  if (outcome.kind === 'allowed') {
    const s = allowedOf(name, type, operation);
    s.requests.inc();
    s.duration.observe(seconds);
    return;
  }
  let rejected = false;
  let code = 200;
  switch (outcome.kind) {
    case 'rejected':
      rejected = true;
      code = outcome.code;
      webhookRejections.inc({ name, type, operation, error_type: 'no_error', rejection_code: bounded(code) });
      break;
    case 'callFailed':
      code = outcome.code;
      if (outcome.failOpen) webhookFailOpen.inc({ name, type });
      else {
        rejected = true;
        webhookRejections.inc({ name, type, operation, error_type: 'calling_webhook_error', rejection_code: bounded(code) });
      }
      break;
    case 'internal':
      rejected = true;
      code = 0;
      webhookRejections.inc({ name, type, operation, error_type: 'apiserver_internal_error', rejection_code: '0' });
      break;
  }
  webhookRequests.inc({ name, type, operation, code: bounded(code), rejected: String(rejected) });
  webhookAdmissionDuration.observe({ name, type, operation, rejected: String(rejected) }, seconds);
}

