// --max-requests-inflight and --max-mutating-requests-inflight: requests over
// the limit get 429 with Retry-After (and count in apiserver_request_terminations_total).
// Long-running requests are exempt. The requests in use feed apiserver_current_inflight_requests.
import { newTooManyRequests } from '../../api/meta/index.js';
import { requestInfoOf, type Handler } from '../context.js';
import { inflightWatermark, recordRequestTermination } from '../../metrics/apiserver.js';
import { maxInFlightRatios } from '../../flowcontrol/readvswrite.js';

const MUTATING = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export interface InFlightLimits {
  /** 0 disables the limit. */
  readonly readonly: number;
  readonly mutating: number;
}

export function withMaxInFlight(next: Handler, limits: InFlightLimits): Handler {
  let reads = 0;
  let writes = 0;
  maxInFlightRatios(limits.readonly, limits.mutating);
  return async (ctx) => {
    if (ctx.longRunning) return next(ctx);
    const mutating = MUTATING.has(requestInfoOf(ctx).verb);
    const limit = mutating ? limits.mutating : limits.readonly;
    const current = mutating ? writes : reads;
    if (limit > 0 && current >= limit) {
      recordRequestTermination(ctx, 429);
      throw newTooManyRequests('Too many requests, please try again later.', 1);
    }
    if (mutating) writes++;
    else reads++;
    inflightWatermark.started(mutating);
    try {
      await next(ctx);
    } finally {
      if (mutating) writes--;
      else reads--;
      inflightWatermark.finished(mutating);
    }
  };
}
