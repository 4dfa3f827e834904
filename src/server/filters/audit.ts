// The audit filter (kube's WithAudit and WithFailedAuthenticationAudit).
// After authentication, before impersonation: the policy's level for the
// request (None → nothing more is done); RequestReceived goes to the backend
// before the request goes on — a backend that cannot store it (blocking-strict)
// fails the request with 500 "failed to store audit event"; long-running
// requests (watch, log follow…) get ResponseStarted when their response
// starts; every request ends with ResponseComplete, or with Panic when a
// later stage failed with something that is not an API error (a bug, kube's
// panic: 500 "APIServer panic'd: …"). The record is built from what the
// filters already know; later stages complete it (src/audit/record.ts).
import type { Backend } from '../../audit/backend.js';
import type { PolicyEvaluator, AuditAttributes } from '../../audit/checker.js';
import { eventCounter, observePolicyLevel, rejectedCounter } from '../../audit/metrics.js';
import { AuditRecord, attachRecord, auditRecordOf, eventUser, nowMicros } from '../../audit/record.js';
import { sourceIPs } from '../../audit/sourceips.js';
import type { ObjectReference, RequestAuditConfig, Stage } from '../../audit/types.js';
import { statusFromUnknown, StatusError } from '../../api/meta/index.js';
import type { RequestInfo } from '../../endpoints/requestinfo.js';
import type { Handler, RequestContext, Response } from '../context.js';
import { writeError, writeText } from '../respond.js';
import { addAuditAnnotation } from '../auditannotations.js';
import { latencyAnnotations } from '../../metrics/latencytrackers.js';

export interface AuditDeps {
  readonly backend: Backend;
  readonly policy: PolicyEvaluator;
}

const MAX_USER_AGENT = 1024;

function userAgentOf(ctx: RequestContext): string {
  const ua = ctx.req.headers['user-agent'] ?? '';
  return ua.length > MAX_USER_AGENT ? `${ua.slice(0, MAX_USER_AGENT)}...TRUNCATED` : ua;
}

function peerAddress(ctx: RequestContext): string | undefined {
  return (ctx.req.socket as { remoteAddress?: string } | undefined)?.remoteAddress;
}

function attributes(info: RequestInfo, user: { name: string; groups: readonly string[] } | undefined): AuditAttributes {
  const u = user ?? NO_USER;
  if (!info.isResourceRequest) return { user: u, verb: info.verb, isResourceRequest: false, path: info.path };
  return { user: u, verb: info.verb, isResourceRequest: true, path: info.path, namespace: info.namespace, apiGroup: info.apiGroup, resource: info.resource, subresource: info.subresource, name: info.name };
}
const NO_USER = { name: '', groups: [] as readonly string[] };

function objectRefOf(info: RequestInfo): ObjectReference | undefined {
  if (!info.isResourceRequest) return undefined;
  return { resource: info.resource, namespace: info.namespace, name: info.name, apiGroup: info.apiGroup, apiVersion: info.apiVersion, subresource: info.subresource };
}

function newRecord(ctx: RequestContext, config: RequestAuditConfig, info: RequestInfo, authenticated = true): AuditRecord {
  const u = authenticated ? ctx.user : undefined;
  return new AuditRecord(
    config,
    String(ctx.res.getHeader('Audit-Id') ?? ''),
    ctx.req.url ?? '/',
    info.verb,
    u ? eventUser(u) : {},
    sourceIPs(ctx.req.headers, peerAddress(ctx)),
    userAgentOf(ctx),
    ctx.receivedAt ?? nowMicros(),
    objectRefOf(info),
  );
}

/** kube's processAuditEvent: omitted stages are not sent (and count as stored). */
function emit(backend: Backend, ctx: RequestContext, r: AuditRecord, stage: Stage, at = nowMicros()): boolean | Promise<boolean> {
  if (r.config.omitStages.includes(stage)) return true;
  const ev = r.snapshot(ctx, stage, stage === 'RequestReceived' ? r.requestReceivedTimestamp : at);
  eventCounter.inc();
  return backend.processEvents([ev]);
}

/** "Connection closed early": what kube records when nothing was written. */
const CLOSED_EARLY = { status: 'Success', message: 'Connection closed early', code: 200 } as const;

