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
  readonly type: 'counter' | 'gauge' | 'histogram';
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

const warned = new Set<string>();
function warnDeprecated(opts: MetricOpts): void {
  if (!opts.deprecatedVersion || warned.has(opts.name)) return;
  warned.add(opts.name);
  console.warn(`svc: metric ${opts.name} has been deprecated since ${opts.deprecatedVersion}`);
}

/**
 * The --show-hidden-metrics-for-version check (kube's ValidateShowHiddenMetricsVersion):
 * only the previous minor release may be given. Returns the error text, or undefined.
 */
export function validateShowHiddenMetricsVersion(v: string): string | undefined {
  if (v === '') return undefined;
  const p = parseVersion(v);
  if (!p || /^v|\.\d+\.\d+$/.test(v)) return `--show-hidden-metrics-for-version must be in the format major.minor, got ${JSON.stringify(v)}`;
  const prev = `${CURRENT_VERSION.major}.${CURRENT_VERSION.minor - 1}`;
  if (`${p.major}.${p.minor}` !== prev) return `--show-hidden-metrics-for-version must be omitted or have the value '${prev}'. Only the previous minor version is allowed`;
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
export function declaredMetrics(): readonly { name: string; type: string; labelNames: readonly string[]; stabilityLevel: StabilityLevel; deprecatedVersion?: string; hidden: boolean }[] {
  return declared.map((d) => ({
    name: d.opts.name, type: d.type, labelNames: d.opts.labelNames ?? [], stabilityLevel: d.opts.stabilityLevel ?? 'ALPHA',
    ...(d.opts.deprecatedVersion ? { deprecatedVersion: d.opts.deprecatedVersion } : {}), hidden: isHidden(d.opts.deprecatedVersion),
  }));
}

export interface Counter<L extends string> {
  inc(labels?: Labels<L>, value?: number): void;
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
}

export function newCounter<L extends string>(opts: MetricOpts<L>): Counter<L> {
  const m = new client.Counter({ name: opts.name, help: helpText(opts), labelNames: [...(opts.labelNames ?? [])], registers: [] });
  declare({ opts, metric: m, type: 'counter' });
  const dep = opts.deprecatedVersion !== undefined;
  return {
    inc(labels, value = 1) {
      if (dep) warnDeprecated(opts);
      if (labels) m.inc(labels, value);
      else m.inc(value);
    },
  };
}

export function newGauge<L extends string>(opts: MetricOpts<L> & { collect?: (set: (labels: Labels<L>, v: number) => void) => void }): Gauge<L> {
  const collect = opts.collect;
  const m: client.Gauge<L> = new client.Gauge({
    name: opts.name, help: helpText(opts), labelNames: [...(opts.labelNames ?? [])], registers: [],
    ...(collect ? { collect() { collect((labels, v) => m.set(labels, v)); } } : {}),
  });
  declare({ opts, metric: m, type: 'gauge' });
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
  const m = new client.Histogram({ name: opts.name, help: helpText(opts), labelNames: [...(opts.labelNames ?? [])], buckets: [...opts.buckets], registers: [] });
  declare({ opts, metric: m, type: 'histogram' });
  const dep = opts.deprecatedVersion !== undefined;
  return {
    observe(labels, seconds) { if (dep) warnDeprecated(opts); m.observe(labels, seconds); },
  };
}

/** Registers prom-client's process (process_cpu_seconds_total, process_resident_memory_bytes…) and Node.js runtime collectors, once. */
let processRegistry: client.Registry | undefined;
export function collectProcessMetrics(): void {
  if (processRegistry) return;
  processRegistry = new client.Registry();
  client.collectDefaultMetrics({ register: processRegistry });
}
