// API Priority and Fairness (kube's filters/priority-and-fairness.go, v1.27),
// in place of the in-flight limit: each request is classified (flow schema →
// priority level), answers carry X-Kubernetes-PF-FlowSchema-UID and
// X-Kubernetes-PF-PriorityLevel-UID, exempt levels run at once, others wait in
// their level's queue set for up to a quarter of the request timeout and are
// refused with kube's plain-text 429 (Retry-After: 1) when rejected. A watch
// holds its seats only until its response starts (its storage watch is
// registered), as kube releases a watch's seats once it is initialized;
// other long-running requests (exec, attach, logs, proxy) are not tracked.
import type { Handler, RequestContext, Response } from '../context.js';
import { requestInfoOf, userOf } from '../context.js';
import type { UserInfo } from '../../authn/user.js';
import type { RequestInfo } from '../../endpoints/requestinfo.js';
import type { Classified } from '../../flowcontrol/config.js';
import { flowDistinguisher } from '../../flowcontrol/classify.js';
import { estimateWork, type ResourceCounts } from '../../flowcontrol/workestimate.js';
import type { Started } from '../../flowcontrol/queueset.js';
import { inflightWatermark, inqueueWatermark } from '../../metrics/apiserver.js';
import { isMutating } from '../../metrics/requestlabels.js';
import { trackApfQueueWait } from '../../metrics/latencytrackers.js';
import { connectionGone } from '../drain.js';
import {
  cellFor, type FlowCell, rejectedRequests,
} from '../../flowcontrol/metrics.js';

/** What classifies (the config controller, FlowControlController). */
export interface Classifier {
  classify(user: UserInfo, info: RequestInfo): Classified;
}

export interface PriorityAndFairnessDeps {
  readonly controller: Classifier;
  readonly counts: ResourceCounts;
  /** The WatchList gate: watches with sendInitialEvents cost what their list costs. */
  readonly watchList: boolean;
  /** --request-timeout: a request waits in a queue at most a quarter of it. */
  readonly requestTimeoutMs: number;
  /**
   * Where a rejection is recorded as a request termination (the request metrics'
   * recordRequestTermination).
   */
  readonly recordRequestTermination?: (ctx: RequestContext, code: number) => void;
}

const MESSAGE = 'Too many requests, please try again later.\n';

/** kube's tooManyRequests: http.Error's plain text with Retry-After. */
function tooManyRequests(res: Response): void {
  res.statusCode = 429;
  res.setHeader('Retry-After', '1');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(MESSAGE);
}

/** Calls fn once, when the response's headers go out (writeHead, flushHeaders or the first write). */
function onResponseStart(res: Response, fn: () => void): void {
  const r = res as unknown as Record<string, unknown>;
  let fired = false;
  const once = () => {
    if (!fired) {
      fired = true;
      fn();
    }
  };
  for (const m of ['writeHead', 'flushHeaders', 'write']) {
    const orig = r[m];
    if (typeof orig !== 'function') continue;
    r[m] = function (this: unknown, ...args: unknown[]) {
      once();
      return (orig as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

export function withPriorityAndFairness(next: Handler, deps: PriorityAndFairnessDeps): Handler {
  const maxWaitMs = Math.max(1000, deps.requestTimeoutMs / 4);
  // each (schema, level) pair's metric cell, found once per configuration
  const cells = new WeakMap<Classified, FlowCell>();
  return async (ctx) => {
    const info = requestInfoOf(ctx);
    // long-running requests other than watches (exec, attach, logs, proxy, port-forward) are not tracked, as in kube
    if (ctx.longRunning && info.verb !== 'watch') return next(ctx);
    const user = userOf(ctx);
    const classified = deps.controller.classify(user, info);
    const { schema, level } = classified;
    ctx.res.setHeader('X-Kubernetes-PF-FlowSchema-UID', schema.uid);
    ctx.res.setHeader('X-Kubernetes-PF-PriorityLevel-UID', level.uid);
    let cell = cells.get(classified);
    if (!cell) cells.set(classified, (cell = cellFor(level.name, schema.name)));
    // apiserver_current_inflight_requests and _inqueue_requests, as kube's filter keeps them
    const mutating = isMutating(info);
    if (level.exempt) {
      cell.dispatched.inc();
      level.exemptExecuting++;
      cell.executing++;
      inflightWatermark.started(mutating);
      try {
        await next(ctx);
      } finally {
        level.exemptExecuting--;
        cell.executing--;
        inflightWatermark.finished(mutating);
      }
      return;
    }
    const estimate = estimateWork(info, ctx.url.searchParams, deps.counts, deps.watchList);
    const seats = Math.max(estimate.initialSeats, estimate.finalSeats);
    cell.estimatedSeats.observe(seats);
    if (estimate.finalSeats > 0 && info.isResourceRequest) cell.watchCount.observe(deps.counts.watchers(info.apiGroup, info.resource));
    const arrived = performance.now();
    const start = level.qs.start({
      flowSchema: schema.name, distinguisher: flowDistinguisher(schema, user, info), estimate, maxWaitMs,
      user: user.name, info,
    });
    if (level.qs.queuingConfig) cell.queueLength.observe(level.qs.queueLengthAfterEnqueue);
    let started: Started;
    if (start.kind === 'wait') {
      cell.waiting++;
      inqueueWatermark.started(mutating);
      // a client that goes away while its request waits leaves the queue
      ctx.req.once('close', () => start.cancel());
      if (connectionGone(ctx.res)) start.cancel(); // gone before it listened
      try {
        started = await start.result;
      } finally {
        cell.waiting--;
        inqueueWatermark.finished(mutating);
      }
    } else {
      started = start;
    }
    if (started.kind === 'reject') {
      rejectedRequests.inc({ ...cell.labels, reason: started.reason });
      const waited = performance.now() - arrived;
      cell.waitNotExecuted.observe(waited / 1000);
      trackApfQueueWait(ctx, waited);
      deps.recordRequestTermination?.(ctx, 429);
      if (!ctx.res.headersSent) tooManyRequests(ctx.res);
      return;
    }
    const ticket = started.ticket;
    cell.dispatched.inc();
    cell.waitExecuted.observe(ticket.waitedMs / 1000);
    trackApfQueueWait(ctx, ticket.waitedMs);
    cell.executing++;
    cell.seats += seats;
    const begun = performance.now();
    inflightWatermark.started(mutating, begun);
    if (!ctx.longRunning) {
      // an ordinary request releases its seats when it ends: no closure needed
      try {
        await next(ctx);
      } finally {
        ticket.finish();
        cell.executing--;
        cell.seats -= seats;
        const ended = performance.now();
        inflightWatermark.finished(mutating, ended);
        cell.execRegular.observe((ended - begun) / 1000);
      }
      return;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      ticket.finish();
      cell.executing--;
      cell.seats -= seats;
      inflightWatermark.finished(mutating);
      cell.execWatch.observe((performance.now() - begun) / 1000);
    };
    onResponseStart(ctx.res, release);
    try {
      await next(ctx);
    } finally {
      release();
    }
  };
}
