// The metrics registry (kube's component-base legacyregistry) over prom-client.
//
// Every metric is declared once, at module load, with its stability class and,
// when deprecated, the release that deprecated it. The metric lifecycle of the
// spec is decided here, once, when the server starts (`configureMetrics`):
//   active      HELP "[ALPHA] …" / "[STABLE] …", exposed
//   deprecated  HELP "[ALPHA] (Deprecated since 1.26.0) …", exposed, a warning logged the first time it is recorded
//   hidden      deprecated before the previous minor release: recorded but not exposed,
//               unless --show-hidden-metrics-for-version=<previous minor>
// Recording never checks the lifecycle: a hidden metric's calls are cheap no-ops for
// callers and cost one prom-client update.
import client from 'prom-client';

export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

/** The release this server is (metrics are hidden relative to it). */
export const CURRENT_VERSION = { major: 1, minor: 27 } as const;

export interface MetricOpts<L extends string = string> {
  /** The full name, namespace_subsystem_name. */
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly L[];
  /** Default ALPHA. */
  readonly stabilityLevel?: StabilityLevel;
  /** The release that deprecated it ("1.26.0"). */
  readonly deprecatedVersion?: string;
}

export interface HistogramOpts<L extends string = string> extends MetricOpts<L> {
  readonly buckets: readonly number[];
}

type Labels<L extends string> = Partial<Record<L, string | number>>;

interface Declared {
  readonly opts: MetricOpts;
  readonly metric: client.Metric;
  readonly type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'timing_ratio_histogram';
  /** What DELETE /metrics does to it (kube's registry Reset); absent: nothing. */
  readonly reset?: () => void;
}

const declared: Declared[] = [];
const registry = new client.Registry();
let configured = false;
let showHiddenFor: string | undefined;

function parseVersion(v: string): { major: number; minor: number } | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(v);
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

/** kube's shouldHide: deprecated before the previous minor release. */
export function isHidden(deprecatedVersion: string | undefined, current = CURRENT_VERSION): boolean {
  if (!deprecatedVersion) return false;
  const d = parseVersion(deprecatedVersion);
  if (!d) return false;
  if (d.major !== current.major) return d.major < current.major;
  return d.minor < current.minor - 1;
}

/** The HELP text as kube writes it. */
export function helpText(opts: MetricOpts): string {
  const level = opts.stabilityLevel ?? 'ALPHA';
  const dep = opts.deprecatedVersion ? `(Deprecated since ${opts.deprecatedVersion}) ` : '';
  return `[${level}] ${dep}${opts.help}`;
}

function exposed(opts: MetricOpts): boolean {
  if (!isHidden(opts.deprecatedVersion)) return true;
  return showHiddenFor !== undefined;
}

function declare(d: Declared): void {
  declared.push(d);
  if (configured && exposed(d.opts)) registry.registerMetric(d.metric);
}

/** A metric of another kind (timingratio.ts, summary.ts): exposed through its get(), reset by `reset`. */
export function declareCustom(d: Declared): void {
  declare(d);
}

/**
 * DELETE /metrics (kube's HandlerWithReset → registry Reset): every metric with
 * labels forgets its series, a counter without labels starts again at 0; gauges
 * and histograms without labels and gauges computed at scrape time (collect)
 * keep their values, as kube's plain gauges and histograms and its custom
 * collectors do.
 */
export function resetMetrics(): void {
  for (const d of declared) d.reset?.();
}

const warned = new Set<string>();
function warnDeprecated(opts: MetricOpts): void {
  if (!opts.deprecatedVersion || warned.has(opts.name)) return;
  warned.add(opts.name);
  console.warn(`svc: metric ${opts.name} has been deprecated since ${opts.deprecatedVersion}`);
}

/**
 * The --show-hidden-metrics-for-version check (component-base's
 * validateShowHiddenMetricsVersion): omitted, or exactly the previous minor
 * release ("1.26"); anything else, malformed values included, gets kube's one
 * message. Returns the error text, or undefined.
 */
export function validateShowHiddenMetricsVersion(v: string): string | undefined {
  if (v === '') return undefined;
  const prev = `${CURRENT_VERSION.major}.${CURRENT_VERSION.minor - 1}`;
  if (v !== prev) return `--show-hidden-metrics-for-version must be omitted or have the value '${prev}'. Only the previous minor version is allowed`;
  return undefined;
}

/** Decides which metrics are exposed; call once at start-up (later calls re-decide). */
export function configureMetrics(opts: { showHiddenMetricsForVersion?: string } = {}): void {
  showHiddenFor = opts.showHiddenMetricsForVersion || undefined;
  registry.clear();
  configured = true;
  for (const d of declared) if (exposed(d.opts)) registry.registerMetric(d.metric);
}

/** The exposition text (Prometheus text format 0.0.4) of every exposed metric. */
export async function exposition(): Promise<string> {
  if (!configured) configureMetrics();
  const own = await registry.metrics();
  return processRegistry ? own + (await processRegistry.metrics()) : own;
}

export const EXPOSITION_CONTENT_TYPE = registry.contentType;

