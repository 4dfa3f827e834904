// Writing responses: objects in the negotiated encoding, and errors as a
// Status body — the one place any thrown error becomes a response.
import { statusFromUnknown, type Status } from '../api/meta/index.js';
import { CONTENT_TYPES, encode, negotiate, type Encoding } from '../endpoints/negotiate.js';
import type { RequestContext } from './context.js';

export function writeObject(ctx: RequestContext, code: number, obj: unknown, enc?: Encoding, contentType?: string): void {
  const e = enc ?? negotiate(ctx.req.headers.accept) ?? 'json';
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  ctx.res.statusCode = code;
  ctx.res.setHeader('Content-Type', contentType ?? CONTENT_TYPES[e]);
  ctx.res.setHeader('Cache-Control', 'no-cache, private');
  ctx.res.end(encode(obj, e));
}

/** Writes a JSON body that is already text. */
export function writeJSONText(ctx: RequestContext, code: number, text: string): void {
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  ctx.res.statusCode = code;
  ctx.res.setHeader('Content-Type', 'application/json');
  ctx.res.setHeader('Cache-Control', 'no-cache, private');
  ctx.res.end(text);
}

/** Adds a `Warning: 299 - "<text>"` header (RFC 7234), one per warning, as Kubernetes sends them. */
export function addWarning(ctx: RequestContext, text: string): void {
  if (ctx.res.headersSent) return;
  const prev = ctx.res.getHeader('Warning');
  const list = prev === undefined ? [] : Array.isArray(prev) ? prev.map(String) : [String(prev)];
  ctx.res.setHeader('Warning', [...list, `299 - ${JSON.stringify(text)}`]);
}

export function writeText(ctx: RequestContext, code: number, body: string): void {
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  ctx.res.statusCode = code;
  ctx.res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  ctx.res.setHeader('Cache-Control', 'no-cache, private');
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  ctx.res.end(body);
}

/** Converts any error to a Status body once; errors that are not API errors are bugs and logged. */
export function writeError(ctx: RequestContext, err: unknown): void {
  const status: Status = statusFromUnknown(err);
  if (status.code === 500 && status.reason === 'InternalError') console.error(`svc: internal error serving ${ctx.req.method} ${ctx.req.url}:`, err);
  if (status.details?.retryAfterSeconds !== undefined) ctx.res.setHeader('Retry-After', String(status.details.retryAfterSeconds));
  writeObject(ctx, status.code ?? 500, status, negotiate(ctx.req.headers.accept) ?? 'json');
}
