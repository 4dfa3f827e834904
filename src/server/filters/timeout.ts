// --request-timeout: a non-long-running request still unanswered after the
// timeout gets 504 Timeout; its handler's later writes are dropped.
// One sweep timer per filter checks the deadlines (a timer per request costs
// more than the whole filter chain otherwise); a request times out at most one
// sweep period late.
import { newTimeout } from '../../api/meta/index.js';
import type { Handler } from '../context.js';
import { writeError } from '../respond.js';
import { recordRequestTermination } from '../../metrics/apiserver.js';

interface Pending {
  readonly deadline: number;
  readonly expire: () => void;
}

export function withTimeout(next: Handler, timeoutMs: number): Handler {
  const pending = new Set<Pending>();
  const period = Math.max(5, Math.min(1000, Math.floor(timeoutMs / 4)));
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    const now = Date.now();
    for (const p of pending) {
      if (p.deadline <= now) {
        pending.delete(p);
        p.expire();
      }
    }
    if (pending.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return async (ctx) => {
    if (ctx.longRunning || timeoutMs <= 0) return next(ctx);
    let entry!: Pending;
    const timedOut = new Promise<'timeout'>((resolve) => (entry = { deadline: Date.now() + timeoutMs, expire: () => resolve('timeout') }));
    pending.add(entry);
    sweeper ??= setInterval(sweep, period);
    const work = next(ctx).then(() => 'done' as const);
    try {
      const r = await Promise.race([work, timedOut]);
      if (r === 'timeout' && !ctx.res.headersSent) {
        recordRequestTermination(ctx, 504);
        writeError(ctx, newTimeout(`request did not complete within the allotted timeout of ${Math.round(timeoutMs / 1000)}s`, 0));
        work.catch(() => undefined);
      }
    } finally {
      pending.delete(entry);
    }
  };
}
