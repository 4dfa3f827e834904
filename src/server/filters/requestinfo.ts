// Resolves the request info (verb, group, version, resource, ...) once.
import { resolveRequestInfo, RequestInfoError, type RequestInfo } from '../../endpoints/requestinfo.js';
import { newBadRequest } from '../../api/meta/index.js';
import type { Handler } from '../context.js';

/** kube-apiserver's long-running check: verbs watch and proxy, the streaming subresources. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

function isLongRunning(info: RequestInfo): boolean {
  return info.isResourceRequest && (LONG_RUNNING_VERBS.has(info.verb) || LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

export function withRequestInfo(next: Handler): Handler {
  return async (ctx) => {
    try {
      ctx.requestInfo = resolveRequestInfo(ctx.req);
    } catch (err) {
      if (err instanceof RequestInfoError) throw newBadRequest(err.message);
      throw err;
    }
    ctx.longRunning = isLongRunning(ctx.requestInfo);
    await next(ctx);
  };
}
