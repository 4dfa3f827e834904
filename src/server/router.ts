// The router behind the chain: health, version, /metrics, OpenAPI, discovery, then resources.
import { newNotFound, newRouteNotAcceptable } from '../api/meta/index.js';
import type { Health } from './health.js';
import type { Discovery } from '../endpoints/discovery.js';
import { VERSION_INFO } from '../endpoints/discovery.js';
import { acceptsAny } from '../endpoints/negotiate.js';
import { PageNotFound } from '../endpoints/resource.js';
import type { OpenAPIService } from '../openapi/service.js';
import { requestInfoOf, type Handler } from './context.js';
import { writeObject, writeText } from './respond.js';
import type { RequestContext } from './context.js';
import { METRICS_PATH, serveMetrics } from '../metrics/endpoint.js';

/** A document relying parties may cache for an hour (kube's OIDC discovery routes override `no-cache, private`). */
function writeDocument(ctx: RequestContext, contentType: string, body: string): void {
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Type', contentType);
  ctx.res.setHeader('Cache-Control', 'public, max-age=3600');
  ctx.res.end(body);
}

export interface RouterDeps {
  readonly health: Health;
  readonly discovery: Discovery;
  readonly resources: Handler;
  /** Whether a group (either spelling) is served. */
  readonly knowsGroup: (group: string) => boolean;
  /** /openapi/v2 and /openapi/v3. */
  readonly openapi: OpenAPIService;
  /** The service-account issuer's discovery documents (src/authn/serviceaccount/discovery.ts) for a path, if it is theirs. */
  readonly issuerDiscovery?: (path: string) => Promise<{ contentType: string; body: string } | undefined>;
  /** Plain-text debug pages (/debug/api_priority_and_fairness/…) for a path, if it is theirs. */
  readonly debug?: (path: string, query: URLSearchParams) => string | undefined;
  /** DELETE /metrics resets the metrics (--profiling, as kube's MetricsWithReset); default false. */
  readonly metricsWithReset?: boolean;
}

export function buildRouter(deps: RouterDeps): Handler {
  return async (ctx) => {
    const info = requestInfoOf(ctx);
    if (info.isResourceRequest) {
      // The resource handler routes (404, 405), then negotiates (406), as go-restful does.
      try {
        return await deps.resources(ctx);
      } catch (err) {
        if (err instanceof PageNotFound) return writeText(ctx, 404, '404 page not found\n');
        throw err;
      }
    }
    const health = await deps.health.handle(info.path, ctx.url.searchParams);
    if (health) return writeText(ctx, health.status, health.body);
    if (info.path === '/version' || info.path === '/version/') {
      // A go-restful route that produces JSON only: any other Accept is its 406 (the error body itself is negotiated).
      if (!acceptsAny(ctx.req.headers.accept, ['application/json'])) throw newRouteNotAcceptable(['application/json']);
      return writeObject(ctx, 200, VERSION_INFO, 'json');
    }
    if (info.path === METRICS_PATH) return serveMetrics(ctx, deps.metricsWithReset === true);
    if (info.path.startsWith('/openapi/') && deps.openapi.handle(ctx, info.path)) return;
    if (deps.issuerDiscovery && ctx.req.method === 'GET') {
      const doc = await deps.issuerDiscovery(info.path);
      if (doc) return writeDocument(ctx, doc.contentType, doc.body);
    }
    const debug = info.path.startsWith('/debug/') ? deps.debug?.(info.path, ctx.url.searchParams) : undefined;
    if (debug !== undefined) return writeText(ctx, 200, debug);
    if (deps.discovery.serve(ctx, info.path)) return;
    // Under a group the server knows, Kubernetes answers a Status; elsewhere a plain-text 404.
    const g = /^\/apis\/([^/]+)/.exec(info.path)?.[1];
    if ((g !== undefined && !deps.knowsGroup(g)) || (g === undefined && info.path !== '/api' && !info.path.startsWith('/api/'))) {
      return writeText(ctx, 404, '404 page not found\n');
    }
    throw newNotFound({ group: '', resource: '' }, '', 'the server could not find the requested resource');
  };
}

