// The apiserver_flowcontrol_* metrics of kube v1.27 (util/flowcontrol/metrics),
// declared with the project's registry. Per-request counts live in plain
// per-(priority level, flow schema) cells and the gauges read them, and the
// levels' limits, when /metrics is scraped; only the counters and histograms
// are touched on the request path. The time-weighted ratios (kube's
// TimingRatioHistograms: seat and request utilization, seat demand) are
// changed by the queue sets (LevelMetrics) and read-vs-write by the in-flight
// watermarks (readVsWrite.ts).
import { newCounter, newGauge, newHistogram, type CounterChild, type HistogramChild } from '../metrics/registry.js';
import { newTimingRatioHistogram, type RatioedGauge } from '../metrics/timingratio.js';
import type { PriorityLevel } from './config.js';
import type { LastDispatch } from './queueset.js';

const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];
const QUEUE_LENGTH_BUCKETS = [0, 10, 25, 50, 100, 250, 500, 1000];

type L2 = { readonly priority_level: string; readonly flow_schema: string };

/**
 * Requests waiting and executing, and the seats they hold, of one flow schema
 * at one level; with the metric series its requests are recorded under, each
 * found once, on first use (so a series appears when first recorded, as
 * before), and no label lookup on the request path after that.
 */
export class FlowCell {
  waiting = 0;
  executing = 0;
  seats = 0;
  readonly labels: L2;
  private dispatchedS?: CounterChild;
  private waitExecutedS?: HistogramChild;
  private waitNotExecutedS?: HistogramChild;
  private execRegularS?: HistogramChild;
  private execWatchS?: HistogramChild;
  private estimatedSeatsS?: HistogramChild;
  private queueLengthS?: HistogramChild;
  private watchCountS?: HistogramChild;

  constructor(readonly priorityLevel: string, readonly flowSchema: string) {
    this.labels = { priority_level: priorityLevel, flow_schema: flowSchema };
  }

  /** apiserver_flowcontrol_dispatched_requests_total */
  get dispatched(): CounterChild {
    return (this.dispatchedS ??= dispatchedRequests.child(this.labels));
  }
  /** apiserver_flowcontrol_request_wait_duration_seconds, execute="true" */
  get waitExecuted(): HistogramChild {
    return (this.waitExecutedS ??= requestWaitDuration.child({ ...this.labels, execute: 'true' }));
  }
  /** apiserver_flowcontrol_request_wait_duration_seconds, execute="false" */
  get waitNotExecuted(): HistogramChild {
    return (this.waitNotExecutedS ??= requestWaitDuration.child({ ...this.labels, execute: 'false' }));
  }
  /** apiserver_flowcontrol_request_execution_seconds, type="regular" */
  get execRegular(): HistogramChild {
    return (this.execRegularS ??= requestExecutionSeconds.child({ ...this.labels, type: 'regular' }));
  }
  /** apiserver_flowcontrol_request_execution_seconds, type="watch" */
  get execWatch(): HistogramChild {
    return (this.execWatchS ??= requestExecutionSeconds.child({ ...this.labels, type: 'watch' }));
  }
  /** apiserver_flowcontrol_work_estimated_seats */
  get estimatedSeats(): HistogramChild {
    return (this.estimatedSeatsS ??= workEstimatedSeats.child(this.labels));
  }
  /** apiserver_flowcontrol_request_queue_length_after_enqueue */
  get queueLength(): HistogramChild {
    return (this.queueLengthS ??= queueLengthAfterEnqueue.child(this.labels));
  }
  /** apiserver_flowcontrol_watch_count_samples */
  get watchCount(): HistogramChild {
    return (this.watchCountS ??= watchCountSamples.child(this.labels));
  }
}

const cells = new Map<string, FlowCell>();
let observed: { readonly levels: readonly PriorityLevel[]; readonly fairFrac: number } = { levels: [], fairFrac: 0 };

export function cellFor(priorityLevel: string, flowSchema: string): FlowCell {
  const key = `${priorityLevel}\0${flowSchema}`;
  let c = cells.get(key);
  if (!c) cells.set(key, (c = new FlowCell(priorityLevel, flowSchema)));
  return c;
}

/** Where the level gauges read the levels and the fair fraction (the running configuration). */
export function observeConfig(config: { readonly levels: readonly PriorityLevel[]; readonly fairFrac: number }): void {
  observed = config;
}

