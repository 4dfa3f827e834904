// Reading the Prometheus text format in tests: the sum of the samples of one
// name whose labels include the given ones (metrics are process-global, so
// tests compare a scrape before and after their own traffic).
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The sum of the samples named `name` whose labels include `labels` (0 when none). */
export function sampleSum(text: string | readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): number {
  const samples = typeof text === 'string' ? parseSamples(text) : text;
  let sum = 0;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) sum += s.value;
  }
  return sum;
}

/** The HELP and TYPE lines of a metric. */
export function helpAndType(text: string, name: string): { help?: string; type?: string } {
  const help = text.split('\n').find((l) => l.startsWith(`# HELP ${name} `))?.slice(`# HELP ${name} `.length);
  const type = text.split('\n').find((l) => l.startsWith(`# TYPE ${name} `))?.slice(`# TYPE ${name} `.length);
  return { ...(help !== undefined ? { help } : {}), ...(type !== undefined ? { type } : {}) };
}
