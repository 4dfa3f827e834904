// Resolves the request info (verb, group, version, resource, ...) once.
import { resolveRequestInfo, RequestInfoError } from '../../endpoints/requestinfo.js';
import { newBadRequest } from '../../api/meta/index.js';
import type { Handler } from '../context.js';

export function withRequestInfo(next: Handler): Handler {
  return async (ctx) => {
    try {
      ctx.requestInfo = resolveRequestInfo(ctx.req);
    } catch (err) {
      if (err instanceof RequestInfoError) throw newBadRequest(err.message);
      throw err;
    }
    ctx.longRunning = ctx.requestInfo.isResourceRequest && ctx.requestInfo.verb === 'watch';
    await next(ctx);
  };
}
