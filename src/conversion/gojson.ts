// Go's encoding/json, as far as conversions need it: the text Go writes
// (compact, HTML-safe escapes, \u0008 and \u000c as Go 1.20 writes them) for
// the JSON kept in round-trip annotations, and Go's decoding rules for reading
// it back (field names matched case-insensitively, null leaves a field unset,
// a value of the wrong type fails the whole decode). Also the two value types
// whose text Go normalizes: metav1.Time and resource.Quantity.
import { formatQuantity, quantityOf } from '../api/meta/quantity.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const GO_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029',
  '\\b': '\\u0008', '\\f': '\\u000c', '\\\\': '\\\\',
};

/** json.Marshal's text for a value whose objects are already in Go field order. */
export function goJSON(v: unknown): string {
  // An escaped backslash is matched as a pair, so the character after it is never read as an escape.
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]|\\[\\bf]/g, (m) => GO_ESCAPES[m] ?? m);
}

/** Thrown while decoding annotation JSON that Go's json.Unmarshal would reject. */
export class GoDecodeError extends Error {
  override readonly name = 'GoDecodeError';
}

const fail = (what: string): never => {
  throw new GoDecodeError(what);
};

/**
 * The value of a struct field as json.Unmarshal fills it: names match
 * ignoring case, and each matching key sets the field, so the last one wins.
 */
export function field(o: Obj, name: string): unknown {
  const lower = name.toLowerCase();
  let found: unknown;
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) found = o[k];
  return found;
}

/** A string field: '' when absent or null. */
export function decodeString(o: Obj, name: string): string {
  const v = field(o, name);
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : fail(`${name}: not a string`);
}

/** An *int32 field: undefined when absent or null. */
export function decodeInt32(o: Obj, name: string): number | undefined {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -2147483648 || v > 2147483647) fail(`${name}: not an int32`);
  return v as number;
}

/** A *struct field: undefined when absent or null. */
export function decodeObject(o: Obj, name: string): Obj | undefined {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  return isObj(v) ? v : fail(`${name}: not an object`);
}

/** A slice field: undefined when absent or null. */
export function decodeArray(o: Obj, name: string): unknown[] | undefined {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v : fail(`${name}: not an array`);
}

/** A resource.Quantity field: its canonical text, undefined when absent or null (Go's zero Quantity). */
export function decodeQuantity(o: Obj, name: string): string | undefined {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  const q = quantityOf(v);
  return q ? formatQuantity(q) : fail(`${name}: not a quantity`);
}

/** Quantity.MarshalJSON: the canonical text; a missing quantity is Go's zero, "0". */
export function quantityText(v: unknown): string {
  if (v === undefined || v === null) return '0';
  const q = quantityOf(v);
  return q ? formatQuantity(q) : String(v);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** metav1.Time.MarshalJSON: UTC, whole seconds; null for the zero time. Unparsable text is kept. */
export function timeText(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || !RFC3339.test(v)) return v as string;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** A metav1.Time field: its normalized text, undefined for null or absent; anything but RFC 3339 fails. */
export function decodeTime(o: Obj, name: string): string | undefined {
  const v = field(o, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !RFC3339.test(v) || Number.isNaN(Date.parse(v))) fail(`${name}: not an RFC 3339 time`);
  return timeText(v) as string;
}

/** JSON.parse, undefined for text that is not JSON. */
export function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