/** Every declared metric (exposed or not): name, type, labels, class — for the pinning test. */
export function declaredMetrics(): readonly { name: string; type: string; labelNames: readonly string[]; stabilityLevel: StabilityLevel; deprecatedVersion?: string; hidden: boolean; buckets?: readonly number[] }[] {
  return declared.map((d) => ({
    name: d.opts.name, type: d.type, labelNames: d.opts.labelNames ?? [], stabilityLevel: d.opts.stabilityLevel ?? 'ALPHA',
    ...('constLabels' in d.opts ? { constLabels: (d.opts as { constLabels: unknown }).constLabels } : {}),
    ...(d.opts.deprecatedVersion ? { deprecatedVersion: d.opts.deprecatedVersion } : {}), hidden: isHidden(d.opts.deprecatedVersion),
    ...('buckets' in d.opts ? { buckets: (d.opts as HistogramOpts).buckets } : {}),
  }));
}

export interface Counter<L extends string> {
  inc(labels?: Labels<L>, value?: number): void;
  /** The series of one label set, for callers that record it often (no label hashing per call). */
  child(labels?: Labels<L>): CounterChild;
}
export interface CounterChild {
  inc(value?: number): void;
}
export interface Gauge<L extends string> {
  set(labels: Labels<L>, value: number): void;
  inc(labels?: Labels<L>, value?: number): void;
  dec(labels?: Labels<L>, value?: number): void;
  /** Forgets a label set (the series disappears from the exposition). */
  remove(labels: Labels<L>): void;
  reset(): void;
}
export interface Histogram<L extends string> {
  observe(labels: Labels<L>, seconds: number): void;
  /** The series of one label set, for callers that record it often. */
  child(labels: Labels<L>): HistogramChild;
}
export interface HistogramChild {
  observe(value: number): void;
}

/**
 * Counters and histograms keep their series in cells of their own, found by
 * the label values in declaration order; prom-client formats them at scrape
 * time (its own recording hashes the label object on every call, about 0.8 µs
 * for nine labels — see bench/metrics.bench.ts).
 */
function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/** A metric's series by label values (made on first use), each with its label set for the exposition. */
export class Cells<C> {
  private readonly byKey = new Map<string, { labels: Record<string, string>; cell: C }>();
  /** A metric without labels: its one cell. */
  private only: C | undefined;
  constructor(private readonly name: string, private readonly labelNames: readonly string[], private readonly make: () => C) {}

  get(labels: Partial<Record<string, string | number>> | undefined): C {
    if (this.labelNames.length === 0 && this.only !== undefined && (labels === undefined || isEmpty(labels))) return this.only;
    let key = '';
    if (labels) {
      for (const n of this.labelNames) key += `${labels[n] ?? ''}\u0000`;
    }
    const found = this.byKey.get(key);
    if (found) return found.cell;
    const values: Record<string, string> = {};
    for (const k of Object.keys(labels ?? {})) {
      if (!this.labelNames.includes(k)) throw new Error(`metric ${this.name}: unknown label ${JSON.stringify(k)}`);
    }
    for (const n of this.labelNames) values[n] = String(labels?.[n] ?? '');
    const cell = this.make();
    this.byKey.set(key, { labels: values, cell });
    if (this.labelNames.length === 0) this.only = cell;
    return cell;
  }

  entries(): Iterable<{ labels: Record<string, string>; cell: C }> {
    return this.byKey.values();
  }
}

/**
 * A series' cell; `shown` false after a reset until it is recorded again (kube
 * deletes the series; cells stay, as callers keep them, but are not written).
 */
interface Shown {
  shown: boolean;
}

/** One sample as prom-client's text format writes it (`metricName` for a histogram's or summary's _bucket/_sum/_count). */
export interface ExpositionValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** What prom-client's Registry reads from a metric (name, help, type, get()); the custom kinds (timingratio.ts, summary.ts) extend it too. */
export abstract class CellMetric {
  readonly aggregator = 'sum';
  constructor(readonly name: string, readonly help: string, readonly type: 'counter' | 'histogram' | 'summary') {}
  abstract values(): ExpositionValue[];
  get(): Promise<{ name: string; help: string; type: string; values: ExpositionValue[]; aggregator: string }> {
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values: this.values(), aggregator: this.aggregator });
  }
}

class CounterMetric extends CellMetric {
  readonly cells: Cells<{ value: number } & Shown>;
  constructor(name: string, help: string, private readonly labelNames: readonly string[]) {
    super(name, help, 'counter');
    this.cells = new Cells(name, labelNames, () => ({ value: 0, shown: true }));
    // kube exposes a counter without labels from the start (0).
    if (labelNames.length === 0) this.cells.get(undefined);
  }
  values(): ExpositionValue[] {
    const out: ExpositionValue[] = [];
    for (const { labels, cell } of this.cells.entries()) if (cell.shown) out.push({ labels, value: cell.value });
    return out;
  }
  reset(): void {
    for (const { cell } of this.cells.entries()) {
      cell.value = 0;
      cell.shown = this.labelNames.length === 0;
    }
  }
}

