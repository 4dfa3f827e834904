// Decoding a request body the way Go's encoding/json (and sigs.k8s.io/json) reports
// failures, because Kubernetes puts those texts into 400 answers verbatim:
// "unexpected end of JSON input", "invalid character 'x' looking for beginning of
// value", "json: cannot unmarshal array into Go value of type map[string]interface {}".
// The syntax errors come from the project's one Go-worded decoder, src/schema/json.ts.
import { decodeJson, JsonSyntaxError } from '../schema/json.js';
import { goJsonKind } from '../schema/gotypes.js';
import { PatchError } from './errors.js';
import { type JsonObject, type JsonValue, isObject } from './json.js';

export class GoJsonError extends Error {
  override readonly name = 'GoJsonError';
}

/** Parses JSON text, throwing a GoJsonError worded as Go's decoder words it. */
export function parseGoJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue; // a repeated key keeps its last value, as Go's map[string]interface{} does
  } catch {
    try {
      decodeJson(text); // throws the Go-worded syntax error
    } catch (e) {
      if (e instanceof JsonSyntaxError) throw new GoJsonError(e.message);
      throw e;
    }
    throw new GoJsonError('invalid JSON');
  }
}

/** A PATCH body: its JSON value, or PatchError 'malformed' with `prefix` + Go's text. */
export function decodeBody(text: string, prefix: string): JsonValue {
  try {
    return parseGoJson(text);
  } catch (e) {
    if (e instanceof GoJsonError) throw new PatchError('malformed', `${prefix}${e.message}`);
    throw e;
  }
}

/** A PATCH body that must decode into Go's map[string]interface{} (null is an empty map). */
export function decodeObjectBody(text: string, prefix: string): JsonObject {
  const body = decodeBody(text, prefix);
  if (body === null) return {};
  if (!isObject(body)) throw new PatchError('malformed', `${prefix}json: cannot unmarshal ${goJsonKind(body)} into Go value of type map[string]interface {}`);
  return body;
}
