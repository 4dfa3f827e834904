// Go's time.ParseDuration and Duration.String(), in milliseconds (fractions
// keep ns/us precision). Errors carry Go's text: `time: invalid duration "x"`.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export class DurationError extends Error {}

const quote = (s: string) => JSON.stringify(s);

/** Parses "1m30s", "300ms", "-1.5h", "0" into milliseconds. */
export function parseGoDuration(text: string): number {
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new DurationError(`time: invalid duration ${quote(text)}`);
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s)!;
    if (num[0] === '' || num[0] === '.') throw new DurationError(`time: invalid duration ${quote(text)}`);
    s = s.slice(num[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new DurationError(`time: missing unit in duration ${quote(text)}`);
    const ms = UNIT_MS[unit];
    if (ms === undefined) throw new DurationError(`time: unknown unit ${quote(unit)} in duration ${quote(text)}`);
    s = s.slice(unit.length);
    total += Number(num[0]) * ms;
  }
  return neg ? -total : total;
}

/** Duration.String(): "1m30s", "100ms", "2h0m0s", "0s". */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) {
    if (abs >= 1) return `${sign}${trim(abs)}ms`;
    if (abs >= 1e-3) return `${sign}${trim(abs * 1e3)}µs`;
    return `${sign}${trim(abs * 1e6)}ns`;
  }
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const sec = (abs % 60_000) / 1000;
  if (h > 0) return `${sign}${h}h${m}m${trim(sec)}s`;
  if (m > 0) return `${sign}${m}m${trim(sec)}s`;
  return `${sign}${trim(sec)}s`;
}

const trim = (n: number) => String(Number(n.toFixed(9)));