type CellField = 'waiting' | 'executing' | 'seats';
const cellGauge = (name: string, help: string, field: CellField) => newGauge({
  name, help, labelNames: ['priority_level', 'flow_schema'],
  collect: (set) => {
    for (const c of cells.values()) set({ priority_level: c.priorityLevel, flow_schema: c.flowSchema }, c[field]);
  },
});
const levelGauge = (name: string, help: string, value: (l: PriorityLevel) => number) => newGauge({
  name, help, labelNames: ['priority_level'],
  collect: (set) => {
    for (const l of observed.levels) if (l.live && !l.exempt) set({ priority_level: l.name }, value(l));
  },
});

export const rejectedRequests = newCounter({
  name: 'apiserver_flowcontrol_rejected_requests_total', help: 'Number of requests rejected by API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema', 'reason'],
});
export const dispatchedRequests = newCounter({
  name: 'apiserver_flowcontrol_dispatched_requests_total', help: 'Number of requests executed by API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema'],
});
export const requestWaitDuration = newHistogram({
  name: 'apiserver_flowcontrol_request_wait_duration_seconds', help: 'Length of time a request spent waiting in its queue',
  labelNames: ['priority_level', 'flow_schema', 'execute'], buckets: DURATION_BUCKETS,
});
export const requestExecutionSeconds = newHistogram({
  name: 'apiserver_flowcontrol_request_execution_seconds',
  help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema', 'type'], buckets: DURATION_BUCKETS,
});
export const queueLengthAfterEnqueue = newHistogram({
  name: 'apiserver_flowcontrol_request_queue_length_after_enqueue',
  help: 'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
  labelNames: ['priority_level', 'flow_schema'], buckets: QUEUE_LENGTH_BUCKETS,
});
export const workEstimatedSeats = newHistogram({
  name: 'apiserver_flowcontrol_work_estimated_seats',
  help: 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
  labelNames: ['priority_level', 'flow_schema'], buckets: [1, 2, 4, 10],
});
export const watchCountSamples = newHistogram({
  name: 'apiserver_flowcontrol_watch_count_samples', help: 'count of watchers for mutating requests in API Priority and Fairness',
  labelNames: ['priority_level', 'flow_schema'], buckets: [0, 1, 10, 100, 1000, 10000],
});