export function withAudit(next: Handler, deps: AuditDeps): Handler {
  const { backend, policy } = deps;
  return async (ctx) => {
    const info = ctx.requestInfo!;
    const config = policy.evaluate(attributes(info, ctx.user));
    observePolicyLevel(config.level);
    if (config.level === 'None') return next(ctx);
    const r = newRecord(ctx, config, info);
    attachRecord(ctx, r);
    let stored = emit(backend, ctx, r, 'RequestReceived');
    if (stored !== true) stored = await stored;
    if (!stored) {
      rejectedCounter.inc();
      // kube's responsewriters.InternalError
      return writeText(ctx, 500, `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '')}: failed to store audit event\n`);
    }
    if (ctx.longRunning) watchResponseStart(ctx.res, () => {
      if (r.started) return;
      r.started = true;
      r.responseStatus ??= { code: ctx.res.statusCode };
      void emit(backend, ctx, r, 'ResponseStarted');
    });
    let rethrow: unknown;
    try {
      await next(ctx);
    } catch (err) {
      if (!(err instanceof StatusError)) {
        // kube's panic: the Panic stage instead of ResponseComplete, then the error answered as before.
        r.responseStatus = { status: 'Failure', message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`, reason: 'InternalError', code: 500 };
        const done = emit(backend, ctx, r, 'Panic');
        if (done !== true && done !== false) await done;
        throw err;
      }
      if (ctx.res.headersSent) rethrow = err; // the response started: recovery ends it, after ResponseComplete
      else writeError(ctx, err); // records the Status (respond.ts) so ResponseComplete carries it
    }
    if (!r.responseStatus) r.responseStatus = ctx.res.headersSent ? { code: ctx.res.statusCode } : CLOSED_EARLY;
    else if (r.responseStatus.code === undefined) r.responseStatus = { ...r.responseStatus, code: ctx.res.statusCode };
    if (ctx.longRunning && !r.started && !r.config.omitStages.includes('ResponseStarted')) {
      r.started = true;
      void emit(backend, ctx, r, 'ResponseStarted');
    }
    const at = nowMicros();
    if (!r.config.omitStages.includes('ResponseComplete')) {
      // kube's writeLatencyToAnnotation: the layers' times of a slow request
      for (const [k, v] of latencyAnnotations(ctx, (at - r.requestReceivedTimestamp) / 1000)) addAuditAnnotation(ctx, k, v);
    }
    const done = emit(backend, ctx, r, 'ResponseComplete', at);
    // A response already sent waits for nothing more: its event goes out with the turn's lines all the same.
    if (done !== true && done !== false) {
      if (!ctx.res.writableEnded) await done;
      else done.catch(() => undefined); // a backend's failure is its own to count and log
    }
    if (rethrow !== undefined) throw rethrow;
  };
}

/** Calls fn once, when the response's head is written (writeHead, the first write, or end). */
function watchResponseStart(res: Response, fn: () => void): void {
  const o = res as unknown as Record<string, (...a: unknown[]) => unknown>;
  const methods = ['writeHead', 'write', 'end', 'flushHeaders'].filter((m) => typeof o[m] === 'function');
  const own = new Map(methods.map((m) => [m, Object.prototype.hasOwnProperty.call(o, m) ? o[m] : undefined]));
  const restore = () => {
    for (const [m, f] of own) {
      if (f) o[m] = f;
      else delete o[m];
    }
  };
  for (const m of methods) {
    const orig = o[m]!;
    o[m] = function (this: unknown, ...a: unknown[]) {
      if (m === 'writeHead' && typeof a[0] === 'number') res.statusCode = a[0];
      restore();
      const out = orig.apply(res, a);
      fn();
      return out;
    };
  }
}

/** The failed-authentication message: which credentials were tried (kube's getAuthMethods). */
function authMethods(ctx: RequestContext): string {
  const m: string[] = [];
  const auth = (ctx.req.headers.authorization ?? '').trim();
  const scheme = auth.split(' ');
  if (/^basic /i.test(auth)) m.push('basic');
  if (scheme.length > 1 && scheme[0]!.toLowerCase() === 'bearer') m.push('bearer');
  if ((ctx.url.searchParams.get('access_token') ?? '').trim() !== '') m.push('access_token');
  const peer = (ctx.req.socket as { getPeerCertificate?: () => object } | undefined)?.getPeerCertificate?.();
  if (peer && Object.keys(peer).length > 0) m.push('x509');
  return m.length > 0 ? `Authentication failed, attempted: ${m.join(', ')}` : 'Authentication failed, no credentials provided';
}

/**
 * kube's WithFailedAuthenticationAudit: a 401 is audited (no user) with one
 * ResponseStarted event whose status says which credentials were tried.
 * Returns what the authentication filter calls to answer the 401.
 */
export function failedAuthenticationAudit(deps: AuditDeps): (ctx: RequestContext, err: StatusError) => Promise<void> {
  const { backend, policy } = deps;
  return async (ctx, err) => {
    const info = ctx.requestInfo!;
    const config = policy.evaluate(attributes(info, undefined));
    observePolicyLevel(config.level);
    writeError(ctx, err);
    if (config.level === 'None') return;
    const r = newRecord(ctx, config, info, false);
    r.responseStatus = { message: authMethods(ctx), code: statusFromUnknown(err).code ?? 401 };
    const done = emit(backend, ctx, r, 'ResponseStarted');
    if (done !== true && done !== false) await done;
  };
}
