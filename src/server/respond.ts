// Writing responses: objects in the negotiated encoding, and errors as a
// Status body — the one place any thrown error becomes a response. A
// protobuf answer is the object's envelope (src/protobuf) with the media type
// spelled as the client asked; a kind without a protobuf form falls back to
// the next type the client accepts, or 406.
import { newNotAcceptable, statusFromUnknown, type Status } from '../api/meta/index.js';
import { CONTENT_TYPES, TEXT_BODY_TYPES, encode, negotiate, protobufMediaType, type Encoding } from '../endpoints/negotiate.js';
import { encodeObject, ProtobufListWriter } from '../protobuf/index.js';
import { isObject } from '../schema/model.js';
import { countResponseBytes, type RequestContext } from './context.js';
import { canonicalGroup, groupSpelling } from '../endpoints/requestinfo.js';
import { endBody } from './compress.js';
import { drained } from './drain.js';
import { bulkLane } from './bulklane.js';
import { WarningRecorder } from './warnings.js';
import { timed } from '../metrics/latencytrackers.js';
import { auditRecordOf, auditResponseObject, auditResponseStatus, auditResponseText, auditWantsResponse } from '../audit/record.js';

export function writeObject(ctx: RequestContext, code: number, obj: unknown, enc?: Encoding, contentType?: string): void {
  const accept = ctx.req.headers.accept;
  const e = enc ?? negotiate(accept) ?? 'json';
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  if (auditRecordOf(ctx)) auditResponseObject(ctx, obj);
  if (e !== 'protobuf') return send(ctx, code, contentType ?? CONTENT_TYPES[e], timed(ctx, 'serializeMs', () => encode(obj, e)));
  const bytes = isObject(obj) ? timed(ctx, 'serializeMs', () => encodeObject(obj)) : undefined;
  if (bytes) return send(ctx, code, protobufMediaType(accept), bytes);
  const text = negotiate(accept, { protobuf: false });
  if (text === null || text === 'protobuf') {
    const status = statusFromUnknown(newNotAcceptable(TEXT_BODY_TYPES));
    return send(ctx, 406, CONTENT_TYPES.json, encode(status, 'json'));
  }
  send(ctx, code, CONTENT_TYPES[text], timed(ctx, 'serializeMs', () => encode(obj, text)));
}

/**
 * Writes an unpaged list in protobuf as storage chunks arrive: each item is
 * encoded once into its own buffer and the pieces are written in order with
 * backpressure (the envelope's length prefix needs the total size first, so
 * the bytes are sent after the last chunk; no single list-sized buffer or
 * string is ever made). Items' apiVersion/kind are not part of the message;
 * `view` converts each item to the request's version. Audited at
 * RequestResponse, the event keeps the list as JSON, as kube's audit encodes
 * a response object whatever the client negotiated.
 */
export async function writeProtobufList<T extends Record<string, unknown>>(
  ctx: RequestContext,
  chunks: AsyncIterable<{ revision: number; items: readonly T[] }>,
  listKind: string,
  apiVersion: string,
  view: (item: T) => Record<string, unknown> = (item) => item,
): Promise<void> {
  const list = ProtobufListWriter.for(apiVersion, listKind);
  if (!list) return writeObject(ctx, 406, statusFromUnknown(newNotAcceptable(TEXT_BODY_TYPES)), 'json');
  let revision = 0;
  const audited: Record<string, unknown>[] | undefined = auditWantsResponse(ctx) ? [] : undefined;
  for await (const chunk of chunks) {
    revision = chunk.revision;
    for (const item of chunk.items) {
      const v = view(item);
      list.add(v);
      if (audited) audited.push(listItem(v));
    }
    const turn = bulkLane.turn(); // encoding is bulk work: other requests get their turn between chunks
    if (turn) await turn;
  }
  const res = ctx.res;
  if (res.headersSent || res.writableEnded) return;
  if (audited) auditResponseObject(ctx, { kind: listKind, apiVersion, metadata: { resourceVersion: String(revision) }, items: audited });
  res.statusCode = 200;
  res.setHeader('Content-Type', protobufMediaType(ctx.req.headers.accept));
  res.setHeader('Cache-Control', 'no-cache, private');
  for (const piece of list.finish({ resourceVersion: String(revision) })) {
    countResponseBytes(ctx, piece);
    if (res.write(piece)) continue;
    if (!(await drained(res, res))) return; // the client went away
    const turn = bulkLane.turn();
    if (turn) await turn;
  }
  res.end();
}

