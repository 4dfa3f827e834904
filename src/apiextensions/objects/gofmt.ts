// Go's rendering of decoded JSON (unstructured values: map[string]interface{},
// []interface{}, string, int64, float64, bool, nil) in field errors, as
// apimachinery's field.Error prints a bad value:
//
//   nil                    → "null"        (the string "null", quoted)
//   string                 → %q            "a"
//   int64 / float64 / bool → %v            80 · 1.5 · 1e+06 · true
//   map / slice            → %#v           map[string]interface {}{"name":"http", "port":80}
//
// Inside %#v, nil is `interface {}(nil)`, map keys are sorted and joined by
// ", ", and numbers print as above. A JSON number that is a whole number is
// Go's int64 (the unstructured decoder's choice), anything else float64.
import { GoValue } from '../../api/meta/govalue.js';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\u0007': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u000b': '\\v', '"': '\\"', '\\': '\\\\',
};

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** unicode.IsPrint: letters, marks, numbers, punctuation and symbols (and the ASCII space). */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** strconv.Quote: printable runes kept, the rest escaped as Go escapes them. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const simple = SIMPLE_ESCAPES[ch];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (ch === ' ' || PRINTABLE.test(ch)) out += ch;
    else out += cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`;
  }
  return `${out}"`;
}

/** strconv.FormatFloat(f, 'g', -1, 64): the shortest digits; exponent form below 1e-4 and from 1e+06 up. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // Shortest round-trip digits and the decimal exponent, from JS's own shortest form.
  const [mant, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  // %g with the shortest precision: the exponent form when exp < -4 || exp >= 6.
  let body: string;
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    body = `${m}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  } else if (exp < 0) {
    body = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else if (digits.length <= exp + 1) {
    body = digits + '0'.repeat(exp + 1 - digits.length);
  } else {
    body = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  return neg ? `-${body}` : body;
}

/** A JSON number as Go's %v prints the decoded int64 or float64. */
export function goNumberText(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : goFloat(n);
}

/** %#v of an unstructured value. */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  switch (typeof v) {
    case 'string': return goQuote(v);
    case 'number': return goNumberText(v);
    case 'boolean': return String(v);
    default: break;
  }
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const o = v as Record<string, unknown>;
  const body = Object.keys(o).sort().map((k) => `${goQuote(k)}:${goSharpV(o[k])}`).join(', ');
  return `map[string]interface {}{${body}}`;
}

/** The text field.Error gives a bad value (see the table above). */
export function goErrorValueText(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  switch (typeof v) {
    case 'string': return goQuote(v);
    case 'number': return goNumberText(v);
    case 'boolean': return String(v);
    default: return goSharpV(v);
  }
}

/** A bad value for a FieldError, printed as Kubernetes prints the unstructured value. */
export function goValue(v: unknown): GoValue {
  return new GoValue(v ?? null, goErrorValueText(v));
}

/** %v of an unstructured value: `map[a:1 b:x]`, `[a b]`, `<nil>`, strings bare. */
export function goPlainV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'string': return v;
    case 'number': return goNumberText(v);
    case 'boolean': return String(v);
    default: break;
  }
  if (Array.isArray(v)) return `[${v.map(goPlainV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${Object.keys(o).sort().map((k) => `${k}:${goPlainV(o[k])}`).join(' ')}]`;
}

/** %T of an unstructured value. */
export function goTypeOf(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return Number.isInteger(v) ? 'int64' : 'float64';
    case 'boolean': return 'bool';
    default: return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
  }
}
