// Field errors (apimachinery pkg/util/validation/field): a path, a type and a
// detail, rendered exactly as Kubernetes renders them in Invalid responses.

export type FieldErrorType = 'Invalid' | 'TypeInvalid' | 'Required' | 'Forbidden' | 'NotSupported' | 'Duplicate' | 'TooLong' | 'TooMany' | 'NotFound' | 'Internal';

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly value?: unknown;
  readonly detail: string;
}

/** A field path; `child`, `index` and `key` build `spec.containers[0].env[FOO]`. */
export class FieldPath {
  constructor(private readonly text: string) {}
  child(name: string): FieldPath {
    return new FieldPath(this.text ? `${this.text}.${name}` : name);
  }
  index(i: number): FieldPath {
    return new FieldPath(`${this.text}[${i}]`);
  }
  key(k: string): FieldPath {
    return new FieldPath(`${this.text}[${k}]`);
  }
  toString(): string {
    return this.text;
  }
}

export function fieldPath(path: string): FieldPath {
  return new FieldPath(path);
}

const p = (path: FieldPath | string) => String(path);

export const invalid = (path: FieldPath | string, value: unknown, detail: string): FieldError => ({ type: 'Invalid', field: p(path), value, detail });
export const required = (path: FieldPath | string, detail = ''): FieldError => ({ type: 'Required', field: p(path), detail });
export const forbidden = (path: FieldPath | string, detail: string): FieldError => ({ type: 'Forbidden', field: p(path), detail });
export const duplicate = (path: FieldPath | string, value: unknown): FieldError => ({ type: 'Duplicate', field: p(path), value, detail: '' });
export const notSupported = (path: FieldPath | string, value: unknown, supported: readonly string[]): FieldError => ({
  type: 'NotSupported',
  field: p(path),
  value,
  detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
});
/** kube's field.TypeInvalid: a value of the wrong JSON type (schema validation of custom resources). */
export const typeInvalid = (path: FieldPath | string, value: unknown, detail: string): FieldError => ({ type: 'TypeInvalid', field: p(path), value, detail });
export const tooLong = (path: FieldPath | string, max: number): FieldError => ({ type: 'TooLong', field: p(path), detail: `must have at most ${max} bytes` });
export const tooMany = (path: FieldPath | string, actual: number, max: number): FieldError => ({ type: 'TooMany', field: p(path), value: actual, detail: `must have at most ${max} items` });

const REASONS: Record<FieldErrorType, string> = {
  Invalid: 'FieldValueInvalid',
  TypeInvalid: 'FieldValueTypeInvalid',
  Required: 'FieldValueRequired',
  Forbidden: 'FieldValueForbidden',
  NotSupported: 'FieldValueNotSupported',
  Duplicate: 'FieldValueDuplicate',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  NotFound: 'FieldValueNotFound',
  Internal: 'InternalError',
};

export function reasonOf(e: FieldError): string {
  return REASONS[e.type];
}

/** Go's %#v-like rendering of a value in "Invalid value: ..." messages. */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  // A GoValue (govalue.ts) carries Go's own rendering.
  if (typeof v === 'object' && v !== null && typeof (v as { goText?: unknown }).goText === 'string') return (v as { goText: string }).goText;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return `[]string{${v.map((x) => JSON.stringify(x)).join(', ')}}`;
  return JSON.stringify(v);
}

/** The message without the field: "Invalid value: \"x\": detail". */
export function errorBody(e: FieldError): string {
  const d = e.detail ? `: ${e.detail}` : '';
  switch (e.type) {
    case 'Invalid':
    case 'TypeInvalid':
      return `Invalid value: ${formatValue(e.value)}${d}`;
    case 'Required':
      return `Required value${d}`;
    case 'Forbidden':
      return `Forbidden${d}`;
    case 'NotSupported':
      return `Unsupported value: ${formatValue(e.value)}${d}`;
    case 'Duplicate':
      return `Duplicate value: ${formatValue(e.value)}`;
    case 'TooLong':
      return `Too long${d}`;
    case 'TooMany':
      return `Too many: ${formatValue(e.value)}${d}`;
    case 'NotFound':
      return `Not found: ${formatValue(e.value)}`;
    case 'Internal':
      return `Internal error${d}`;
  }
}
