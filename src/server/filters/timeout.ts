// --request-timeout: a non-long-running request still unanswered after the
// timeout gets 504 Timeout; its handler's later writes are dropped.
import { newTimeout } from '../../api/meta/index.js';
import type { Handler } from '../context.js';
import { writeError } from '../respond.js';

export function withTimeout(next: Handler, timeoutMs: number): Handler {
  return async (ctx) => {
    if (ctx.longRunning || timeoutMs <= 0) return next(ctx);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const work = next(ctx).then(() => 'done' as const);
    try {
      const r = await Promise.race([work, timedOut]);
      if (r === 'timeout' && !ctx.res.headersSent) {
        writeError(ctx, newTimeout(`request did not complete within the allotted timeout of ${Math.round(timeoutMs / 1000)}s`, 0));
        work.catch(() => undefined);
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
