// Per-version pieces: deprecationWarning, subresources (status, scale paths)
// and additionalPrinterColumns. kube v1.27 checks the scale paths' form only
// (simple JSON paths under .spec / .status); whether they point into the
// schema is left to the scale handler at request time.
import { type FieldError, type FieldPath, invalid, required } from '../../api/meta/field.js';
import type { CustomResourceColumnDefinition, CustomResourceSubresources } from '../types.js';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** validateDeprecationWarning: the messages (kube counts lengths and indexes in UTF-8 bytes). */
export function deprecationWarningErrors(deprecated: boolean | undefined, warning: string | undefined | null): string[] {
  if (!deprecated && warning !== undefined && warning !== null) return ['can only be set for deprecated versions'];
  if (warning === undefined || warning === null) return [];
  const errs: string[] = [];
  if (Buffer.byteLength(warning, 'utf8') > 256) errs.push('must be <= 256 characters long');
  if (warning.length === 0) errs.push('must not be an empty string');
  let offset = 0;
  for (const ch of warning) {
    // a lone surrogate is what Go's JSON decoder turned into U+FFFD (printable)
    const printable = ch.length === 1 && ch >= '\ud800' && ch <= '\udfff' ? true : PRINTABLE.test(ch);
    if (!printable) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`);
      break;
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

/** validateSimpleJSONPath. */
export function simpleJSONPathErrors(s: string, path: FieldPath): FieldError[] {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceDefinitionSubresources. */
export function validateSubresources(sub: CustomResourceSubresources | undefined | null, path: FieldPath): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const check = (field: string, value: string | undefined, prefixes: string[], detail: string, isRequired: boolean) => {
    const p = path.child(`scale.${field}`);
    if (!value) {
      if (isRequired) errs.push(required(p, ''));
      return;
    }
    const pathErrs = simpleJSONPathErrors(value, p);
    if (pathErrs.length) errs.push(...pathErrs);
    else if (!prefixes.some((x) => value.startsWith(x))) errs.push(invalid(p, value, detail));
  };
  check('specReplicasPath', scale.specReplicasPath, ['.spec.'], 'should be a json path under .spec', true);
  check('statusReplicasPath', scale.statusReplicasPath, ['.status.'], 'should be a json path under .status', true);
  check('labelSelectorPath', scale.labelSelectorPath ?? undefined, ['.spec.', '.status.'], 'should be a json path under either .spec or .status', false);
  return errs;
}

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** ValidateCustomResourceColumnDefinition (the JSON path is reported as `JSONPath`, the internal field's name). */
export function validateColumn(col: Partial<CustomResourceColumnDefinition>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(required(path.child('name'), ''));
  const types = `must be one of ${COLUMN_TYPES.join(',')}`;
  if (!col.type) errs.push(required(path.child('type'), types));
  else if (!COLUMN_TYPES.includes(col.type)) errs.push(invalid(path.child('type'), col.type, types));
  if (col.format && !COLUMN_FORMATS.includes(col.format)) errs.push(invalid(path.child('format'), col.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  if (!col.jsonPath) errs.push(required(path.child('JSONPath'), ''));
  else errs.push(...simpleJSONPathErrors(col.jsonPath, path.child('JSONPath')));
  return errs;
}
