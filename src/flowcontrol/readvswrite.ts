// apiserver_flowcontrol_read_vs_write_current_requests (kube v1.27): requests
// waiting in APF's queues and executing, readOnly and mutating, each as a
// fraction of its limit, time-weighted (a TimingRatioHistogram). The series
// are made on first use, once per process (kube's indexOnce): the executing
// pair by the in-flight limiter (over --max-requests-inflight and
// --max-mutating-requests-inflight) or by APF, the waiting pair by APF; APF
// sets the denominators with each configuration (the queues' total capacity,
// the sum of the nominal limits). The counts come from the watermarks
// (metrics/apiserver.ts), which see every start and end.
import { newTimingRatioHistogram, type RatioedGauge } from '../metrics/timingratio.js';
import { inflightWatermark, inqueueWatermark } from '../metrics/apiserver.js';

export const readVsWrite = newTimingRatioHistogram({
  name: 'apiserver_flowcontrol_read_vs_write_current_requests',
  help: 'Observations, at the end of every nanosecond, of the number of requests (as a fraction of the relevant limit) waiting or in regular stage of execution',
  labelNames: ['phase', 'request_kind'],
  buckets: [0, 0.001, 0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1],
});

type Pair = { readonly readOnly: RatioedGauge; readonly mutating: RatioedGauge };
const pairs: Partial<Record<'waiting' | 'executing', Pair>> = {};

function pair(phase: 'waiting' | 'executing'): Pair {
  let p = pairs[phase];
  if (!p) {
    p = pairs[phase] = {
      readOnly: readVsWrite.child({ phase, request_kind: 'readOnly' }),
      mutating: readVsWrite.child({ phase, request_kind: 'mutating' }),
    };
    (phase === 'waiting' ? inqueueWatermark : inflightWatermark).observeWith(p.readOnly, p.mutating);
  }
  return p;
}

/** The in-flight limiter's denominators (kube's initMaxInFlight: a limit of 0 leaves 1). */
export function maxInFlightRatios(readOnlyLimit: number, mutatingLimit: number): void {
  const p = pair('executing');
  if (readOnlyLimit !== 0) p.readOnly.setDenominator(readOnlyLimit);
  if (mutatingLimit !== 0) p.mutating.setDenominator(mutatingLimit);
}

/** APF's denominators after a new configuration. */
export function priorityAndFairnessRatios(maxWaiting: number, maxExecuting: number): void {
  const w = pair('waiting');
  const e = pair('executing');
  w.readOnly.setDenominator(maxWaiting);
  w.mutating.setDenominator(maxWaiting);
  e.readOnly.setDenominator(maxExecuting);
  e.mutating.setDenominator(maxExecuting);
}
