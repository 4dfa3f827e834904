// Timestamps as cel-go: from 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999999Z (else `timestamp overflow`), RFC 3339
// parsing and printing, arithmetic with durations, and the calendar
// accessors in UTC, an IANA time zone (through Intl; formatters and offsets
// cached) or a fixed `±HH:MM` offset. Durations live in duration.ts
// (re-exported here).

import { CelError, Duration, Timestamp } from '../values.js';
import { conversionError, errIntOverflow, errTimestampOverflow } from './errors.js';
import { durationOf } from './duration.js';
import { goQuote } from '../goquote.js';

export {
  addDurations,
  durationHours,
  durationMilliseconds,
  durationMinutes,
  durationOf,
  durationSeconds,
  formatDuration,
  parseDuration,
  subDurations,
} from './duration.js';

/** Seconds from the epoch of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
export const MIN_UNIX = -62135596800;
export const MAX_UNIX = 253402300799;
const NS = 1_000_000_000;
const NS_BIG = 1_000_000_000n;
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
const INT64_MIN = -(2n ** 63n);

/** A timestamp, or `timestamp overflow` outside year 1–9999. */
export function timestampOf(seconds: number, nanos: number): Timestamp {
  if (seconds < MIN_UNIX || seconds > MAX_UNIX) throw errTimestampOverflow;
  return new Timestamp(seconds, nanos);
}

// --- civil calendar (proleptic Gregorian, days since 1970-01-01) ------------

export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Civil fields of a point in time given as seconds since the epoch (already
 * shifted by the zone offset). */
export interface Civil {
  year: number;
  month: number; // 1–12
  day: number; // 1–31
  dayOfYear: number; // 0-based
  dayOfWeek: number; // 0 = Sunday
  hours: number;
  minutes: number;
  seconds: number;
}

export function civilOf(localSeconds: number): Civil {
  const days = Math.floor(localSeconds / 86400);
  const secOfDay = localSeconds - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return {
    year,
    month,
    day,
    dayOfYear: days - daysFromCivil(year, 1, 1),
    dayOfWeek: (((days + 4) % 7) + 7) % 7,
    hours: Math.floor(secOfDay / 3600),
    minutes: Math.floor(secOfDay / 60) % 60,
    seconds: secOfDay % 60,
  };
}

// --- time zones --------------------------------------------------------------

const MAX_ZONES = 256;
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(name: string): Intl.DateTimeFormat {
  let f = zoneFormatters.get(name);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      throw new CelError(`unknown time zone ${name}`);
    }
    // Intl reads names case-insensitively; Go's tzdata lookup does not.
    const resolved = f.resolvedOptions().timeZone;
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) throw new CelError(`unknown time zone ${name}`);
    if (zoneFormatters.size >= MAX_ZONES) zoneFormatters.clear();
    zoneFormatters.set(name, f);
  }
  return f;
}

/** The offset east of UTC, in seconds, of the IANA zone at the instant. */
function ianaOffset(name: string, seconds: number): number {
  const parts = zoneFormatter(name).formatToParts(new Date(seconds * 1000));
  let y = 0;
  let mo = 0;
  let d = 0;
  let h = 0;
  let mi = 0;
  let s = 0;
  let bc = false;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        y = Number(p.value);
        break;
      case 'month':
        mo = Number(p.value);
        break;
      case 'day':
        d = Number(p.value);
        break;
      case 'hour':
        h = Number(p.value);
        break;
      case 'minute':
        mi = Number(p.value);
        break;
      case 'second':
        s = Number(p.value);
        break;
      case 'era':
        bc = p.value === 'BC' || p.value === 'B';
        break;
    }
  }
  if (bc) y = 1 - y;
  const local = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  return local - seconds;
}

/** Go's strconv.Atoi, with its error text. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new CelError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  return Number(s);
}


const MAX_CACHED_OFFSETS = 4096;
/** Fixed offsets by argument (`+05:30`), and IANA offsets by zone and UTC hour. */
const fixedOffsets = new Map<string, number>();
const hourOffsets = new Map<string, number>();

/** The offset of an IANA zone, memoised per UTC hour when the offset is the
 * same at both ends of the hour (tzdb has no pair of transitions within one
 * hour, so the whole hour then shares it). */
function cachedIanaOffset(tz: string, seconds: number): number {
  const hour = Math.floor(seconds / 3600);
  const key = tz + '\u0000' + hour;
  const hit = hourOffsets.get(key);
  if (hit !== undefined) return hit;
  const off = ianaOffset(tz, seconds);
  if (ianaOffset(tz, hour * 3600) === off && ianaOffset(tz, hour * 3600 + 3599) === off) {
    if (hourOffsets.size >= MAX_CACHED_OFFSETS) hourOffsets.clear();
    hourOffsets.set(key, off);
  }
  return off;
}

/** The offset east of UTC in seconds for cel-go's time zone argument: an IANA
 * name (`America/New_York`, `UTC`) or a fixed offset `[+-]HH:MM`. */
