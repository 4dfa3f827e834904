// Typed decoding of built-in kinds as Kubernetes does it: the body is read
// into Go structs, so a value of the wrong JSON type fails the whole request
// (400) with Go's encoding/json wording, e.g.
//   json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string
// The struct named is the innermost one holding the field; the field path is
// the JSON names from the root without list indexes; the first error in
// document order wins. Quantities and times fail with their parsers' texts.
import { isObject, type Schema } from './model.js';

const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const TIME_IDS = new Set(['io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime']);

/** The Go type a schema decodes into, as reflect prints it (`v1.PodSpec`, `[]v1.Container`, `map[string]string`). */
export function goTypeName(s: Schema): string {
  if (s.id) {
    const parts = s.id.split('.');
    return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  if (s['x-kubernetes-int-or-string']) return 'intstr.IntOrString';
  switch (s.type) {
    case 'string': return s.format === 'byte' ? '[]uint8' : 'string';
    case 'integer': return s.format === 'int32' ? 'int32' : 'int64';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    case 'array': return `[]${s.items ? goTypeName(s.items) : 'interface {}'}`;
    case 'object':
      if (isObject(s.additionalProperties)) return `map[string]${goTypeName(s.additionalProperties as Schema)}`;
      return 'map[string]interface {}';
    default: return 'interface {}';
  }
}

/** The word Go uses for a JSON value's type in "cannot unmarshal X into …". */
export function goJsonKind(v: unknown): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

const structName = (s: Schema): string | undefined => (s.id ? s.id.slice(s.id.lastIndexOf('.') + 1) : undefined);

interface Ctx {
  struct: string;
  path: string[];
}

function typeError(v: unknown, s: Schema, c: Ctx, detail: string = goJsonKind(v)): string {
  const where = c.path.length === 0 ? 'Go value' : `Go struct field ${c.struct}.${c.path.join('.')}`;
  return `json: cannot unmarshal ${detail} into ${where} of type ${goTypeName(s)}`;
}

function inRange(n: number, format: string | undefined): boolean {
  return format === 'int32' ? n >= -2147483648 && n <= 2147483647 : Number.isSafeInteger(n) || Math.abs(n) < 9.3e18;
}

function check(s: Schema, v: unknown, c: Ctx): string | undefined {
  if (v === null || v === undefined) return undefined; // null leaves the zero value
  if (s['x-kubernetes-preserve-unknown-fields'] && s.type === undefined) return undefined;
  if (s.format === 'quantity') {
    if (typeof v === 'number') return undefined;
    if (typeof v !== 'string') return typeError(v, s, c);
    return QUANTITY.test(v.trim()) ? undefined : QUANTITY_ERROR;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (typeof v === 'string') return undefined;
    if (typeof v === 'number') return Number.isInteger(v) && inRange(v, 'int32') ? undefined : `json: cannot unmarshal number ${v} into Go value of type int32`;
    return `json: cannot unmarshal ${goJsonKind(v)} into Go value of type int32`;
  }
  if (s.id && TIME_IDS.has(s.id)) {
    if (typeof v !== 'string') return typeError(v, s, c);
    return RFC3339.test(v) ? undefined : `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`;
  }
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') return typeError(v, s, c);
      return s.format === 'byte' ? base64Error(v) : undefined;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : typeError(v, s, c);
    case 'integer':
      if (typeof v !== 'number') return typeError(v, s, c);
      return Number.isInteger(v) && inRange(v, s.format) ? undefined : typeError(v, s, c, `number ${v}`);
    case 'number':
      return typeof v === 'number' ? undefined : typeError(v, s, c);
    case 'array': {
      if (!Array.isArray(v)) return typeError(v, s, c);
      if (!s.items) return undefined;
      for (const item of v) {
        const e = check(s.items, item, c);
        if (e) return e;
      }
      return undefined;
    }
    case 'object': {
      if (!isObject(v)) return typeError(v, s, c);
      const props = s.properties;
      const extra = isObject(s.additionalProperties) ? (s.additionalProperties as Schema) : undefined;
      const inner: Ctx = { struct: structName(s) ?? c.struct, path: c.path };
      for (const k of Object.keys(v)) {
        const prop = props?.[k];
        let e: string | undefined;
        if (prop) {
          inner.path.push(k);
          e = check(prop, v[k], inner);
          inner.path.pop();
        } else if (extra) {
          e = check(extra, v[k], inner); // Go names a map by its field, not by the key
        } // unknown fields are field validation's concern
        if (e) return e;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

const B64 = /[A-Za-z0-9+/]/;

/** Go's base64.StdEncoding: the first byte it cannot take, as "illegal base64 data at input byte N". */
function base64Error(text: string): string | undefined {
  let n = 0; // data characters seen (newlines are skipped)
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n' || ch === '\r') continue;
    if (ch === '=') {
      const pad = 4 - (n % 4);
      if (n % 4 < 2 || pad > 2) return `illegal base64 data at input byte ${i}`;
      const rest = text.slice(i).replace(/[\r\n]/g, '');
      if (rest !== '='.repeat(pad)) return `illegal base64 data at input byte ${i + Math.min(rest.length, pad)}`;
      return undefined;
    }
    if (!B64.test(ch)) return `illegal base64 data at input byte ${i}`;
    n++;
  }
  return n % 4 === 0 ? undefined : `illegal base64 data at input byte ${text.length - (n % 4 === 1 ? 1 : 0)}`;
}

/**
 * The error Go's decoder gives for the first value of the wrong type, or
 * undefined when the body decodes. `kind` names the top-level struct.
 */
export function goDecodeError(s: Schema, value: unknown, kind: string): string | undefined {
  return check(s, value, { struct: structName(s) ?? kind, path: [] });
}
