// The request metrics of kube-apiserver v1.27 (apiserver/pkg/endpoints/metrics):
// declarations and the recording the request path does.
//
//   withRequestMetrics (server/filters/metrics.ts) ─► recordRequest: request_total,
//       request_duration_seconds, response_sizes (GET and LIST), longrunning_requests
//   in-flight limiter / APF ─► inflightWatermark, inqueueWatermark (current_inflight_ and
//       current_inqueue_requests: the most in use during the last second),
//       recordRequestTermination (429, 504)
//   watch (endpoints/watch.ts) ─► recordWatchEvent: watch_events_total, watch_events_sizes
//   filters ─► recordFilterLatency: request_filter_duration_seconds
//
// Series are cached per label set (children): the request path finds its cells
// through one map per label, without building a key.
import type { RequestInfo } from '../endpoints/requestinfo.js';
import { reportedVerb, requestScope } from './requestlabels.js';
import { exponentialBuckets, newCounter, newGauge, newHistogram, type CounterChild, type HistogramChild } from './registry.js';
import type { RatioedGauge } from './timingratio.js';

export const APISERVER_COMPONENT = 'apiserver';

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'] as const;
const LATENCY_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export const requestTotal = newCounter({
  name: 'apiserver_request_total',
  help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
  labelNames: REQUEST_LABELS, stabilityLevel: 'STABLE',
});
export const requestDuration = newHistogram({
  name: 'apiserver_request_duration_seconds',
  help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
  labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  buckets: LATENCY_BUCKETS, stabilityLevel: 'STABLE',
});
const SLI_BUCKETS = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const SLI_HELP = 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.';
/** The request's duration less admission webhooks' time and its APF queue wait (latencytrackers.ts); not for watches. */
export const requestSliDuration = newHistogram({
  name: 'apiserver_request_sli_duration_seconds', help: SLI_HELP,
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], buckets: SLI_BUCKETS,
});
/** The same, under its old name (deprecated in 1.27, still recorded). */
export const requestSloDuration = newHistogram({
  name: 'apiserver_request_slo_duration_seconds', help: SLI_HELP,
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], buckets: SLI_BUCKETS, deprecatedVersion: '1.27.0',
});
export const responseSizes = newHistogram({
  name: 'apiserver_response_sizes',
  help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
  buckets: exponentialBuckets(1000, 10, 7), stabilityLevel: 'STABLE',
});
export const longRunningRequests = newGauge({
  name: 'apiserver_longrunning_requests',
  help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], stabilityLevel: 'STABLE',
});
export const currentInflightRequests = newGauge({
  name: 'apiserver_current_inflight_requests',
  help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
  labelNames: ['request_kind'], stabilityLevel: 'STABLE',
});
export const currentInqueueRequests = newGauge({
  name: 'apiserver_current_inqueue_requests',
  help: 'Maximal number of queued requests in this apiserver per request kind in last second.',
  labelNames: ['request_kind'],
});
export const requestTerminations = newCounter({
  name: 'apiserver_request_terminations_total',
  help: 'Number of requests which apiserver terminated in self-defense.',
  labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
});
export const requestFilterDuration = newHistogram({
  name: 'apiserver_request_filter_duration_seconds',
  help: 'Request filter latency distribution in seconds, for each filter type',
  labelNames: ['filter'],
  buckets: [0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 5.0, 10.0, 15.0, 30.0],
});
export const watchEvents = newCounter({
  name: 'apiserver_watch_events_total',
  help: 'Number of events sent in watch clients',
  labelNames: ['group', 'version', 'kind'],
});
export const watchEventsSizes = newHistogram({
  name: 'apiserver_watch_events_sizes',
  help: 'Watch event size distribution in bytes',
  labelNames: ['group', 'version', 'kind'],
  buckets: exponentialBuckets(1024, 2, 8),
});

/** The labels of one request but its code. */
export interface RequestLabels {
  readonly verb: string;
  readonly dryRun: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly scope: string;
  readonly component: string;
}

