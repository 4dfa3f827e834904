// Go's time.ParseDuration and Duration.String(), in milliseconds (fractions
// keep ns/us precision), and Duration.String() of exact nanoseconds. Parse
// errors carry Go's text: `time: invalid duration "x"`.

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

/** Duration.String() of a number of milliseconds: "1m30s", "100ms", "2h0m0s", "0s" (to the nanosecond). */
export function formatGoDuration(ms: number): string {
  return formatGoNanos(BigInt(Math.round(ms * 1e6)));
}

const MICROSECOND = 1_000n;
const MILLISECOND = 1_000_000n;
const SECOND = 1_000_000_000n;
const MINUTE = 60n * SECOND;

/** Duration.String() of a count of nanoseconds: 1ns, 1.5µs, 1.5ms, 30s, 5m0s, 1h0m0s, -2s. */
export function formatGoNanos(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < SECOND) {
    if (u < MICROSECOND) out = `${u}ns`;
    else if (u < MILLISECOND) out = `${fraction(u, 3)}µs`;
    else out = `${fraction(u, 6)}ms`;
  } else {
    out = `${fraction(u % MINUTE, 9)}s`;
    u /= MINUTE;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** v / 10^prec with the fraction's trailing zeros (and a bare point) left out. */
function fraction(v: bigint, prec: number): string {
  const p = 10n ** BigInt(prec);
  const frac = (v % p).toString().padStart(prec, '0').replace(/0+$/, '');
  return `${v / p}${frac ? `.${frac}` : ''}`;
}
