// Durations as cel-go holds them: Go's time.Duration, int64 nanoseconds.
// Parsing is Go's time.ParseDuration (`1h2m3.5s`, `-1.5h`, `300ms`, units
// ns us µs μs ms s m h), printing is seconds with Go's shortest 'f' format,
// arithmetic overflows as int64 (`integer overflow`).

import { Duration, intOf } from '../values.js';
import { conversionError, errIntOverflow } from './errors.js';
import { formatFloatF } from './numfmt.js';

const NS_BIG = 1_000_000_000n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1000n],
  ['µs', 1000n], // U+00B5
  ['μs', 1000n], // U+03BC
  ['ms', 1_000_000n],
  ['s', NS_BIG],
  ['m', 60n * NS_BIG],
  ['h', 3600n * NS_BIG],
]);

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

const UNIT_NS: Readonly<Record<string, number>> = Object.assign(Object.create(null) as Record<string, number>, {
  ns: 1,
  us: 1e3,
  'µs': 1e3,
  'μs': 1e3,
  ms: 1e6,
  s: 1e9,
  m: 6e10,
  h: 3.6e12,
});

/** The common case without BigInt: integer components whose total stays
 * below 2^53 ns (about 104 days); undefined sends the input to the full parser. */
function parseDurationFast(s: string): Duration | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i = 1;
  }
  if (i >= s.length) return undefined;
  let total = 0;
  while (i < s.length) {
    let v = 0;
    const start = i;
    while (i < s.length) {
      const c = s.charCodeAt(i) - 48;
      if (!(c >= 0 && c <= 9)) break;
      v = v * 10 + c;
      i++;
    }
    if (i === start || i - start > 15) return undefined;
    const us = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s.charCodeAt(i))) i++;
    if (s[i] === '.') return undefined;
    const unit = UNIT_NS[s.slice(us, i)];
    if (unit === undefined) return undefined;
    total += v * unit;
    if (!(total <= Number.MAX_SAFE_INTEGER)) return undefined;
  }
  return new Duration(BigInt(neg ? -total : total));
}

/** duration(string): Go's time.ParseDuration (`1h2m3.5s`, `-1.5h`, `300ms`). */
export function parseDuration(input: string): Duration {
  const fast = parseDurationFast(input);
  if (fast !== undefined) return fast;
  const fail = (): never => {
    throw conversionError('string', 'google.protobuf.Duration');
  };
  let s = input;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return new Duration(0n);
  if (s === '') fail();
  let total = 0n;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (!(c === 46 || isDigit(c))) fail();
    const intStart = i;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    const intDigits = s.slice(intStart, i);
    let fracDigits = '';
    if (i < s.length && s[i] === '.') {
      i++;
      const fs = i;
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
      fracDigits = s.slice(fs, i);
    }
    if (intDigits === '' && fracDigits === '') fail();
    const us = i;
    while (i < s.length && s[i] !== '.' && !isDigit(s.charCodeAt(i))) i++;
    const unit = UNITS.get(s.slice(us, i));
    if (unit === undefined) fail();
    let v = intDigits === '' ? 0n : BigInt(intDigits);
    if (v > 2n ** 63n / unit!) fail();
    v *= unit!;
    if (fracDigits !== '') {
      // Go accumulates the fraction as a float64 scaled by the unit.
      const f = Number('0.' + fracDigits) * Number(unit);
      v += BigInt(Math.trunc(f));
      if (v > 2n ** 63n) fail();
    }
    total += v;
    if (total > 2n ** 63n) fail();
  }
  if (neg) return new Duration(-total);
  if (total > INT64_MAX) fail();
  return new Duration(total);
}

/** string(duration): seconds with Go's shortest 'f' format and an `s`. */
export function formatDuration(d: Duration): string {
  const sec = d.nanos / NS_BIG;
  const nsec = d.nanos % NS_BIG;
  return formatFloatF(Number(sec) + Number(nsec) / 1e9) + 's';
}

/** A duration from int64 nanoseconds, or `integer overflow`. */
export function durationOf(nanos: bigint): Duration {
  if (nanos < INT64_MIN || nanos > INT64_MAX) throw errIntOverflow;
  return new Duration(nanos);
}

export const addDurations = (a: Duration, b: Duration): Duration => durationOf(a.nanos + b.nanos);
export const subDurations = (a: Duration, b: Duration): Duration => durationOf(a.nanos - b.nanos);

/** Duration accessors: whole hours, minutes, seconds, milliseconds (truncated). */
export const durationHours = (d: Duration): number | bigint => intOf(d.nanos / (3600n * NS_BIG));
export const durationMinutes = (d: Duration): number | bigint => intOf(d.nanos / (60n * NS_BIG));
export const durationSeconds = (d: Duration): number | bigint => intOf(d.nanos / NS_BIG);
export const durationMilliseconds = (d: Duration): number | bigint => intOf(d.nanos / 1_000_000n);
