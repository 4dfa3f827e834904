// Concurrency limits of the priority levels (kube's apf_controller, v1.27):
//   server limit  = --max-requests-inflight + --max-mutating-requests-inflight
//   nominal       = ceil(server × shares / Σ shares of the limited levels)
//   lendable      = round(nominal × lendablePercent / 100)
//   borrowing     = round(nominal × borrowingLimitPercent / 100); the server limit when unset
// A new level starts at nominal − lendable/2; at every configuration change
// and every 10 s the current limits are re-divided among the levels by their
// smoothed seat demand: each gets fairProp × target clamped to
// [max(nominal − lendable, min(nominal, demand high watermark)), nominal + borrowing],
// with fairProp chosen so the limits add up to Σ nominal.
export interface LevelLimits {
  readonly nominalCL: number;
  readonly lendableCL: number;
  readonly borrowingCL: number;
}

export interface LimitedSpec {
  readonly shares: number;
  readonly lendablePercent: number;
  readonly borrowingLimitPercent: number | undefined;
}

export function levelLimits(serverCL: number, specs: readonly LimitedSpec[]): LevelLimits[] {
  const shareSum = specs.reduce((s, x) => s + x.shares, 0);
  return specs.map((x) => {
    const nominalCL = shareSum > 0 ? Math.ceil((serverCL * x.shares) / shareSum) : 0;
    return {
      nominalCL,
      lendableCL: Math.round((nominalCL * x.lendablePercent) / 100),
      borrowingCL: x.borrowingLimitPercent === undefined ? serverCL : Math.round((nominalCL * x.borrowingLimitPercent) / 100),
    };
  });
}

/** The smoothing of seat demand between adjustments (kube's seatDemandStats). */
export const SMOOTHING_COEFFICIENT = 0.977;
export const BORROWING_ADJUSTMENT_PERIOD_MS = 10_000;

export interface DemandStats {
  avg: number;
  stdDev: number;
  highWatermark: number;
  smoothed: number;
}

export function updateDemandStats(stats: DemandStats, obs: { average: number; deviation: number; max: number }): void {
  stats.avg = obs.average;
  stats.stdDev = obs.deviation;
  stats.highWatermark = obs.max;
  const envelope = obs.average + obs.deviation;
  stats.smoothed = Math.max(envelope, SMOOTHING_COEFFICIENT * stats.smoothed + (1 - SMOOTHING_COEFFICIENT) * envelope);
}

export interface AllocItem {
  readonly target: number;
  readonly lower: number;
  readonly upper: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Targets below this count as this (kube's MinTarget): an idle level still gets its share of what is left. */
export const MIN_TARGET = 0.001;

/**
 * kube's computeConcurrencyAllocation: the allocation Σ clamp(p × target, lower, upper) = required,
 * with its fair proportion p; undefined when the bounds cannot sum to it.
 */
export function fairAllocation(required: number, items: readonly AllocItem[]): { allocs: number[]; fairProp: number } | undefined {
  const targets = items.map((x) => Math.max(x.target, MIN_TARGET));
  const at = (p: number) => items.map((x, i) => clamp(p * targets[i]!, x.lower, x.upper));
  const sum = (a: number[]) => a.reduce((s, v) => s + v, 0);
  const lowSum = items.reduce((s, x) => s + x.lower, 0);
  const highSum = items.reduce((s, x) => s + x.upper, 0);
  const EPSILON = 1e-7;
  if (lowSum - required > EPSILON || required - highSum > EPSILON) return undefined;
  if (required === 0) return { allocs: items.map(() => 0), fairProp: 0 };
  // f(p) is piecewise linear and non-decreasing, with breakpoints where a bound starts or stops applying
  const points = [...new Set(items.flatMap((x, i) => [x.lower / targets[i]!, x.upper / targets[i]!]))].sort((a, b) => a - b);
  let prev = 0;
  let prevSum = sum(at(0));
  if (prevSum >= required) return { allocs: at(0), fairProp: 0 };
  for (const p of points) {
    const s = sum(at(p));
    if (s >= required) {
      const fairProp = s === prevSum ? p : prev + ((required - prevSum) * (p - prev)) / (s - prevSum);
      return { allocs: at(fairProp), fairProp };
    }
    prev = p;
    prevSum = s;
  }
  return { allocs: at(prev), fairProp: prev };
}
