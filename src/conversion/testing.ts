// Test helpers shared by the conversion tests: the schema problems of an
// object in a version (type, required and format errors, and fields the
// version does not have).
import { schemaFor } from '../api/schemas.js';
import { unknownFields, validate } from '../schema/index.js';
import { parseApiVersion } from './index.js';

/** Every schema problem of `obj` against the schema of its own apiVersion and kind. */
export function schemaProblems(obj: Record<string, unknown>): string[] {
  const { group, version } = parseApiVersion(String(obj.apiVersion));
  const schema = schemaFor(group, version, String(obj.kind));
  if (!schema) return [`no schema for ${String(obj.apiVersion)} ${String(obj.kind)}`];
  return [...validate(schema, obj).map((e) => `${e.field}: ${e.detail}`), ...unknownFields(schema, obj).map((p) => `unknown field ${p}`)];
}