/** The cells of one label set, found once per request by one key. */
export interface RequestSeries {
  readonly labels: RequestLabels;
  readonly duration: HistogramChild;
  readonly sli: HistogramChild;
  readonly slo: HistogramChild;
  readonly sizes: HistogramChild | undefined;
  readonly byCode: Map<number, CounterChild>;
}

/** Series by label value, one map level per label: finding one allocates nothing (a joined key string cost ~0.5 µs). */
type Level = Map<string, unknown>;
const series: Level = new Map();

function level(m: Level, k: string): Level {
  let n = m.get(k) as Level | undefined;
  if (!n) m.set(k, (n = new Map()));
  return n;
}

/** The series of a label set (made on first use). */
export function requestSeries(verb: string, dryRun: string, group: string, version: string, resource: string, subresource: string, scope: string, component: string): RequestSeries {
  const last = level(level(level(level(level(level(level(series, verb), dryRun), group), version), resource), subresource), scope);
  let s = last.get(component) as RequestSeries | undefined;
  if (s) return s;
  const labels: RequestLabels = { verb, dryRun, group, version, resource, subresource, scope, component };
  const base = seriesLabels(labels);
  s = {
    labels,
    duration: requestDuration.child({ ...base, dry_run: dryRun }),
    sli: requestSliDuration.child(base),
    slo: requestSloDuration.child(base),
    // kube records the sizes of read requests only.
    sizes: verb === 'GET' || verb === 'LIST' ? responseSizes.child(base) : undefined,
    byCode: new Map(),
  };
  last.set(component, s);
  return s;
}

/**
 * One finished request: its count by code, its duration, for GET/LIST its
 * response size, and unless it is a watch (undefined) its SLI duration: the
 * duration less `excludedSeconds` (webhooks, APF queue wait).
 */
export function recordRequest(s: RequestSeries, code: number, seconds: number, responseBytes: number, excludedSeconds?: number): void {
  let counter = s.byCode.get(code);
  if (!counter) s.byCode.set(code, (counter = requestTotal.child({ ...seriesLabels(s.labels), dry_run: s.labels.dryRun, code: String(code) })));
  counter.inc();
  s.duration.observe(seconds);
  if (excludedSeconds !== undefined) {
    s.sli.observe(seconds - excludedSeconds);
    s.slo.observe(seconds - excludedSeconds);
  }
  s.sizes?.observe(responseBytes);
}

function seriesLabels(l: RequestLabels) {
  return { verb: l.verb, group: l.group, version: l.version, resource: l.resource, subresource: l.subresource, scope: l.scope, component: l.component };
}

/** A long-running request (watch, exec…) started; call the returned function when it ends. */
export function longRunningStarted(l: RequestLabels): void {
  longRunningRequests.inc(seriesLabels(l));
}
export function longRunningFinished(l: RequestLabels): void {
  longRunningRequests.dec(seriesLabels(l));
}

/**
 * A request the server ended in self-defense (429 from the in-flight limit or
 * API Priority and Fairness, 504 on timeout): kube's RecordRequestTermination.
 * Uses the labels the metrics filter computed; without them (a request the filter
 * does not record), non-resource requests carry their path as the subresource, as
 * kube does, when it is one of the server's own paths.
 */
export function recordRequestTermination(ctx: TerminatedRequest, code: number): void {
  const known = ctx.metricsLabels;
  if (known) {
    requestTerminations.inc({ ...seriesLabels(known), component: APISERVER_COMPONENT, code: String(code) });
    return;
  }
  const info = ctx.requestInfo;
  if (!info) return;
  const scope = requestScope(info);
  const verb = reportedVerb(ctx.req.method, info, scope, headerText(ctx.req.headers['content-type']));
  const r = info.isResourceRequest;
  requestTerminations.inc({
    verb, group: r ? info.apiGroup : '', version: r ? info.apiVersion : '', resource: r ? info.resource : '',
    subresource: r ? info.subresource : KNOWN_PATHS.has(info.path) ? info.path : '', scope, component: APISERVER_COMPONENT, code: String(code),
  });
}

