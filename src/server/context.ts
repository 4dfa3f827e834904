// The per-request context: what the filters learn, passed explicitly to the
// next stage. Later stages read earlier results through these accessors,
// which fail loudly when a stage runs out of order.
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestInfo, ResourceRequestInfo } from '../endpoints/requestinfo.js';
import type { UserInfo } from '../authn/user.js';
import type { RequestLabels } from '../metrics/apiserver.js';
import type { LatencyTrackers } from '../metrics/latencytrackers.js';
import type { AuditRecord } from '../audit/record.js';
import type { ServerClosing } from './closing.js';

/** The response side, common to HTTP/1.1 and HTTP/2 compatibility responses. */
export interface Response {
  statusCode: number;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  setHeader(name: string, value: string | number | readonly string[]): unknown;
  getHeader(name: string): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  once(event: 'close' | 'drain', fn: () => void): unknown;
  off(event: 'close' | 'drain', fn: () => void): unknown;
}

/** The request side we read. */
export interface Request extends AsyncIterable<Buffer> {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly socket: unknown;
  once(event: 'close', fn: () => void): unknown;
}

/** The latency trackers' fields (webhooks, APF queue wait: metrics/latencytrackers.ts) are the request's own. */
export interface RequestContext extends LatencyTrackers {
  readonly req: Request;
  readonly res: Response;
  readonly url: URL;
  requestInfo?: RequestInfo;
  user?: UserInfo;
  /** Long-running requests (watch) are exempt from in-flight limits and the timeout. */
  longRunning?: boolean;
  /** The server's shutdown: long-running handlers end their responses when it begins (server/closing.ts). */
  closing?: ServerClosing;
  /** Large bodies may be gzip-encoded (the APIResponseCompression gate; see compress.ts). */
  compression?: boolean;
  /** Body bytes written so far (before compression); counted only once set (the metrics filter sets 0 for GET and LIST). */
  responseBytes?: number;
  /**
   * The filter that refused the request (authentication, impersonation, authorization):
   * kube answers these before its instrumented handlers, so apiserver_request_total and
   * the request's duration do not count them.
   */
  refusedBy?: 'authentication' | 'impersonation' | 'authorization';
  /** The request's metric labels, set by the metrics filter (server/filters/metrics.ts). */
  metricsLabels?: RequestLabels;
  /** When the chain started on the request, epoch µs (kube's WithRequestReceivedTimestamp; the audit event's requestReceivedTimestamp). */
  receivedAt?: number;
  /** The request's audit record, when the audit policy records it (src/audit/record.ts; read through its accessors). */
  audit?: AuditRecord;
  /** Audit annotations (server/auditannotations.ts; read through its accessors). */
  auditAnnotations?: Map<string, string>;
}

export type Handler = (ctx: RequestContext) => Promise<void>;

export function requestInfoOf(ctx: RequestContext): RequestInfo {
  if (!ctx.requestInfo) throw new Error('request info read before the request-info filter ran');
  return ctx.requestInfo;
}

export function resourceInfoOf(ctx: RequestContext): ResourceRequestInfo {
  const info = requestInfoOf(ctx);
  if (!info.isResourceRequest) throw new Error('not a resource request');
  return info;
}

export function userOf(ctx: RequestContext): UserInfo {
  if (!ctx.user) throw new Error('user read before the authentication filter ran');
  return ctx.user;
}

/** Counts body bytes for apiserver_response_sizes when the metrics filter asked for them. */
export function countResponseBytes(ctx: RequestContext, body: string | Uint8Array): void {
  if (ctx.responseBytes !== undefined) ctx.responseBytes += typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}