class HistogramCell implements Shown {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  shown = true;
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(v: number): void {
    const b = this.bounds;
    for (let i = 0; i < b.length; i++) {
      if (v <= b[i]!) {
        this.counts[i]!++;
        break;
      }
    }
    this.sum += v;
    this.count++;
    this.shown = true;
  }
  reset(): void {
    this.counts.fill(0);
    this.sum = this.count = 0;
    this.shown = false;
  }
}

class HistogramMetric extends CellMetric {
  readonly cells: Cells<HistogramCell>;
  constructor(name: string, help: string, labelNames: readonly string[], private readonly bounds: readonly number[]) {
    super(name, help, 'histogram');
    this.cells = new Cells(name, labelNames, () => new HistogramCell(bounds));
  }
  values(): ExpositionValue[] {
    const out: ExpositionValue[] = [];
    for (const { labels, cell } of this.cells.entries()) {
      if (!cell.shown) continue;
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += cell.counts[i]!;
        out.push({ labels: { ...labels, le: this.bounds[i]! }, value: acc, metricName: `${this.name}_bucket` });
      }
      out.push({ labels: { ...labels, le: '+Inf' }, value: cell.count, metricName: `${this.name}_bucket` });
      out.push({ labels, value: cell.sum, metricName: `${this.name}_sum` });
      out.push({ labels, value: cell.count, metricName: `${this.name}_count` });
    }
    return out;
  }
}

export function newCounter<L extends string>(opts: MetricOpts<L>): Counter<L> {
  const m = new CounterMetric(opts.name, helpText(opts), opts.labelNames ?? []);
  declare({ opts, metric: m as unknown as client.Metric, type: 'counter', reset: () => m.reset() });
  const dep = opts.deprecatedVersion !== undefined;
  const add = (cell: { value: number } & Shown, value: number) => {
    if (dep) warnDeprecated(opts);
    if (!(value >= 0)) throw new Error(`metric ${opts.name}: a counter cannot decrease (${value})`);
    cell.value += value;
    cell.shown = true;
  };
  const child = (labels?: Labels<L>): CounterChild => {
    const cell = m.cells.get(labels);
    return { inc: (value = 1) => add(cell, value) };
  };
  return {
    // no child object per call: the cell is found and updated in place
    inc(labels, value = 1) {
      add(m.cells.get(labels), value);
    },
    child,
  };
}

export function newGauge<L extends string>(opts: MetricOpts<L> & { collect?: (set: (labels: Labels<L>, v: number) => void) => void }): Gauge<L> {
  const collect = opts.collect;
  const m: client.Gauge<L> = new client.Gauge({
    name: opts.name, help: helpText(opts), labelNames: [...(opts.labelNames ?? [])], registers: [],
    ...(collect ? { collect() { collect((labels, v) => m.set(labels, v)); } } : {}),
  });
  // kube's GaugeVec Reset forgets the series; a gauge computed at scrape time recomputes them
  declare({ opts, metric: m, type: 'gauge', ...(collect || (opts.labelNames ?? []).length === 0 ? {} : { reset: () => m.reset() }) });
  const dep = opts.deprecatedVersion !== undefined;
  return {
    set(labels, v) { if (dep) warnDeprecated(opts); m.set(labels, v); },
    inc(labels, v = 1) { if (dep) warnDeprecated(opts); if (labels) m.inc(labels, v); else m.inc(v); },
    dec(labels, v = 1) { if (dep) warnDeprecated(opts); if (labels) m.dec(labels, v); else m.dec(v); },
    remove(labels) { m.remove(labels); },
    reset() { m.reset(); },
  };
}

export function newHistogram<L extends string>(opts: HistogramOpts<L>): Histogram<L> {
  const m = new HistogramMetric(opts.name, helpText(opts), opts.labelNames ?? [], [...opts.buckets]);
  // kube resets histogram vectors; a histogram without labels keeps its values
  const labelled = (opts.labelNames ?? []).length > 0;
  declare({ opts, metric: m as unknown as client.Metric, type: 'histogram', ...(labelled ? { reset: () => { for (const { cell } of m.cells.entries()) cell.reset(); } } : {}) });
  const dep = opts.deprecatedVersion !== undefined;
  const child = (labels: Labels<L>): HistogramChild => {
    const cell = m.cells.get(labels);
    return {
      observe(v) {
        if (dep) warnDeprecated(opts);
        cell.observe(v);
      },
    };
  };
  return {
    // no child object per call: the cell is found and updated in place
    observe(labels, seconds) {
      if (dep) warnDeprecated(opts);
      m.cells.get(labels).observe(seconds);
    },
    child,
  };
}

/** Registers prom-client's process (process_cpu_seconds_total, process_resident_memory_bytes…) and Node.js runtime collectors, once. */
let processRegistry: client.Registry | undefined;
export function collectProcessMetrics(): void {
  if (processRegistry) return;
  processRegistry = new client.Registry();
  client.collectDefaultMetrics({ register: processRegistry });
}

/** Prometheus' ExponentialBuckets: count bounds, the first `start`, each `factor` times the last. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0, v = start; i < count; i++, v *= factor) out.push(v);
  return out;
}
