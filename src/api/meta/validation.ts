// Name and metadata validation with Kubernetes' exact messages
// (apimachinery pkg/util/validation and pkg/api/validation/objectmeta.go).
import { type FieldError, type FieldPath, fieldPath, forbidden, invalid, required, tooLong } from './field.js';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const re = (s: string) => new RegExp(`^(?:${s})$`);
const DNS1123_LABEL_RE = re(DNS1123_LABEL);
const DNS1123_SUBDOMAIN_RE = re(DNS1123_SUBDOMAIN);
const DNS1035_LABEL_RE = re(DNS1035_LABEL);
const QUALIFIED_NAME_RE = re(QUALIFIED_NAME);
const LABEL_VALUE_RE = re(LABEL_VALUE);

// Fast paths: predicates for "the message function returns no messages",
// so the common valid value costs no message work and no allocation; a value
// they refuse takes the message path, which says why.

/** dns1123LabelErrors(v) is empty. */
export const isDns1123Label = (v: string): boolean => typeof v === 'string' && v.length <= 63 && DNS1123_LABEL_RE.test(v);
/** dns1123SubdomainErrors(v) is empty. */
export const isDns1123Subdomain = (v: string): boolean => typeof v === 'string' && v.length <= 253 && DNS1123_SUBDOMAIN_RE.test(v);
/** labelValueErrors(v) is empty. */
export const isLabelValue = (v: string): boolean => typeof v === 'string' && v.length <= 63 && LABEL_VALUE_RE.test(v);

/** qualifiedNameErrors(v) is empty. */
export function isQualifiedName(v: string): boolean {
  if (typeof v !== 'string') return false; // (callers that skip type checks get the message path's answer)
  if (qualifiedNames.has(v)) return true;
  const slash = v.indexOf('/');
  const name = slash < 0 ? v : v.slice(slash + 1);
  if (slash >= 0 && (name.includes('/') || !isDns1123Subdomain(v.slice(0, slash)))) return false;
  if (name.length > 63 || !QUALIFIED_NAME_RE.test(name)) return false;
  if (qualifiedNames.size >= QUALIFIED_NAMES_MAX) qualifiedNames.clear();
  qualifiedNames.add(v);
  return true;
}

/** Valid qualified names seen: label and annotation keys and resource names recur in every object. */
const qualifiedNames = new Set<string>();
const QUALIFIED_NAMES_MAX = 4096;

/** checks.ts portNameErrors(name) is empty: at most 15 of [-a-z0-9], a letter, no "--", no '-' at either end. */
export function isPortName(name: string): boolean {
  const n = name.length;
  if (n === 0 || n > 15 || name.charCodeAt(0) === 45 || name.charCodeAt(n - 1) === 45) return false;
  let letter = false;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c >= 97 && c <= 122) letter = true;
    else if (c === 45) {
      if (name.charCodeAt(i + 1) === 45) return false;
    } else if (c < 48 || c > 57) return false;
  }
  return letter;
}

/** checks.ts envVarNameErrors(name) is empty: [-._a-zA-Z][-._a-zA-Z0-9]*, not "." and not starting with "..". */
export function isEnvVarName(name: string): boolean {
  const n = name.length;
  if (n === 0 || name === '.' || name.startsWith('..')) return false;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 45 || c === 46) continue;
    if (i > 0 && c >= 48 && c <= 57) continue;
    return false;
  }
  return true;
}

const maxLen = (n: number) => `must be no more than ${n} characters`;
const fmt = (msg: string, examples: string[], regex: string) => `${msg} (e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, regex used for validation is '${regex}')`;

export function dns1123LabelErrors(v: string): string[] {
  if (isDns1123Label(v)) return [];
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!DNS1123_LABEL_RE.test(v)) errs.push(fmt("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", ['my-name', '123-abc'], DNS1123_LABEL));
  return errs;
}

export function dns1123SubdomainErrors(v: string): string[] {
  if (isDns1123Subdomain(v)) return [];
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!DNS1123_SUBDOMAIN_RE.test(v)) errs.push(fmt("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", ['example.com'], DNS1123_SUBDOMAIN));
  return errs;
}

export function dns1035LabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!DNS1035_LABEL_RE.test(v)) errs.push(fmt("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", ['my-name', 'abc-123'], DNS1035_LABEL));
  return errs;
}