export function zoneOffset(tz: string, seconds: number): number {
  if (tz === '' || tz === 'UTC') return 0;
  const fixed = fixedOffsets.get(tz);
  if (fixed !== undefined) return fixed;
  const colon = tz.indexOf(':');
  if (colon === -1) return cachedIanaOffset(tz, seconds);
  const off = parseFixedOffset(tz, colon);
  if (fixedOffsets.size >= MAX_CACHED_OFFSETS) fixedOffsets.clear();
  fixedOffsets.set(tz, off);
  return off;
}

/** cel-go's `[+-]HH:MM` reading: Atoi on each side of the colon. */
function parseFixedOffset(tz: string, colon: number): number {
  const hr = atoi(tz.slice(0, colon));
  const min = atoi(tz.slice(colon + 1));
  if (min < 0 || min > 59) throw new CelError(`timezone offset minutes out of range [0, 59]: ${tz}`);
  const offset = tz[0] === '-' ? hr * 60 - min : hr * 60 + min;
  return offset * 60;
}

/** Civil fields of a timestamp in a time zone (UTC when tz is undefined). */
export function civilIn(t: Timestamp, tz?: string): Civil {
  const off = tz === undefined ? 0 : zoneOffset(tz, t.seconds);
  return civilOf(t.seconds + off);
}

// --- RFC 3339 ------------------------------------------------------------------

const daysInMonth = (y: number, m: number): number =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];

/** The value of the n ASCII digits of s at i, or -1 when one is not a digit. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(i + k) - 48;
    if (!(c >= 0 && c <= 9)) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** timestamp(string): RFC 3339 as Go's time.Parse(time.RFC3339) reads it
 * (`2006-01-02T15:04:05[.999999999](Z|±07:00)`), by a character scan. */
export function parseTimestamp(s: string): Timestamp {
  const bad = (): never => {
    throw conversionError('string', 'google.protobuf.Timestamp');
  };
  if (s.length < 20 || s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':') bad();
  const y = digits(s, 0, 4);
  const mo = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) bad();
  let i = 19;
  let nanos = 0;
  if (s[i] === '.' || s[i] === ',') {
    i++;
    const start = i;
    let scale = 100_000_000;
    while (i < s.length) {
      const c = s.charCodeAt(i) - 48;
      if (!(c >= 0 && c <= 9)) break;
      if (scale >= 1) nanos += c * scale;
      scale /= 10;
      i++;
    }
    if (i === start) bad();
  }
  let offset = 0;
  if (s[i] === 'Z' && i + 1 === s.length) {
    // UTC
  } else if ((s[i] === '+' || s[i] === '-') && i + 6 === s.length && s[i + 3] === ':') {
    const oh = digits(s, i + 1, 2);
    const om = digits(s, i + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) bad();
    offset = (oh * 3600 + om * 60) * (s[i] === '-' ? -1 : 1);
  } else bad();
  const seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset;
  return timestampOf(seconds, nanos);
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** RFC 3339 in UTC with trailing zeros of the nanoseconds trimmed (Go's
 * time.RFC3339Nano), as string(timestamp) prints it. */
export function formatTimestamp(t: Timestamp): string {
  const c = civilOf(t.seconds);
  let s = `${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}T${pad(c.hours, 2)}:${pad(c.minutes, 2)}:${pad(c.seconds, 2)}`;
  if (t.nanos !== 0) s += '.' + pad(t.nanos, 9).replace(/0+$/, '');
  return s + 'Z';
}

// --- timestamp arithmetic -------------------------------------------------------------

export function addTimestampDuration(t: Timestamp, d: Duration): Timestamp {
  let sec: number;
  let nsec: number;
  const n = d.nanos;
  if (n >= -MAX_SAFE_BIG && n <= MAX_SAFE_BIG) {
    const x = Number(n);
    const r = x % NS;
    sec = t.seconds + (x - r) / NS;
    nsec = t.nanos + r;
  } else {
    sec = t.seconds + Number(n / NS_BIG);
    nsec = t.nanos + Number(n % NS_BIG);
  }
  if (nsec >= NS) {
    sec += 1;
    nsec -= NS;
  } else if (nsec < 0) {
    sec -= 1;
    nsec += NS;
  }
  return timestampOf(sec, nsec);
}

export function subTimestampDuration(t: Timestamp, d: Duration): Timestamp {
  if (d.nanos === INT64_MIN) throw errIntOverflow;
  return addTimestampDuration(t, new Duration(-d.nanos));
}

/** timestamp - timestamp: a duration, or `integer overflow` beyond int64 ns. */
export function subTimestamps(a: Timestamp, b: Timestamp): Duration {
  const ds = a.seconds - b.seconds;
  const dn = a.nanos - b.nanos;
  // Within ±104 days the nanoseconds are exact as a double.
  if (ds > -9e6 && ds < 9e6) return new Duration(BigInt(ds * NS + dn));
  return durationOf(BigInt(ds) * NS_BIG + BigInt(dn));
}

/** timestamp(int): seconds since the epoch. */
export function timestampFromSeconds(v: number | bigint): Timestamp {
  if (typeof v === 'bigint') throw errTimestampOverflow;
  return timestampOf(v, 0);
}
