// Summaries as kube's component-base declares them (metrics.NewSummaryVec,
// v1.27): without objectives of their own they keep client_golang's old
// defaults — the 0.5, 0.9 and 0.99 quantiles — over a sliding window of
// MaxAge split into AgeBuckets (kube's one summary, the admission step
// latency, uses 5 h in 5 buckets); _sum and _count are cumulative.
//
// The quantiles come from a log-bucketed sketch per age slice, not from
// client_golang's targeted-quantile streams: an observation is one logarithm
// and one map increment (the request path pays it), and a reported quantile
// is within 1 % of the value of an observation at that rank (client_golang
// bounds the rank instead: ±5 % at the median, ±0.1 % at the 99th
// percentile). An empty window reports NaN, as client_golang does.
import { CellMetric, Cells, declareCustom, helpText, type ExpositionValue, type MetricOpts } from './registry.js';

export interface SummaryOpts<L extends string> extends MetricOpts<L> {
  /** The window the quantiles cover (kube: MaxAge; client_golang's default is 10 min). */
  readonly maxAgeSeconds?: number;
  /** How many slices the window moves by (client_golang's default 5). */
  readonly ageBuckets?: number;
  /** The quantiles exposed (default 0.5, 0.9, 0.99). */
  readonly quantiles?: readonly number[];
  /** Milliseconds (tests move it). */
  readonly now?: () => number;
}

export interface SummaryChild {
  observe(value: number): void;
}

/** Relative accuracy of the sketch: a bucket spans values within ±1 % of its midpoint. */
const ACCURACY = 0.01;
const GAMMA = (1 + ACCURACY) / (1 - ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);
/** The index of values ≤ 0 (every positive value's index is above it: values below 1e-300 are not expected). */
const ZERO = -100_000;

const bucketOf = (v: number): number => (v > 0 ? Math.ceil(Math.log(v) / LOG_GAMMA) : ZERO);
/** The value a bucket stands for: the midpoint (in relative terms) of (γ^(i−1), γ^i]. */
const valueOf = (i: number): number => (i === ZERO ? 0 : (2 * GAMMA ** i) / (GAMMA + 1));

/** One series: counts by bucket for each age slice, the oldest first, and the cumulative sum and count. */
export class SummaryCell implements SummaryChild {
  sum = 0;
  count = 0;
  /** False after a reset until the next observation (kube deletes the series; callers keep their cells). */
  shown = true;
  private slices: Map<number, number>[] = [new Map()];
  private sliceEnds: number;

  constructor(
    private readonly sliceMs: number,
    private readonly ageBuckets: number,
    private readonly now: () => number,
  ) {
    this.sliceEnds = now() + sliceMs;
  }

  observe(v: number): void {
    this.rotate(this.now());
    const current = this.slices[this.slices.length - 1]!;
    const b = bucketOf(v);
    current.set(b, (current.get(b) ?? 0) + 1);
    this.sum += v;
    this.count++;
    this.shown = true;
  }

  reset(): void {
    this.slices = [new Map()];
    this.sliceEnds = this.now() + this.sliceMs;
    this.sum = this.count = 0;
    this.shown = false;
  }

  /** Starts new slices for the time that has passed, dropping those older than the window. */
  private rotate(t: number): void {
    if (t < this.sliceEnds) return;
    const passed = Math.floor((t - this.sliceEnds) / this.sliceMs) + 1;
    this.sliceEnds += passed * this.sliceMs;
    for (let i = 0; i < Math.min(passed, this.ageBuckets); i++) this.slices.push(new Map());
    if (this.slices.length > this.ageBuckets) this.slices = this.slices.slice(this.slices.length - this.ageBuckets);
  }

  /** The q-quantiles of the observations in the window (NaN when it holds none). */
  quantiles(qs: readonly number[]): number[] {
    this.rotate(this.now());
    const merged = new Map<number, number>();
    let total = 0;
    for (const s of this.slices) {
      for (const [b, n] of s) {
        merged.set(b, (merged.get(b) ?? 0) + n);
        total += n;
      }
    }
    if (total === 0) return qs.map(() => NaN);
    const sorted = [...merged].sort((a, b) => a[0] - b[0]);
    return qs.map((q) => {
      // the observation at rank ⌈q·n⌉ (1-based), as client_golang's streams query
      const rank = Math.max(1, Math.ceil(q * total));
      let seen = 0;
      for (const [b, n] of sorted) {
        seen += n;
        if (seen >= rank) return valueOf(b);
      }
      return valueOf(sorted[sorted.length - 1]![0]);
    });
  }
}

export class Summary<L extends string> extends CellMetric {
  private readonly cells: Cells<SummaryCell>;
  private readonly quantileList: readonly number[];

  constructor(opts: SummaryOpts<L>) {
    super(opts.name, helpText(opts), 'summary');
    this.quantileList = opts.quantiles ?? [0.5, 0.9, 0.99];
    const ageBuckets = opts.ageBuckets ?? 5;
    const sliceMs = ((opts.maxAgeSeconds ?? 600) * 1000) / ageBuckets;
    const now = opts.now ?? Date.now;
    this.cells = new Cells(opts.name, opts.labelNames ?? [], () => new SummaryCell(sliceMs, ageBuckets, now));
  }

  /** The series of one label set (kept by callers that record it often). */
  child(labels: Readonly<Record<L, string>>): SummaryChild {
    return this.cells.get(labels);
  }

  /** DELETE /metrics: a labelled summary forgets its series (kube's SummaryVec Reset) until they are recorded again. */
  reset(): void {
    for (const { cell } of this.cells.entries()) cell.reset();
  }

  values(): ExpositionValue[] {
    const out: ExpositionValue[] = [];
    for (const { labels, cell } of this.cells.entries()) {
      if (!cell.shown) continue;
      const qs = cell.quantiles(this.quantileList);
      this.quantileList.forEach((q, i) => out.push({ labels: { ...labels, quantile: q }, value: qs[i]! }));
      out.push({ labels, value: cell.sum, metricName: `${this.name}_sum` });
      out.push({ labels, value: cell.count, metricName: `${this.name}_count` });
    }
    return out;
  }
}

export function newSummary<L extends string>(opts: SummaryOpts<L>): Summary<L> {
  const m = new Summary(opts);
  declareCustom({ opts, metric: m as never, type: 'summary', reset: () => m.reset() });
  return m;
}