/** path.IsValidPathSegmentName (and its prefix form for generateName). */
export function pathSegmentNameErrors(v: string, prefix: boolean): string[] {
  const errs: string[] = [];
  if (!prefix && (v === '.' || v === '..')) errs.push(`may not be '${v}'`);
  for (const bad of ['/', '%']) if (v.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

export function qualifiedNameErrors(v: string): string[] {
  if (isQualifiedName(v)) return [];
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const [prefix, n] = parts as [string, string];
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of dns1123SubdomainErrors(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [fmt("a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", ['MyName', 'my.name', '123-abc'], QUALIFIED_NAME) + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(fmt("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", ['MyName', 'my.name', '123-abc'], QUALIFIED_NAME));
  return errs;
}

export function labelValueErrors(v: string): string[] {
  if (isLabelValue(v)) return [];
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!LABEL_VALUE_RE.test(v)) errs.push(fmt("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", ['MyValue', 'my_value', '12345'], LABEL_VALUE));
  return errs;
}

export function validateLabels(labels: Record<string, unknown> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (labels === undefined || labels === null) return errs;
  const keys = Object.keys(labels);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = labels[k];
    if (!isQualifiedName(k)) for (const m of qualifiedNameErrors(k)) errs.push(invalid(path, k, m));
    if (typeof v !== 'string') errs.push(invalid(path.key(k), v, 'must be a string'));
    else if (!isLabelValue(v)) for (const m of labelValueErrors(v)) errs.push(invalid(path, v, m));
  }
  return errs;
}

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export function validateAnnotations(annotations: Record<string, unknown> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  const keys = annotations === undefined || annotations === null ? [] : Object.keys(annotations);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = annotations![k];
    const lower = k.toLowerCase();
    if (!isQualifiedName(lower)) for (const m of qualifiedNameErrors(lower)) errs.push(invalid(path, k, m));
    if (typeof v !== 'string') errs.push(invalid(path.key(k), v, 'must be a string'));
    size += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** kube's standard finalizer names (and the CRD cleanup finalizer in our spelling beside kube's). */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion', 'customresourcecleanup.apiextensions.k8s.io', 'customresourcecleanup.apiextensions.svc.io']);

export function validateFinalizers(finalizers: unknown, path: FieldPath): FieldError[] {
  if (finalizers === undefined || finalizers === null) return [];
  if (!Array.isArray(finalizers)) return [invalid(path, finalizers, 'must be a list of strings')];
  const errs: FieldError[] = [];
  finalizers.forEach((f, i) => {
    if (typeof f !== 'string') {
      errs.push(invalid(path.index(i), f, 'must be a string'));
      return;
    }
    for (const m of qualifiedNameErrors(f)) errs.push(invalid(path, f, m));
    if (!STANDARD_FINALIZERS.has(f) && !f.includes('/')) errs.push(invalid(path.index(i), f, 'name is neither a standard finalizer name nor is it fully qualified'));
  });
  return errs;
}

export function validateOwnerReferences(refs: unknown, path: FieldPath): FieldError[] {
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) return [invalid(path, refs, 'must be a list')];
  const errs: FieldError[] = [];
  let controllers = 0;
  refs.forEach((r: Record<string, unknown>) => {
    const str = (k: string) => (typeof r?.[k] === 'string' ? (r[k] as string) : '');
    if (!str('apiVersion')) errs.push(invalid(path.child('apiVersion'), str('apiVersion'), 'version must not be empty'));
    if (!str('kind')) errs.push(invalid(path.child('kind'), str('kind'), 'kind must not be empty'));
    if (!str('name')) errs.push(invalid(path.child('name'), str('name'), 'name must not be empty'));
    if (!str('uid')) errs.push(invalid(path.child('uid'), str('uid'), 'uid must not be empty'));
    if (r?.controller === true) controllers++;
  });
  if (controllers > 1) errs.push(invalid(path, refs, 'Only one reference can have Controller set to true'));
  return errs;
}

export interface ObjectMetaRules {
  readonly namespaced: boolean;
  /** Messages for an invalid name (or generateName prefix). */
  readonly validateName: (name: string, prefix: boolean) => string[];
}

export interface MetaLike {
  name?: string;
  generateName?: string;
  namespace?: string;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  finalizers?: unknown;
  ownerReferences?: unknown;
}

/** ValidateObjectMeta: name or generateName, namespace by scope, labels, annotations, finalizers, ownerReferences. */
export function validateObjectMeta(meta: MetaLike, rules: ObjectMetaRules): FieldError[] {
  const m = fieldPath('metadata');
  const errs: FieldError[] = [];
  if (meta.generateName) for (const msg of rules.validateName(meta.generateName, true)) errs.push(invalid(m.child('generateName'), meta.generateName, msg));
  if (!meta.name) errs.push(required(m.child('name'), 'name or generateName is required'));
  else for (const msg of rules.validateName(meta.name, false)) errs.push(invalid(m.child('name'), meta.name, msg));
  if (rules.namespaced) {
    if (!meta.namespace) errs.push(required(m.child('namespace')));
    else for (const msg of dns1123LabelErrors(meta.namespace)) errs.push(invalid(m.child('namespace'), meta.namespace, msg));
  } else if (meta.namespace) errs.push(forbidden(m.child('namespace'), 'not allowed on this type'));
  errs.push(...validateLabels(meta.labels, m.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, m.child('annotations')));
  errs.push(...validateFinalizers(meta.finalizers, m.child('finalizers')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, m.child('ownerReferences')));
  return errs;
}
