// GET /metrics: every exposed metric in the Prometheus text format (0.0.4),
// with kube's Content-Type. The chain has already authorized the request as a
// non-resource URL (system:monitoring, cluster-admin…; DELETE needs verb delete).
// With reset (kube's MetricsWithReset, installed when --profiling is on),
// DELETE resets the metrics and answers "metrics reset"; without it, DELETE,
// like any method, gets the metrics (kube's promhttp handler ignores the method).
import { endBody } from '../server/compress.js';
import type { RequestContext } from '../server/context.js';
import { exposition, resetMetrics } from './registry.js';

export const METRICS_PATH = '/metrics';
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export async function serveMetrics(ctx: RequestContext, withReset = false): Promise<void> {
  if (withReset && ctx.req.method === 'DELETE') {
    resetMetrics();
    ctx.res.statusCode = 200;
    ctx.res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    endBody(ctx, 'metrics reset\n');
    return;
  }
  const text = await exposition();
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
  endBody(ctx, ctx.req.method === 'HEAD' ? '' : text);
}
