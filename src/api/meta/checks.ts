// Value checks shared by the per-kind validation of every group, with
// Kubernetes' exact messages (apimachinery pkg/util/validation,
// pkg/api/validation, pkg/apis/meta/v1/validation): config keys, environment
// variable names, ports, IPs and CIDRs, label selectors, immutability, and a
// semantic equality that treats absent, null and empty collections alike.
import { type FieldError, type FieldPath, forbidden, invalid, required } from './field.js';
import { dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors, validateLabels } from './validation.js';

/** validation.RegexError: the message, examples and regex Kubernetes prints. */
export function regexError(msg: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${regex}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, regex used for validation is '${regex}')`;
}

export const IS_NEGATIVE = 'must be greater than or equal to 0';
export const FIELD_IMMUTABLE = 'field is immutable';
export const inclusiveRange = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

export const notFound = (path: FieldPath | string, value: unknown): FieldError => ({ type: 'NotFound', field: String(path), value, detail: '' });

function chDirPrefixErrors(v: string): string[] {
  if (v === '.') return ["must not be '.'"];
  if (v === '..') return ["must not be '..'"];
  if (v.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const CONFIG_KEY = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_RE = new RegExp(`^${CONFIG_KEY}$`);

/** IsConfigMapKey: keys of ConfigMap and Secret data. */
export function configMapKeyErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY_RE.test(v)) errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY, 'key.name', 'KEY_NAME', 'key-name'));
  return [...errs, ...chDirPrefixErrors(v)];
}

const ENV_VAR = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_RE = new RegExp(`^${ENV_VAR}$`);

/** IsEnvVarName. */
export function envVarNameErrors(v: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_RE.test(v)) errs.push(regexError("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit", ENV_VAR, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  return [...errs, ...chDirPrefixErrors(v)];
}

/** IsValidPortNum. */
export function portNumErrors(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

/** IsValidPortName (IANA_SVC_NAME). */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !s.includes(':')) return false;
  let rest = s;
  let groups = 0;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    rest = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = rest.split('::');
  if (dbl.length > 2) return false;
  const count = (x: string) => (x === '' ? [] : x.split(':'));
  const sides = dbl.map(count);
  for (const side of sides) {
    for (const g of side) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return false;
      groups++;
    }
  }
  return dbl.length === 2 ? groups < 8 : groups === 8;
}

export function isIP(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

export function ipFamily(s: string): 'IPv4' | 'IPv6' | undefined {
  return isIPv4(s) ? 'IPv4' : isIPv6(s) ? 'IPv6' : undefined;
}

/** IsValidIP. */
export function ipErrors(s: string): string[] {
  return isIP(s) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

/** A CIDR as Go's net.ParseCIDR accepts it; the family, or undefined. */
export function cidrFamily(s: string): 'IPv4' | 'IPv6' | undefined {
  const i = s.indexOf('/');
  if (i < 0) return undefined;
  const ip = s.slice(0, i);
  const bits = s.slice(i + 1);
  if (!/^[0-9]{1,3}$/.test(bits)) return undefined;
  const fam = ipFamily(ip);
  if (fam === 'IPv4' && Number(bits) <= 32) return fam;
  if (fam === 'IPv6' && Number(bits) <= 128) return fam;
  return undefined;
}

export function nonNegative(value: number, path: FieldPath): FieldError[] {
  return value < 0 ? [invalid(path, value, IS_NEGATIVE)] : [];
}

export const dns1123Label = (v: string, path: FieldPath): FieldError[] => dns1123LabelErrors(v).map((m) => invalid(path, v, m));
export const dns1123Subdomain = (v: string, path: FieldPath): FieldError[] => dns1123SubdomainErrors(v).map((m) => invalid(path, v, m));
export const qualifiedName = (v: string, path: FieldPath): FieldError[] => qualifiedNameErrors(v).map((m) => invalid(path, v, m));

/** IsFullyQualifiedName: a DNS subdomain with at least three segments. */
export function fullyQualifiedName(path: FieldPath, name: string): FieldError[] {
  if (name.length === 0) return [required(path)];
  const errs = dns1123SubdomainErrors(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

// ---- plain JSON access ----

export type Obj = { [k: string]: unknown };
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const strMap = (v: unknown): Record<string, string> => Object.fromEntries(Object.entries(obj(v)).filter(([, x]) => typeof x === 'string')) as Record<string, string>;

/** Absent, null, empty list and empty map are one value, as Kubernetes' semantic equality treats nil and empty. */
function isEmptyish(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
}

/** apiequality.Semantic.DeepEqual over JSON. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/** ValidateImmutableField. */
export function immutable(newVal: unknown, oldVal: unknown, path: FieldPath): FieldError[] {
  return semanticEqual(newVal, oldVal) ? [] : [invalid(path, newVal ?? null, FIELD_IMMUTABLE)];
}

// ---- label selectors ----

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** ValidateLabelSelector (metav1 validation). */
export function validateLabelSelector(sel: unknown, path: FieldPath): FieldError[] {
  if (!isObj(sel)) return [];
  const errs = validateLabels(obj(sel.matchLabels), path.child('matchLabels'));
  arr(sel.matchExpressions).forEach((e, i) => {
    const x = obj(e);
    const p = path.child('matchExpressions').index(i);
    const values = arr(x.values);
    switch (x.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalid(p.child('operator'), x.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...qualifiedName(str(x.key), p.child('key')));
    values.forEach((v, j) => {
      for (const m of labelValueErrors(str(v))) errs.push(invalid(p.child('values').index(j), v, m));
    });
  });
  return errs;
}

/** A selector with neither matchLabels nor matchExpressions (labels.Selector.Empty()). */
export function selectorIsEmpty(sel: unknown): boolean {
  const s = obj(sel);
  return Object.keys(obj(s.matchLabels)).length === 0 && arr(s.matchExpressions).length === 0;
}

/** Whether a label selector matches a label set. */
export function selectorMatches(sel: unknown, labels: Record<string, string>): boolean {
  const s = obj(sel);
  for (const [k, v] of Object.entries(obj(s.matchLabels))) if (labels[k] !== v) return false;
  for (const e of arr(s.matchExpressions)) {
    const x = obj(e);
    const key = str(x.key);
    const values = arr(x.values).map(str);
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (x.operator) {
      case 'In':
        if (!has || !values.includes(labels[key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
