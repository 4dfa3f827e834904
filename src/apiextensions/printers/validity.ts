// JSONPath checks a CRD's validation makes of its paths.
//
// v1.27's validation (ValidateCustomResourceColumnDefinition and the scale
// subresource's paths) only checks the simple form — validateSimpleJSONPath:
// not empty, starts with a dot. Whether a column's path parses as a template
// is found when the CRD is served (a bad one truncates the columns, see
// convertor.ts); columnJSONPathError says so up front.
import { type FieldError, type FieldPath, invalid } from '../../api/meta/field.js';
import { JSONPathParseError, parseJSONPath } from './jsonpath.js';

/** validateSimpleJSONPath: `must not be empty`, `must be a simple json path starting with .`. */
export function validateSimpleJSONPath(s: string, path: FieldPath | string): FieldError[] {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** client-go's parse error for a column's `{jsonPath}`, or undefined when it parses. */
export function columnJSONPathError(jsonPath: string): string | undefined {
  try {
    parseJSONPath(`{${jsonPath}}`);
    return undefined;
  } catch (e) {
    if (e instanceof JSONPathParseError) return e.message;
    throw e;
  }
}