/** Non-resource paths named in termination labels (kube writes any path; others are blanked to keep the values bounded). */
const KNOWN_PATHS = new Set(['/healthz', '/livez', '/readyz', '/metrics', '/version', '/api', '/apis', '/openapi/v2', '/openapi/v3']);

export interface TerminatedRequest {
  readonly requestInfo?: RequestInfo | undefined;
  /** The labels the metrics filter computed (bounded: unknown resources blanked). */
  readonly metricsLabels?: RequestLabels | undefined;
  readonly req: { readonly method?: string | undefined; readonly headers: Readonly<Record<string, string | string[] | undefined>> };
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** How long a filter took before it handed the request on (kube's filterlatency). */
const filterChildren = new Map<string, HistogramChild>();
export function recordFilterLatency(filter: string, seconds: number): void {
  let c = filterChildren.get(filter);
  if (!c) filterChildren.set(filter, (c = requestFilterDuration.child({ filter })));
  c.observe(seconds);
}

/** Records events written to watch clients of one kind: apiserver_watch_events_total and _sizes. */
export interface WatchEventRecorder {
  record(bytes: number): void;
}
const watchRecorders = new Map<string, WatchEventRecorder>();
/** The recorder of an apiVersion ("apps/v1", "v1") and kind, made once per pair. */
export function watchEventRecorderFor(apiVersion: string, kind: string): WatchEventRecorder {
  const key = `${apiVersion}\u0000${kind}`;
  let r = watchRecorders.get(key);
  if (r) return r;
  const slash = apiVersion.lastIndexOf('/');
  const labels = { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
  const count = watchEvents.child(labels);
  const sizes = watchEventsSizes.child(labels);
  r = {
    record(bytes) {
      count.inc();
      sizes.observe(bytes);
    },
  };
  watchRecorders.set(key, r);
  return r;
}

/**
 * A watermark: the most requests per kind (readOnly, mutating) during the last
 * second, published once a second as kube's maxinflight and APF filters do —
 * executing requests to apiserver_current_inflight_requests, requests waiting
 * in APF's queues to apiserver_current_inqueue_requests.
 */
class Watermark {
  private current = [0, 0];
  private max = [0, 0];
  private timer: NodeJS.Timeout | undefined;
  /** The counts' ratio gauges, readOnly and mutating (apiserver_flowcontrol_read_vs_write_current_requests; flowcontrol/readvswrite.ts). */
  private ratios: readonly [RatioedGauge, RatioedGauge] | undefined;

  constructor(private readonly gauge: typeof currentInflightRequests) {}

  observeWith(readOnly: RatioedGauge, mutating: RatioedGauge): void {
    this.ratios = [readOnly, mutating];
    readOnly.set(this.current[0]!);
    mutating.set(this.current[1]!);
  }

  /** `at`: performance.now() when the caller has just read it (for the ratio gauges). */
  started(mutating: boolean, at?: number): void {
    const i = mutating ? 1 : 0;
    const n = ++this.current[i]!;
    if (n > this.max[i]!) this.max[i] = n;
    this.ratios?.[i].set(n, at);
    this.timer ??= setInterval(() => this.publish(), 1000).unref();
  }

  finished(mutating: boolean, at?: number): void {
    const i = mutating ? 1 : 0;
    const n = --this.current[i]!;
    this.ratios?.[i].set(n, at);
  }

  /** Sets the gauges to the window's maxima and starts a new window at the current counts. */
  publish(): void {
    this.gauge.set({ request_kind: 'readOnly' }, this.max[0]!);
    this.gauge.set({ request_kind: 'mutating' }, this.max[1]!);
    this.max = [...this.current];
  }
}

/** Requests executing (past the in-flight limit or APF's dispatch). */
export const inflightWatermark = new Watermark(currentInflightRequests);
/** Requests waiting in API Priority and Fairness' queues. */
export const inqueueWatermark = new Watermark(currentInqueueRequests);
