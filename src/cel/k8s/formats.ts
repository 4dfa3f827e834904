// The string formats a schema's data is read with before CEL sees it
// (Kubernetes' UnstructuredToVal through kube-openapi's strfmt):
//   duration   Go's time.ParseDuration, else strfmt's "3 days 4 hours" form
//   date       RFC 3339 full date (2006-01-02), midnight UTC
//   date-time  strfmt.ParseDateTime's layouts (RFC 3339 with optional fraction,
//              ±hhmm offsets, local times read as UTC, minute precision)
//   byte       standard base64 with padding (Go's StdEncoding; CR/LF ignored)
// Each parser returns the value or a string error (Go's error text where we
// know it).

import { Timestamp } from '../values.js';
import { goQuote } from '../goquote.js';

const INT64_MAX = (1n << 63n) - 1n;

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n,
};

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Go's time.ParseDuration: nanoseconds, or an error text. */
export function parseGoDuration(s: string): bigint | string {
  const orig = s;
  const invalid = `time: invalid duration ${goQuote(orig)}`;
  let i = 0;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i++;
  }
  if (s.slice(i) === '0') return 0n;
  if (i === s.length) return invalid;
  let total = 0n;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (!(c === 0x2e || isDigit(c))) return invalid;
    let intPart = 0n;
    const intStart = i;
    while (i < s.length && isDigit(s.charCodeAt(i))) {
      intPart = intPart * 10n + BigInt(s.charCodeAt(i) - 0x30);
      if (intPart > INT64_MAX) return invalid;
      i++;
    }
    const pre = i > intStart;
    let frac = 0n;
    let scale = 1n;
    let post = false;
    if (s[i] === '.') {
      i++;
      const fracStart = i;
      while (i < s.length && isDigit(s.charCodeAt(i))) {
        if (scale < 10n ** 18n) {
          frac = frac * 10n + BigInt(s.charCodeAt(i) - 0x30);
          scale *= 10n;
        }
        i++;
      }
      post = i > fracStart;
    }
    if (!pre && !post) return invalid;
    const unitStart = i;
    while (i < s.length) {
      const u = s.charCodeAt(i);
      if (u === 0x2e || isDigit(u)) break;
      i++;
    }
    if (unitStart === i) return `time: missing unit in duration ${goQuote(orig)}`;
    const unit = s.slice(unitStart, i);
    const mult = UNIT_NANOS[unit];
    if (mult === undefined) return `time: unknown unit ${goQuote(unit)} in duration ${goQuote(orig)}`;
    let v = intPart * mult;
    if (v > INT64_MAX) return invalid;
    v += (frac * mult) / scale;
    total += v;
    if (total > INT64_MAX + (neg ? 1n : 0n)) return invalid;
  }
  return neg ? -total : total;
}

// strfmt's fallback: "<n> <unit>" pairs, units by prefix or exact variant.
const STRFMT_UNITS: [bigint, string[]][] = [
  [1n, ['ns', 'nano']],
  [1000n, ['us', 'µs', 'micro']],
  [1000000n, ['ms', 'milli']],
  [1000000000n, ['s', 'sec']],
  [60000000000n, ['m', 'min']],
  [3600000000000n, ['h', 'hr', 'hour']],
  [86400000000000n, ['d', 'day']],
  [604800000000000n, ['w', 'wk', 'week']],
];
const STRFMT_PAIR = /(\d+)\s*([A-Za-zµ]+)/g;

/** kube-openapi strfmt.ParseDuration (the `duration` format). */
export function parseStrfmtDuration(s: string): bigint | string {
  const go = parseGoDuration(s);
  if (typeof go === 'bigint') return go;
  let total = 0n;
  let ok = false;
  for (const m of s.matchAll(STRFMT_PAIR)) {
    const factor = BigInt(m[1]!);
    const unit = m[2]!.toLowerCase().trim();
    for (const [mult, variants] of STRFMT_UNITS) {
      const last = variants.length - 1;
      variants.forEach((variant, k) => {
        if ((k === last && unit.startsWith(variant)) || variant === unit) {
          ok = true;
          total += factor * mult;
        }
      });
    }
  }
  if (ok) return BigInt.asIntN(64, total);
  return `unable to parse ${s} as duration`;
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y: number, m: number): number => (m === 2 && isLeap(y) ? 29 : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!);