/** A typed list's item: without kind and apiVersion, as the list's JSON form writes it. */
function listItem(item: Record<string, unknown>): Record<string, unknown> {
  const { kind: _k, apiVersion: _a, ...rest } = item;
  return rest;
}

function send(ctx: RequestContext, code: number, contentType: string, body: string | Buffer): void {
  ctx.res.statusCode = code;
  ctx.res.setHeader('Content-Type', contentType);
  ctx.res.setHeader('Cache-Control', 'no-cache, private');
  timed(ctx, 'responseWriteMs', () => endBody(ctx, body));
}

/** Writes a JSON body that is already text (or its UTF-8 bytes). */
export function writeJSONText(ctx: RequestContext, code: number, text: string | Buffer): void {
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  // only RequestResponse keeps the body: below it, a stored object's bytes are not decoded for nothing
  if (auditWantsResponse(ctx)) auditResponseText(ctx, typeof text === 'string' ? text : text.toString('utf8'));
  send(ctx, code, CONTENT_TYPES.json, text);
}

/** Adds a `Warning: 299 - "<text>"` header (RFC 7234), one per warning, as Kubernetes sends them. */
const warnings = new WeakMap<RequestContext, WarningRecorder>();

/** Adds a `Warning: 299 - "text"` header, with kube's de-duplication and truncation (server/warnings.ts). */
export function addWarning(ctx: RequestContext, text: string): void {
  if (ctx.res.headersSent) return;
  let r = warnings.get(ctx);
  if (!r) warnings.set(ctx, (r = new WarningRecorder()));
  if (r.add(text)) ctx.res.setHeader('Warning', r.headers);
}

/**
 * A Status about the request's own group in the spelling the request used:
 * the server names its groups in svc.io (`roles.rbac.authorization.svc.io
 * "x" not found`); a client that asked in k8s.io reads kube's
 * `roles.rbac.authorization.k8s.io "x" not found`.
 */
function inRequestSpelling(ctx: RequestContext, status: Status): Status {
  const info = ctx.requestInfo;
  if (!info?.isResourceRequest || groupSpelling(info.apiGroup) !== 'k8s.io') return status;
  const ours = canonicalGroup(info.apiGroup);
  const theirs = info.apiGroup;
  const respell = (text: string) => text.split(`.${ours}`).join(`.${theirs}`);
  return {
    ...status,
    ...(status.message !== undefined ? { message: respell(status.message) } : {}),
    ...(status.details ? { details: { ...status.details, ...(status.details.group === ours ? { group: theirs } : {}) } } : {}),
  };
}

export function writeText(ctx: RequestContext, code: number, body: string): void {
  if (ctx.res.headersSent || ctx.res.writableEnded) return;
  ctx.res.statusCode = code;
  ctx.res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  ctx.res.setHeader('Cache-Control', 'no-cache, private');
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  countResponseBytes(ctx, body);
  ctx.res.end(body);
}

/** Converts any error to a Status body once; errors that are not API errors are bugs and logged. */
export function writeError(ctx: RequestContext, err: unknown): void {
  const status: Status = inRequestSpelling(ctx, statusFromUnknown(err));
  if (status.code === 500 && status.reason === 'InternalError') console.error(`svc: internal error serving ${ctx.req.method} ${ctx.req.url}:`, err);
  if (status.details?.retryAfterSeconds !== undefined) ctx.res.setHeader('Retry-After', String(status.details.retryAfterSeconds));
  auditResponseStatus(ctx, status);
  writeObject(ctx, status.code ?? 500, status, negotiate(ctx.req.headers.accept) ?? 'json');
}
