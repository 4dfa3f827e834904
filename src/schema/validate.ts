// Schema validation with Kubernetes' wording: kube-openapi's validator
// messages ("spec.replicas in body must be of type integer: \"string\"")
// carried in field errors as apiextensions-apiserver converts them (Required,
// Unsupported value, Too long, Too many, otherwise Invalid). Paths are dotted,
// with [i] for list items and .key for map values. Checks per value, in
// kube-openapi's order: type (stops here on a mismatch), string length and
// pattern, format, number bounds, item counts and items, enum, then object
// property counts, properties, map values and required fields.
// Not covered here: embedded-resource metadata, CEL rules, list-type uniqueness.
import { invalid, typeInvalid, notSupported, required as requiredErr, tooMany, type FieldError } from '../api/meta/field.js';
import { formatOk } from './formats.js';
import { matches } from '../cel/runtime/regex.js';
import { isObject, jsonTypeOf, type Schema } from './model.js';
import { PathStack } from './path.js';
import { propertyIndex } from './properties.js';

export interface ValidateOptions {
  /** The path of `value` itself (e.g. "spec" when validating a spec on its own); empty for an object root. */
  path?: string;
}

/** All field errors of `value` against `schema`; empty when valid. */
export function validate(schema: Schema, value: unknown, opts: ValidateOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  check(schema, value, new PathStack(opts.path), errs);
  return errs;
}

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function typeError(path: string, expected: string, actual: string): FieldError {
  // Kubernetes v1.27 reports the value's JSON type name as the invalid value.
  return typeInvalid(path, actual, `${path} in body must be of type ${expected}: "${actual}"`);
}

function check(s: Schema, v: unknown, at: PathStack, errs: FieldError[]): void {
  const t = jsonTypeOf(v);
  if (t === 'null') {
    if (!s.nullable && (s.type !== undefined || s['x-kubernetes-int-or-string'])) errs.push(typeError(String(at), s.type ?? 'integer,string', 'null'));
    return;
  }
  if (s.type !== undefined) {
    if (s.type !== t && !(s.type === 'number' && t === 'integer')) return void errs.push(typeError(String(at), s.type, t));
  } else if (s['x-kubernetes-int-or-string']) {
    if (t !== 'integer' && t !== 'string' && !(t === 'number' && s.format === 'quantity')) return void errs.push(typeError(String(at), 'integer,string', t));
  }
  switch (t) {
    case 'string':
      checkString(s, v as string, at, errs);
      break;
    case 'integer':
    case 'number':
      checkNumber(s, v as number, at, errs);
      break;
    case 'array':
      checkArray(s, v as unknown[], at, errs);
      break;
  }
  if (s.enum !== undefined && !s.enum.some((e) => jsonEqual(e, v))) {
    errs.push(notSupported(String(at), v, s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (t === 'object') checkObject(s, v as { [k: string]: unknown }, at, errs);
}

/** Length in Unicode code points, as Go counts runes. */
function runes(str: string): number {
  let n = str.length;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
      const d = str.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) (n--, i++);
    }
  }
  return n;
}

function matchesRe2(v: string, pattern: string): boolean {
  try {
    return matches(v, pattern);
  } catch {
    return false; // not RE2 (refused at CRD validation; built-in schemas have none)
  }
}

function checkString(s: Schema, v: string, at: PathStack, errs: FieldError[]): void {
  if (s.maxLength !== undefined && v.length > s.maxLength && runes(v) > s.maxLength) {
    errs.push({ type: 'TooLong', field: String(at), value: v, detail: `may not be longer than ${s.maxLength}` });
  }
  if (s.minLength !== undefined && (v.length < s.minLength || (v.length < 2 * s.minLength && runes(v) < s.minLength))) {
    errs.push(invalid(String(at), v, `${String(at)} in body should be at least ${s.minLength} chars long`));
  }
  // Patterns are Go's (RE2: `(?i)`, no lookarounds), matched by RE2 semantics; a CRD's were compiled at its write.
  if (s.pattern !== undefined && !matchesRe2(v, s.pattern)) errs.push(invalid(String(at), v, `${String(at)} in body should match '${s.pattern}'`));
  if (s.format !== undefined && !formatOk(s.format, v)) {
    errs.push(invalid(String(at), v, `${String(at)} in body must be of type ${s.format}: ${JSON.stringify(v)}`));
  }
}

/** Go's %v of a float64 (shortest digits; exponent form below 1e-4 and from 1e6: "1.5e+06"), or of an int64 when both are whole. */
export function goNumber(n: number, integer: boolean): string {
  if (integer && Number.isInteger(n)) return String(n);
  if (n === 0 || !Number.isFinite(n)) return n === 0 ? '0' : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const [mant, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

function checkNumber(s: Schema, v: number, at: PathStack, errs: FieldError[]): void {
  // The path is rendered only for an error (most numbers are in bounds).
  if (s.maximum !== undefined && (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum)) {
    const path = String(at);
    errs.push(invalid(path, v, `${path} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${goNumber(s.maximum, Number.isInteger(v))}`));
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum)) {
    const path = String(at);
    errs.push(invalid(path, v, `${path} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${goNumber(s.minimum, Number.isInteger(v))}`));
  }
}

function checkArray(s: Schema, v: unknown[], at: PathStack, errs: FieldError[]): void {
  if (s.minItems !== undefined && v.length < s.minItems) errs.push(invalid(String(at), v.length, `${at} in body should have at least ${s.minItems} items`));
  if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(tooMany(String(at), v.length, s.maxItems));
  const items = s.items;
  if (items === undefined) return;
  for (let i = 0; i < v.length; i++) {
    at.push(i);
    check(items, v[i], at, errs);
    at.pop();
  }
}

function checkObject(s: Schema, v: { [k: string]: unknown }, at: PathStack, errs: FieldError[]): void {
  if (s.minProperties !== undefined || s.maxProperties !== undefined) {
    const n = Object.keys(v).length;
    if (s.minProperties !== undefined && n < s.minProperties) return void errs.push(invalid(String(at), n, `${at} in body should have at least ${s.minProperties} properties`));
    if (s.maxProperties !== undefined && n > s.maxProperties) return void errs.push(tooMany(String(at), n, s.maxProperties));
  }
  const props = s.properties === undefined ? undefined : propertyIndex(s.properties);
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  for (const k in v) {
    const sub = props?.get(k) ?? extra;
    if (sub === undefined) continue;
    at.push(k);
    check(sub, v[k], at, errs);
    at.pop();
  }
  if (s.required === undefined) return;
  for (const k of s.required) {
    if (has(v, k)) continue;
    at.push(k);
    errs.push(requiredErr(String(at)));
    at.pop();
  }
}

/** Deep equality of decoded JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}
