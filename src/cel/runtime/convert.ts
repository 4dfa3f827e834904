// Type conversions: int(), uint(), double(), string(), bytes(), bool(),
// dyn(), type(), timestamp(), duration() with cel-go's range errors and
// texts; strings parse as Go's strconv and print doubles as Go's %g.

import { Double, Duration, Timestamp, TypeValue, Uint, intOf } from '../values.js';
import { INT64_MAX } from './arith.js';
import { utf8Decode, utf8Encode } from './bytes.js';
import { conversionError, errIntOverflow, errNoSuchOverload, errUintOverflow } from './errors.js';
import { formatFloatG } from './numfmt.js';
import { formatDuration, formatTimestamp, parseDuration, parseTimestamp, timestampFromSeconds } from './time.js';
import { typeOfValue } from './typeof.js';

type Int = number | bigint;

const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;

/** A double truncated to an int64 (`integer overflow` outside the range). */
export function doubleToInt(d: number): Int {
  if (!(d > -TWO_63 && d < TWO_63)) throw errIntOverflow; // also NaN, ±Inf
  const t = Math.trunc(d);
  return Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : BigInt(t);
}

/** A double truncated to a uint64 (`unsigned integer overflow` outside it). */
export function doubleToUint(d: number): Uint {
  if (!(d >= 0 && d < TWO_64)) throw errUintOverflow;
  const t = Math.trunc(d);
  return new Uint(Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : BigInt(t));
}

const DECIMAL = /^[+-]?[0-9]+$/;
const UNSIGNED = /^[0-9]+$/;

/** Go's strconv.ParseInt(s, 10, 64); undefined when it fails. */
export function parseInt64(s: string): Int | undefined {
  if (!DECIMAL.test(s)) return undefined;
  if (s.length < 16) return Number(s) + 0;
  const v = BigInt(s);
  if (v < -(2n ** 63n) || v > INT64_MAX) return undefined;
  return intOf(v);
}

/** Go's strconv.ParseUint(s, 10, 64); undefined when it fails. */
export function parseUint64(s: string): Int | undefined {
  if (!UNSIGNED.test(s)) return undefined;
  if (s.length < 16) return Number(s);
  const v = BigInt(s);
  if (v > 2n ** 64n - 1n) return undefined;
  return intOf(v);
}

const FLOAT = /^[+-]?(?:[0-9]+(?:_[0-9]+)*\.?(?:[0-9]+(?:_[0-9]+)*)?|\.[0-9]+(?:_[0-9]+)*)(?:[eE][+-]?[0-9]+)?$/;
const INF = /^[+-]?(?:inf|infinity)$/i;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/;

/** A hexadecimal float (`0x1.8p1`), which Go's ParseFloat also reads. */
function parseHexFloat(s: string): number | undefined {
  const m = HEX_FLOAT.exec(s);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const digits = m[2] + (m[3] ?? '');
  const v = Number(BigInt('0x' + digits)) * 2 ** (Number(m[4]) - 4 * (m[3] ?? '').length);
  if (!Number.isFinite(v)) return undefined;
  return m[1] === '-' ? -v : v;
}

/** Go's strconv.ParseFloat(s, 64) for decimal input, infinities and NaN;
 * undefined when it fails (including out-of-range magnitudes). */
export function parseFloat64(s: string): number | undefined {
  if (FLOAT.test(s) && !s.includes('_')) {
    const v = Number(s);
    return Number.isFinite(v) ? v : undefined;
  }
  if (INF.test(s)) return s[0] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return parseHexFloat(s);
}

export function toInt(v: unknown): Int {
  switch (typeof v) {
    case 'bigint':
      return v;
    case 'number':
      return Number.isInteger(v) ? v : doubleToInt(v);
    case 'string': {
      const r = parseInt64(v);
      if (r === undefined) throw conversionError('string', 'int');
      return r;
    }
    case 'object':
      if (v instanceof Uint) {
        if (typeof v.v === 'bigint' && v.v > INT64_MAX) throw errIntOverflow;
        return v.v;
      }
      if (v instanceof Double) return doubleToInt(v.v);
      if (v instanceof Timestamp) return v.seconds;
      if (v instanceof Duration) return intOf(v.nanos);
  }
  throw errNoSuchOverload;
}

export function toUint(v: unknown): Uint {
  switch (typeof v) {
    case 'bigint':
      if (v < 0n) throw errUintOverflow;
      return new Uint(v);
    case 'number':
      if (!Number.isInteger(v)) return doubleToUint(v);
      if (v < 0) throw errUintOverflow;
      return new Uint(Number.isSafeInteger(v) ? v : BigInt(v)); // JSON ints beyond 2^53
    case 'string': {
      const r = parseUint64(v);
      if (r === undefined) throw conversionError('string', 'uint');
      return new Uint(r);
    }
    case 'object':
      if (v instanceof Uint) return v;
      if (v instanceof Double) return doubleToUint(v.v);
  }
  throw errNoSuchOverload;
}

export function toDouble(v: unknown): Double {
  switch (typeof v) {
    case 'number':
      return new Double(v);
    case 'bigint':
      return new Double(Number(v));
    case 'string': {
      const r = parseFloat64(v);
      if (r === undefined) throw conversionError('string', 'double');
      return new Double(r);
    }
    case 'object':
      if (v instanceof Double) return v;
      if (v instanceof Uint) return new Double(Number(v.v));
  }
  throw errNoSuchOverload;
}

export function toString(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return Number.isInteger(v) ? String(v) : formatFloatG(v);
    case 'bigint':
      return String(v);
    case 'object':
      if (v instanceof Double) return formatFloatG(v.v);
      if (v instanceof Uint) return String(v.v);
      if (v instanceof Uint8Array) return utf8Decode(v);
      if (v instanceof Timestamp) return formatTimestamp(v);
      if (v instanceof Duration) return formatDuration(v);
  }
  throw errNoSuchOverload;
}

export function toBytes(v: unknown): Uint8Array {
  if (typeof v === 'string') return utf8Encode(v);
  if (v instanceof Uint8Array) return v;
  throw errNoSuchOverload;
}

const TRUE_STRINGS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_STRINGS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** bool(): Go's strconv.ParseBool spellings. */
export function toBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (TRUE_STRINGS.has(v)) return true;
    if (FALSE_STRINGS.has(v)) return false;
    throw conversionError('string', 'bool');
  }
  throw errNoSuchOverload;
}

export function toTimestamp(v: unknown): Timestamp {
  if (v instanceof Timestamp) return v;
  if (typeof v === 'string') return parseTimestamp(v);
  if (typeof v === 'number' && Number.isInteger(v)) return timestampFromSeconds(v);
  if (typeof v === 'bigint') return timestampFromSeconds(v);
  throw errNoSuchOverload;
}

export function toDuration(v: unknown): Duration {
  if (v instanceof Duration) return v;
  if (typeof v === 'string') return parseDuration(v);
  throw errNoSuchOverload;
}

export const toDyn = (v: unknown): unknown => v;
export const toType = (v: unknown): TypeValue => typeOfValue(v);