cellGauge('apiserver_flowcontrol_current_inqueue_requests', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', 'waiting');
cellGauge('apiserver_flowcontrol_current_executing_requests',
  'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', 'executing');
cellGauge('apiserver_flowcontrol_request_concurrency_in_use',
  'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem', 'seats');

levelGauge('apiserver_flowcontrol_request_concurrency_limit', 'Nominal number of execution seats configured for each priority level', (l) => l.limits.nominalCL);
levelGauge('apiserver_flowcontrol_nominal_limit_seats', 'Nominal number of execution seats configured for each priority level', (l) => l.limits.nominalCL);
levelGauge('apiserver_flowcontrol_lower_limit_seats', 'Configured lower bound on number of execution seats available to each priority level', (l) => l.limits.nominalCL - l.limits.lendableCL);
levelGauge('apiserver_flowcontrol_upper_limit_seats', 'Configured upper bound on number of execution seats available to each priority level', (l) => l.limits.nominalCL + l.limits.borrowingCL);
levelGauge('apiserver_flowcontrol_current_limit_seats', 'current derived number of execution seats available to each priority level', (l) => l.currentCL);
levelGauge('apiserver_flowcontrol_demand_seats_high_watermark', 'High watermark, over last adjustment period, of demand_seats', (l) => l.stats.highWatermark);
levelGauge('apiserver_flowcontrol_demand_seats_average', 'Time-weighted average, over last adjustment period, of demand_seats', (l) => l.stats.avg);
levelGauge('apiserver_flowcontrol_demand_seats_stdev', 'Time-weighted standard deviation, over last adjustment period, of demand_seats', (l) => l.stats.stdDev);
levelGauge('apiserver_flowcontrol_demand_seats_smoothed', 'Smoothed seat demands', (l) => l.stats.smoothed);
levelGauge('apiserver_flowcontrol_target_seats', 'Seat allocation targets', (l) => Math.max(l.limits.nominalCL - l.limits.lendableCL, l.stats.smoothed));
levelGauge('apiserver_flowcontrol_current_r', 'R(time of last change)', (l) => l.qs.virtualTime);
// kube's SetDispatchMetrics: a level's series appear with its first dispatch from a queue
const dispatchGauge = (name: string, help: string, bounds: readonly [label: string, value: (d: LastDispatch) => number][]) => newGauge({
  name, help, labelNames: bounds.length > 1 ? ['priority_level', 'bound'] : ['priority_level'],
  collect: (set) => {
    for (const l of observed.levels) {
      const d = l.qs.lastDispatch;
      if (!l.live || l.exempt || !d.seen) continue;
      for (const [bound, value] of bounds) set(bound ? { priority_level: l.name, bound } : { priority_level: l.name }, value(d));
    }
  },
});
dispatchGauge('apiserver_flowcontrol_dispatch_r', 'R(time of last dispatch)', [['', (d) => d.r]]);
dispatchGauge('apiserver_flowcontrol_latest_s', 'S(most recently dispatched request)', [['', (d) => d.s]]);
dispatchGauge('apiserver_flowcontrol_next_s_bounds', 'min and max, over queues, of S(oldest waiting request in queue)', [['min', (d) => d.sMin], ['max', (d) => d.sMax]]);
dispatchGauge('apiserver_flowcontrol_next_discounted_s_bounds', 'min and max, over queues, of S(oldest waiting request in queue) - estimated work in progress',
  [['min', (d) => d.dsMin], ['max', (d) => d.dsMax]]);
newGauge({
  name: 'apiserver_flowcontrol_seat_fair_frac', help: 'Fair fraction of server\'s concurrency to allocate to each priority level that can use it',
  collect: (set) => set({}, observed.fairFrac),
});

export const seatUtilization = newTimingRatioHistogram({
  name: 'apiserver_flowcontrol_priority_level_seat_utilization',
  help: 'Observations, at the end of every nanosecond, of utilization of seats for any stage of execution (but only initial stage for WATCHes)',
  labelNames: ['priority_level'], constLabels: { phase: 'executing' },
  buckets: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1],
});
export const requestUtilization = newTimingRatioHistogram({
  name: 'apiserver_flowcontrol_priority_level_request_utilization',
  help: 'Observations, at the end of every nanosecond, of number of requests (as a fraction of the relevant limit) waiting or in any stage of execution (but only initial stage for WATCHes)',
  labelNames: ['phase', 'priority_level'], buckets: [0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.25, 0.5, 0.75, 1],
});
export const demandSeats = newTimingRatioHistogram({
  name: 'apiserver_flowcontrol_demand_seats',
  help: 'Observations, at the end of every nanosecond, of (the number of seats each priority level could use) / (nominal number of seats for that level)',
  labelNames: ['priority_level'], buckets: [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.7, 2, 2.8, 4, 6],
});
export const epochAdvances = newCounter({
  name: 'apiserver_flowcontrol_epoch_advance_total', help: 'Number of times the queueset\'s progress meter jumped backward',
  labelNames: ['priority_level', 'success'],
});
export const dispatchNoAccommodation = newCounter({
  name: 'apiserver_flowcontrol_request_dispatch_no_accommodation_total',
  help: 'Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats',
  labelNames: ['priority_level', 'flow_schema'],
});

/** What one priority level's queue set reports (kube's reqsGaugePair, execSeatsGauge, seat demand gauge, and two counters). */
export interface LevelMetrics {
  /** Requests waiting / the queues' capacity. */
  readonly waiting: RatioedGauge;
  /** Requests in their initial stage of execution / the limit. */
  readonly executing: RatioedGauge;
  /** Seats in use / the limit. */
  readonly seats: RatioedGauge;
  /** Seats in use and wanted by waiting requests / the nominal limit. */
  readonly demand: RatioedGauge;
  noAccommodation(flowSchema: string): void;
  epochAdvance(success: boolean): void;
}

const noRatio: RatioedGauge = { set: () => undefined, add: () => undefined, setDenominator: () => undefined };
/** For queue sets nobody scrapes (tests). */
export const NO_LEVEL_METRICS: LevelMetrics = {
  waiting: noRatio, executing: noRatio, seats: noRatio, demand: noRatio, noAccommodation: () => undefined, epochAdvance: () => undefined,
};

/** A priority level's series, made when the level is (exempt ones too: they stay at 0, as kube's). */
export function levelMetrics(level: string, now: () => number): LevelMetrics {
  const l = { priority_level: level };
  const noAccommodation = new Map<string, CounterChild>();
  return {
    waiting: requestUtilization.child({ phase: 'waiting', ...l }, { now }),
    executing: requestUtilization.child({ phase: 'executing', ...l }, { now }),
    seats: seatUtilization.child(l, { now }),
    demand: demandSeats.child(l, { now }),
    noAccommodation(flowSchema) {
      let c = noAccommodation.get(flowSchema);
      if (!c) noAccommodation.set(flowSchema, (c = dispatchNoAccommodation.child({ ...l, flow_schema: flowSchema })));
      c.inc();
    },
    epochAdvance: (success) => epochAdvances.inc({ ...l, success: String(success) }),
  };
}
