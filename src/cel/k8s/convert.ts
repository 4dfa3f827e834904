// JSON data → CEL runtime values, for the schema types whose JSON value is
// not always the runtime value (values.ts): number → Double, integer → bigint
// past 2^53 (and an error for a fraction), string formats
// byte/date/date-time/duration → Uint8Array/Timestamp/Duration, and lists and
// maps holding them. Objects need no conversion: their fields convert on
// access (FieldType.convert). Errors are kube's UnstructuredToVal texts,
// thrown as CelError when the field is read.

import type { Type } from '../types.js';
import { CelError, Double, Duration } from '../values.js';
import { parseBase64, parseDate, parseDateTime, parseStrfmtDuration } from './formats.js';
import type { Schema } from './schema.js';
import { schemaTypeAndConverter } from './schema.js';

export type Converter = (raw: unknown) => unknown;

/** Go's %T of a value decoded from JSON into interface{}. */
export function goJsonType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'bigint') return 'int64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

const toDouble: Converter = (raw) => {
  if (raw === null || raw instanceof Double) return raw;
  if (typeof raw === 'number') return new Double(raw);
  if (typeof raw === 'bigint') return new Double(Number(raw));
  throw new CelError(`invalid data, expected float, got ${goJsonType(raw)}`);
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Integers: JSON numbers past 2^53 become bigints (values.ts keeps safe ints as numbers). */
const toInt: Converter = (raw) => {
  if (typeof raw !== 'number' || Number.isSafeInteger(raw)) return raw;
  if (Number.isInteger(raw)) {
    const b = BigInt(raw);
    if (b >= INT64_MIN && b <= INT64_MAX) return b;
  }
  throw new CelError(`invalid data, expected int, got float64`);
};

/** x-kubernetes-int-or-string: a string or an integer (bigint past 2^53). */
export const toIntOrString: Converter = (raw) => {
  if (typeof raw === 'string' || raw === null || (typeof raw === 'number' && Number.isSafeInteger(raw)) || typeof raw === 'bigint') return raw;
  if (typeof raw === 'number' && Number.isInteger(raw)) {
    const b = BigInt(raw);
    if (b >= INT64_MIN && b <= INT64_MAX) return b;
  }
  throw new CelError('invalid data, expected XIntOrString value to be either a string or integer');
};

function stringConverter(parse: (s: string) => unknown, fail: (s: string, err: string) => string): Converter {
  return (raw) => {
    if (raw === null) return raw;
    if (typeof raw !== 'string') {
      // Already converted (a value built by CEL, e.g. in a list concatenation).
      if (typeof raw === 'object') return raw;
      throw new CelError(`invalid data, expected string, got ${goJsonType(raw)}`);
    }
    const v = parse(raw);
    if (typeof v === 'string') throw new CelError(fail(raw, v));
    return v;
  };
}

const toBytes = stringConverter(parseBase64, (s, e) => `Invalid byte formatted string ${s}: ${e}`);
const toDuration = stringConverter(
  (s) => {
    const n = parseStrfmtDuration(s);
    return typeof n === 'bigint' ? new Duration(n) : n;
  },
  (s, e) => `Invalid duration ${s}: ${e}`,
);
const toDate = stringConverter(parseDate, (s, e) => `Invalid date formatted string ${s}: ${e}`);
const toDateTime = stringConverter(parseDateTime, (s, e) => `Invalid date-time formatted string ${s}: ${e}`);
/** A timestamp whose format is unknown (from a type, not a schema): date-time, else date. */
const toTimestamp = stringConverter(
  (s) => {
    const t = parseDateTime(s);
    return typeof t === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) ? parseDate(s) : t;
  },
  (s, e) => `Invalid date-time formatted string ${s}: ${e}`,
);

function listConverter(elem: Converter): Converter {
  const memo = new WeakMap<object, readonly unknown[]>();
  return (raw) => {
    if (!Array.isArray(raw)) return raw;
    let out = memo.get(raw);
    if (out === undefined) {
      // Copied only from the first element that changes (ints rarely do).
      let copy: unknown[] | undefined;
      for (let i = 0; i < raw.length; i++) {
        const e: unknown = raw[i];
        const c = elem(e);
        if (copy === undefined && c !== e) copy = raw.slice(0, i);
        if (copy !== undefined) copy.push(c);
      }
      out = copy ?? raw;
      memo.set(raw, out);
    }
    return out;
  };
}

function mapConverter(value: Converter): Converter {
  const memo = new WeakMap<object, object>();
  return (raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
    let out = memo.get(raw);
    if (out === undefined) {
      // Rebuilt (Object.fromEntries: a `__proto__` key stays a key) only when a value changes.
      const entries = Object.entries(raw);
      let changed = false;
      for (const e of entries) {
        const c = value(e[1]);
        if (c !== e[1]) {
          e[1] = c;
          changed = true;
        }
      }
      out = changed ? Object.fromEntries(entries) : raw;
      memo.set(raw, out);
    }
    return out;
  };
}

/**
 * The converter for values of a type, or undefined when JSON values of the
 * type are already runtime values. `format` is the schema's string format
 * (which timestamp layout); `inner` is the element/value converter when the
 * caller has already built it.
 */
export function converterOf(type: Type, format?: string, inner?: Converter): Converter | undefined {
  switch (type.kind) {
    case 'int':
      return toInt;
    case 'double':
      return toDouble;
    case 'bytes':
      return toBytes;
    case 'duration':
      return toDuration;
    case 'timestamp':
      return format === 'date' ? toDate : format === 'date-time' ? toDateTime : toTimestamp;
    case 'list': {
      const e = inner ?? converterOf(type.elem);
      return e ? listConverter(e) : undefined;
    }
    case 'map': {
      const v = inner ?? converterOf(type.value);
      return v ? mapConverter(v) : undefined;
    }
  }
  return undefined;
}

/** The runtime value of a root JSON value (e.g. `self` of a rule on a
 * `format: date-time` string), typed by a schema or by a CEL type. */
export function valueOf(of: Schema | Type, json: unknown): unknown {
  let convert: Converter | undefined;
  if (isType(of)) convert = converterOf(of);
  else convert = schemaTypeAndConverter(of, { name: 'object' })?.convert;
  return convert ? convert(json) : json;
}

const TYPE_KINDS = new Set(['dyn', 'any', 'error', 'null', 'bool', 'int', 'uint', 'double', 'string', 'bytes', 'timestamp', 'duration', 'list', 'map', 'type', 'opaque', 'typeParam', 'object']);
const isType = (v: Schema | Type): v is Type => 'kind' in v && typeof v.kind === 'string' && TYPE_KINDS.has(v.kind);