function epochDays(y: number, m: number, d: number): number {
  // Days from 1970-01-01 (proleptic Gregorian).
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// date T hh:mm[:ss[.frac]] [Z | ±hh:mm | ±hhmm]
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

function timestamp(y: number, mo: number, d: number, h: number, mi: number, s: number, nanos: number, offsetSec: number): Timestamp | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  return new Timestamp(epochDays(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offsetSec, nanos);
}

/** The `date` format: RFC 3339 full-date, at midnight UTC. */
export function parseDate(s: string): Timestamp | string {
  const m = DATE.exec(s);
  const t = m ? timestamp(+m[1]!, +m[2]!, +m[3]!, 0, 0, 0, 0, 0) : undefined;
  return t ?? `parsing time ${goQuote(s)} as "2006-01-02": cannot parse ${goQuote(s)} as "2006-01-02"`;
}

/** The `date-time` format as kube-openapi's strfmt.ParseDateTime reads it ("" is the epoch). */
export function parseDateTime(s: string): Timestamp | string {
  if (s === '') return new Timestamp(0, 0);
  const m = DATE_TIME.exec(s);
  if (m) {
    const [, y, mo, d, h, mi, sec, frac, zone] = m;
    // Minute precision is only a layout with Z or no zone; an offset without
    // a colon only follows exactly 3 or 6 fraction digits (the *NoColon layouts).
    const minuteOnly = sec === undefined;
    const numeric = zone !== undefined && zone !== 'Z';
    const noColon = numeric && zone.length === 5;
    if (!(minuteOnly && numeric) && !(noColon && frac?.length !== 3 && frac?.length !== 6)) {
      let offset = 0;
      if (zone !== undefined && zone !== 'Z') {
        const sign = zone[0] === '-' ? -1 : 1;
        const digits = zone.slice(1).replace(':', '');
        offset = sign * (+digits.slice(0, 2) * 3600 + +digits.slice(2) * 60);
      }
      const nanos = frac ? +frac.padEnd(9, '0') : 0;
      const t = timestamp(+y!, +mo!, +d!, +h!, +mi!, sec ? +sec : 0, nanos, offset);
      if (t) return t;
    }
  }
  return `parsing time ${goQuote(s)} as "2006-01-02T15:04": cannot parse ${goQuote(s)} as "2006-01-02T15:04"`;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i;

/** Go's base64.StdEncoding.DecodeString (strict padding; \r and \n skipped),
 * with its CorruptInputError offsets. */
export function parseBase64(s: string): Uint8Array | string {
  const out: number[] = [];
  const bad = (at: number): string => `illegal base64 data at input byte ${at}`;
  const skipNewlines = (at: number): number => {
    while (at < s.length && (s.charCodeAt(at) === 0x0a || s.charCodeAt(at) === 0x0d)) at++;
    return at;
  };
  let si = 0;
  for (;;) {
    const q: number[] = [];
    let ended = false;
    while (q.length < 4) {
      if (si === s.length) {
        if (q.length === 0) return Uint8Array.from(out);
        return bad(si - q.length);
      }
      const c = s.charCodeAt(si++);
      const v = c < 128 ? B64_INDEX[c]! : -1;
      if (v >= 0) {
        q.push(v);
        continue;
      }
      if (c === 0x0a || c === 0x0d) continue;
      if (c !== 0x3d) return bad(si - 1);
      // Padding: only after 2 or 3 characters of the quantum.
      if (q.length < 2) return bad(si - 1);
      if (q.length === 2) {
        si = skipNewlines(si);
        if (si === s.length) return bad(s.length);
        if (s.charCodeAt(si) !== 0x3d) return bad(si - 1);
        si++;
      }
      si = skipNewlines(si);
      if (si < s.length) return bad(si);
      ended = true;
      break;
    }
    out.push((q[0]! << 2) | (q[1]! >> 4));
    if (q.length >= 3) out.push(((q[1]! & 15) << 4) | (q[2]! >> 2));
    if (q.length === 4) out.push(((q[2]! & 3) << 6) | q[3]!);
    if (ended) return Uint8Array.from(out);
  }
}
