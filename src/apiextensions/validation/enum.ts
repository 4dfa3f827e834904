// validateEnumStrings: a required (or optional) value from a fixed list.
import { type FieldError, type FieldPath, notSupported, required } from '../../api/meta/field.js';

export function enumErrors(path: FieldPath, value: string | undefined | null, accepted: readonly string[], isRequired: boolean): FieldError[] {
  if (!value) return isRequired ? [required(path, '')] : [];
  return accepted.includes(value) ? [] : [notSupported(path, value, accepted)];
}
