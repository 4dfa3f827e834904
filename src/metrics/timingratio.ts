// kube's TimingRatioHistogram (apiserver util/flowcontrol/metrics over
// component-base's TimingHistogram), v1.27: a gauge of a ratio whose numerator
// and denominator the caller sets, exposed as a histogram of the ratio's value
// "observed at the end of every nanosecond". Nothing samples it on a timer:
// each change weighs the previous value by the nanoseconds it was held, and a
// scrape weighs the current value up to now. So the _count is the nanoseconds
// since the series began, each bucket the nanoseconds the ratio was at most its
// bound, and the _sum the ratio integrated over nanoseconds.
//
// HELP is kube's: "EXPERIMENTAL: [ALPHA] …". Children take the clock (ms) of
// what they measure (the queue sets' clock), so tests drive them with a fake one.
import { CellMetric, declareCustom, helpText, type ExpositionValue, type MetricOpts } from './registry.js';

export interface TimingRatioOpts<L extends string> extends MetricOpts<L> {
  readonly buckets: readonly number[];
  /** Labels every series carries (kube's ConstLabels). */
  readonly constLabels?: Readonly<Record<string, string>>;
}

/**
 * One series: what the code being measured changes. `at` is the time of the
 * change on the series' clock (ms), when the caller has just read it: a clock
 * reading costs about as much as the update itself.
 */
export interface RatioedGauge {
  /** A new numerator. */
  set(numerator: number, at?: number): void;
  add(delta: number, at?: number): void;
  setDenominator(denominator: number, at?: number): void;
}

const realNow = () => performance.now();

/** One series' accumulation, in nanoseconds. */
export class TimingRatioCell implements RatioedGauge {
  readonly counts: Float64Array;
  /** ∫ ratio dt (ns). */
  sum = 0;
  /** ns since the series began (or was reset). */
  count = 0;
  private ratio: number;
  private last: number;
  constructor(private readonly bounds: readonly number[], private readonly now: () => number, private numerator: number, private denominator: number) {
    this.counts = new Float64Array(bounds.length + 1);
    this.ratio = numerator / denominator;
    this.last = now();
  }

  /** Weighs the current ratio by the time since the last change. */
  private advance(t: number): void {
    const ns = (t - this.last) * 1e6;
    if (!(ns > 0)) return;
    this.last = t;
    const v = this.ratio;
    const b = this.bounds;
    let i = 0;
    while (i < b.length && !(v <= b[i]!)) i++;
    this.counts[i]! += ns;
    this.sum += v * ns;
    this.count += ns;
  }
  set(numerator: number, at = this.now()): void {
    this.advance(at);
    this.numerator = numerator;
    this.ratio = numerator / this.denominator;
  }
  add(delta: number, at = this.now()): void {
    this.set(this.numerator + delta, at);
  }
  setDenominator(denominator: number, at = this.now()): void {
    this.advance(at);
    this.denominator = denominator;
    this.ratio = this.numerator / denominator;
  }
  /** The accumulation up to now. */
  read(): { readonly counts: Float64Array; readonly sum: number; readonly count: number } {
    this.advance(this.now());
    return this;
  }
  reset(): void {
    this.advance(this.now());
    this.counts.fill(0);
    this.sum = this.count = 0;
  }
}

export class TimingRatioHistogram<L extends string> extends CellMetric {
  private readonly series: { labels: Record<string, string>; cell: TimingRatioCell }[] = [];

  constructor(private readonly opts: TimingRatioOpts<L>) {
    super(opts.name, `EXPERIMENTAL: ${helpText(opts)}`, 'histogram');
  }

  /**
   * A new series (kube's NewForLabelValuesSafe: one per caller, kept by it; the
   * same label values twice make two series, which the caller avoids). Series
   * live as long as the process, as kube's (a deleted priority level's series
   * goes on holding its last value).
   */
  child(labels: Readonly<Record<L, string>>, init: { numerator?: number; denominator?: number; now?: () => number } = {}): RatioedGauge {
    const values: Record<string, string> = { ...this.opts.constLabels };
    for (const n of this.opts.labelNames ?? []) values[n] = labels[n] ?? '';
    const cell = new TimingRatioCell(this.opts.buckets, init.now ?? realNow, init.numerator ?? 0, init.denominator ?? 1);
    this.series.push({ labels: values, cell });
    return cell;
  }

  /** DELETE /metrics: kube deletes the vector's members (their holders then write to members no longer exposed); here the series stay and start again from 0. */
  reset(): void {
    for (const s of this.series) s.cell.reset();
  }

  values(): ExpositionValue[] {
    const out: ExpositionValue[] = [];
    const b = this.opts.buckets;
    for (const { labels, cell } of this.series) {
      const r = cell.read();
      let acc = 0;
      for (let i = 0; i < b.length; i++) {
        acc += r.counts[i]!;
        out.push({ labels: { ...labels, le: b[i]! }, value: acc, metricName: `${this.name}_bucket` });
      }
      out.push({ labels: { ...labels, le: '+Inf' }, value: r.count, metricName: `${this.name}_bucket` });
      out.push({ labels, value: r.sum, metricName: `${this.name}_sum` });
      out.push({ labels, value: r.count, metricName: `${this.name}_count` });
    }
    return out;
  }
}

/** Declares a timing ratio histogram with the registry (exposed, reset by DELETE /metrics). */
export function newTimingRatioHistogram<L extends string>(opts: TimingRatioOpts<L>): TimingRatioHistogram<L> {
  const m = new TimingRatioHistogram(opts);
  declareCustom({ opts, metric: m as never, type: 'timing_ratio_histogram', reset: () => m.reset() });
  return m;
}
