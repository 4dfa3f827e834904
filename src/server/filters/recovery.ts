// Outermost filter: stamps the Audit-Id header, and turns any error escaping
// a later stage into a Status response.
import { randomUUID } from 'node:crypto';
import type { Handler } from '../context.js';
import { writeError } from '../respond.js';

export function withRecovery(next: Handler): Handler {
  return async (ctx) => {
    ctx.res.setHeader('Audit-Id', randomUUID());
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
