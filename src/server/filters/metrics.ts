// Request metrics (kube's InstrumentRouteFunc and RecordLongRunning, as a
// filter right after request info): every resource request is counted by its
// canonical verb, dry run, group, version, resource, subresource, scope and
// code, timed, and for GET/LIST its body size recorded; long-running ones
// (watch, exec…) are also counted while open. The health roots (/healthz,
// /livez, /readyz) are recorded as kube's health handlers do (path as the
// subresource, component ""); other non-resource paths are not recorded.
//
// Label values stay bounded: a group/version/resource this server does not
// serve is recorded with empty group, version, resource and subresource, and a
// subresource the resource does not have with an empty subresource. The group
// is recorded as the request spelled it (svc.io or k8s.io), so dashboards
// written for kube's group names keep working for clients using them.
//
// Errors thrown by later stages are written here (as recovery would), so the
// code and body size recorded are the ones the client gets. As in kube, whose
// handlers are instrumented behind the filters, requests refused by
// authentication (401), impersonation or authorization (403, or 500 when an
// authorizer failed) are not counted; 429 (in-flight limit) and 504 (timeout)
// are, with apiserver_request_terminations_total. apiserver_request_sli_duration_seconds
// (and the deprecated _slo_) leave out admission webhooks' time and the APF
// queue wait (metrics/latencytrackers.ts), for every request but watches.
import { performance } from 'node:perf_hooks';
import { requestInfoOf, type Handler, type RequestContext } from '../context.js';
import { writeError } from '../respond.js';
import { APISERVER_COMPONENT, longRunningFinished, longRunningStarted, recordRequest, requestSeries, type RequestSeries } from '../../metrics/apiserver.js';
import { dryRunLabel, reportedVerb, requestScope } from '../../metrics/requestlabels.js';
import { excludedLatencyMs } from '../../metrics/latencytrackers.js';

export interface RequestMetricsDeps {
  /** The subresources of a served group (either spelling)/version/resource, or undefined when it is not served. */
  readonly served: (group: string, version: string, resource: string) => readonly string[] | undefined;
}

/** `served` over a lookup of served resources, their subresource names listed once per resource. */
export function servedSubresources(lookup: (group: string, version: string, resource: string) => { readonly subresources: readonly { readonly name: string }[] } | undefined): RequestMetricsDeps['served'] {
  const names = new WeakMap<object, readonly string[]>();
  return (group, version, resource) => {
    const r = lookup(group, version, resource);
    if (!r) return undefined;
    let n = names.get(r);
    if (!n) names.set(r, (n = r.subresources.map((x) => x.name)));
    return n;
  };
}

const HEALTH_ROOTS = new Set(['/healthz', '/livez', '/readyz']);

function seriesFor(ctx: RequestContext, deps: RequestMetricsDeps): RequestSeries | undefined {
  const info = requestInfoOf(ctx);
  if (!info.isResourceRequest && !HEALTH_ROOTS.has(info.path)) return undefined;
  const scope = requestScope(info);
  const ct = ctx.req.headers['content-type'];
  const verb = reportedVerb(ctx.req.method, info, scope, Array.isArray(ct) ? ct[0] : ct);
  const dryRun = dryRunLabel(ctx.url.search, ctx.url.searchParams);
  if (!info.isResourceRequest) return requestSeries(verb, dryRun, '', '', '', info.path, scope, '');
  const subresources = deps.served(info.apiGroup, info.apiVersion, info.resource);
  if (!subresources) return requestSeries(verb, dryRun, '', '', '', '', scope, APISERVER_COMPONENT);
  const sub = info.subresource === '' || subresources.includes(info.subresource) ? info.subresource : '';
  return requestSeries(verb, dryRun, info.apiGroup, info.apiVersion, info.resource, sub, scope, APISERVER_COMPONENT);
}

export function withRequestMetrics(next: Handler, deps: RequestMetricsDeps): Handler {
  return async (ctx) => {
    const series = seriesFor(ctx, deps);
    if (!series) return next(ctx);
    const start = performance.now();
    ctx.metricsLabels = series.labels;
    if (series.sizes) ctx.responseBytes = 0;
    const longRunning = ctx.longRunning === true;
    if (longRunning) longRunningStarted(series.labels);
    try {
      await next(ctx);
    } catch (err) {
      if (ctx.res.headersSent) throw err;
      writeError(ctx, err);
    } finally {
      if (longRunning) longRunningFinished(series.labels);
      if (ctx.refusedBy === undefined) {
        // kube tracks latency (and so records the SLI) for every request but watches
        const excluded = requestInfoOf(ctx).verb === 'watch' ? undefined : excludedLatencyMs(ctx) / 1000;
        recordRequest(series, ctx.res.statusCode, (performance.now() - start) / 1000, ctx.responseBytes ?? 0, excluded);
      }
    }
  };
}
