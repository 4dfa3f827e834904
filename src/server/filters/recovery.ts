// Outermost filter: stamps the Audit-Id header (kube's WithAuditInit: the
// request's own Audit-ID when it sent one, else a new UUID) and the time the
// request was received (kube's WithRequestReceivedTimestamp), and turns any
// error escaping a later stage into a Status response.
import { randomUUID } from 'node:crypto';
import type { Handler } from '../context.js';
import { writeError } from '../respond.js';
import { nowMicros } from '../../audit/record.js';

export function withRecovery(next: Handler): Handler {
  return async (ctx) => {
    ctx.receivedAt = nowMicros();
    const sent = ctx.req.headers['audit-id'];
    ctx.res.setHeader('Audit-Id', typeof sent === 'string' && sent !== '' ? sent : randomUUID());
    try {
      await next(ctx);
    } catch (err) {
      if (!ctx.res.headersSent) writeError(ctx, err);
      else {
        console.error(`svc: error after the response started (${ctx.req.method} ${ctx.req.url}):`, err);
        ctx.res.end();
      }
    }
  };
}
