// Typed decoding and field validation of a write body (spec "Field
// validation"), in Kubernetes' order:
//
//   wrong JSON type anywhere → 400 "<Kind> in version "v1" cannot be handled as a <Kind>: json: …"
//   unknown and duplicate fields, per fieldValidation:
//     Strict → 400 "… strict decoding error: unknown field "spec.foo", duplicate field "data""
//     Warn (default) → one `Warning: 299 - "unknown field \"spec.foo\""` per field
//     Ignore → nothing
//   unknown fields are then dropped (built-in kinds decode into typed structs).
import { fieldPath, newBadRequest, newInvalid, notSupported } from '../api/meta/index.js';
import { checkAndPrune } from '../schema/gotypes.js';
import type { Schema } from '../schema/model.js';
import { duplicateFieldMessage, unknownFieldMessage } from '../schema/unknown.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

const ALLOWED = ['', 'Ignore', 'Strict', 'Warn'];

/** `fieldValidation` of a POST, PUT or PATCH (default Warn); other values are 422 on the verb's options kind. */
export function fieldValidationOf(q: URLSearchParams, optionsKind: string): FieldValidation {
  const v = q.get('fieldValidation') ?? '';
  if (!ALLOWED.includes(v)) throw newInvalid({ group: 'meta.svc.io', kind: optionsKind }, '', [notSupported(fieldPath('fieldValidation'), v, ALLOWED)]);
  return v === '' ? 'Warn' : (v as FieldValidation);
}

export interface TypedDecodeInput {
  /** The decoded body; pruned in place. */
  readonly body: Record<string, unknown>;
  readonly duplicates: readonly string[];
  /** The kind's schema; without one the body is taken as sent. */
  readonly schema: Schema | undefined;
  readonly kind: string;
  readonly version: string;
  readonly mode: FieldValidation;
  /** How a Strict failure is reported (default: 400 "<Kind> in version … cannot be handled …"); patches report it as 422 on `patch`. */
  readonly strictError?: (detail: string) => Error;
  /** How a wrong JSON type is reported (default: the same 400); JSON and merge patches report it as 422 on `patch`. */
  readonly typeError?: (detail: string) => Error;
  /** Strict problems found before the object (a JSON patch body's own), reported first. */
  readonly leading?: readonly string[];
  /** Instead of a schema's typed walk (custom resources): prunes the body in place and returns the removed paths. */
  readonly prune?: (body: Record<string, unknown>) => string[];
}

/** Checks and prunes `body`; returns the warnings to send (Warn mode). */
export function decodeTyped(input: TypedDecodeInput): string[] {
  const { body, schema, kind, version, mode } = input;
  const cannot = () => `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}`;
  const { typeError, unknown } = input.prune ? { typeError: undefined, unknown: input.prune(body) } : schema ? checkAndPrune(schema, body, kind) : { typeError: undefined, unknown: [] }; // one walk: types, then unknown fields pruned
  if (typeError !== undefined) throw input.typeError ? input.typeError(typeError) : newBadRequest(`${cannot()}: ${typeError}`);
  const leading = input.leading ?? [];
  if (!schema && !input.prune && leading.length === 0) return []; // without a schema the body is taken as sent
  if (mode === 'Ignore' || (unknown.length === 0 && input.duplicates.length === 0 && leading.length === 0)) return [];
  // A custom resource (kube's unstructured decoding) reports duplicates first, then the pruned fields sorted.
  const problems = input.prune
    ? [...leading, ...input.duplicates.map(duplicateFieldMessage), ...[...unknown].sort().map(unknownFieldMessage)]
    : [...leading, ...unknown.map(unknownFieldMessage), ...input.duplicates.map(duplicateFieldMessage)];
  const detail = `strict decoding error: ${problems.join(', ')}`;
  if (mode === 'Strict') throw input.strictError ? input.strictError(detail) : newBadRequest(`${cannot()}: ${detail}`);
  return problems;
}
