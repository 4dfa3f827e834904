// GET /metrics: every exposed metric in the Prometheus text format (0.0.4),
// with kube's Content-Type. The chain has already authorized the request as a
// non-resource URL (system:monitoring, cluster-admin…).
import { endBody } from '../server/compress.js';
import type { RequestContext } from '../server/context.js';
import { exposition } from './registry.js';

export const METRICS_PATH = '/metrics';
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export async function serveMetrics(ctx: RequestContext): Promise<void> {
  const text = await exposition();
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
  endBody(ctx, ctx.req.method === 'HEAD' ? '' : text);
}
