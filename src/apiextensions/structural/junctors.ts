// Request-time checks of what a CRD schema says beyond src/schema/validate.ts:
// the logical junctors (allOf, anyOf, oneOf, not) and multipleOf, with
// kube-openapi's messages as apiextensions converts them. A junctor's failure
// is a composite error, reported as kube does at the root of the validated
// value (field `path` of the call, value ""): `"spec.x" must validate all the
// schemas (allOf)`; the failing branches' own errors follow it (all of them for
// allOf, the first failing branch for anyOf and oneOf, where kube keeps the
// branch whose checks matched most: an approximation).
// Junctor branches are value validations only (structural schemas forbid
// types and fields there), so a branch is checked with validate.ts on the
// branch itself plus this walk for its own junctors; a branch's pattern is
// matched here with RE2 (src/cel/runtime/regex.ts), since validate.ts compiles
// patterns as JavaScript RegExps, which refuse (?i) and other RE2 syntax.
import { invalid, type FieldError } from '../../api/meta/field.js';
import { isObject, type Schema } from '../../schema/model.js';
import { propertyIndex } from '../../schema/properties.js';
import { goNumber, validate } from '../../schema/validate.js';
import { matches } from '../../cel/runtime/regex.js';
import type { JSONSchemaProps } from '../types.js';
import { toStructuralNode } from './runtime.js';

/** Checks a value against the junctors and multipleOf of a schema; `path` names the value (as validate()'s path). */
export type JunctorValidator = (value: unknown, path?: string) => FieldError[];

/** A validator for the junctors and multipleOf under `schema`, or undefined when it has none (most CRDs): skip the walk then. */
export function junctorValidator(schema: JSONSchemaProps | undefined): JunctorValidator | undefined {
  if (schema === undefined || !needsWalk(schema, new Set())) return undefined;
  return (value, path = '') => validateJunctors(schema, value, path);
}

/**
 * The errors of `value` against the junctors and multipleOf anywhere under `schema`; with
 * `patterns`, also its patterns, matched with RE2 (for a caller that validated with the
 * patterns left out: `validateRe2`).
 */
export function validateJunctors(schema: JSONSchemaProps, value: unknown, path = '', opts: { patterns?: boolean } = {}): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, value, path, { root: path, patterns: opts.patterns === true }, errs);
  return dedupe(errs);
}

/**
 * The whole validation of `value` against a schema node as kube-openapi does it: validate.ts
 * on the node with its patterns left out, then the junctors, multipleOf and the patterns (RE2).
 * For values checked at CRD write time (defaults), where a JavaScript RegExp must not be asked
 * to compile a Go pattern.
 */
export function validateRe2(schema: JSONSchemaProps, value: unknown, path = ''): FieldError[] {
  return [...validate(withoutPatterns(schema), value, { path }), ...validateJunctors(schema, value, path, { patterns: true })];
}

const stripped = new WeakMap<JSONSchemaProps, Schema>();

/** The node's runtime schema (as written, no ObjectMeta added) without any pattern. */
function withoutPatterns(s: JSONSchemaProps): Schema {
  let out = stripped.get(s);
  if (out === undefined) stripped.set(s, (out = toStructuralNode(s, 'plain', { patterns: false })));
  return out;
}

interface WalkState {
  /** The path composite errors are reported at (the validated value's own path). */
  root: string;
  /** Patterns are checked here (validate.ts ran without them). */
  patterns: boolean;
}

const child = (path: string, k: string) => (path ? `${path}.${k}` : k);

/**
 * `anyOf: [{type: integer}, {type: string}]` on an int-or-string (what generators write for
 * IntOrString and Quantity) says no more than the int-or-string type check of validate.ts.
 */
function intOrStringAnyOf(s: JSONSchemaProps, anyOf: JSONSchemaProps[] | undefined): boolean {
  if (s['x-kubernetes-int-or-string'] !== true || anyOf?.length !== 2) return false;
  const only = (x: JSONSchemaProps, t: string) => x.type === t && Object.keys(x).length === 1;
  return only(anyOf[0]!, 'integer') && only(anyOf[1]!, 'string');
}

/** The anyOf to check: none when it is the int-or-string pattern. */
const anyOfOf = (s: JSONSchemaProps) => (intOrStringAnyOf(s, s.anyOf) ? undefined : s.anyOf);

function needsWalk(s: JSONSchemaProps, seen: Set<JSONSchemaProps>): boolean {
  if (seen.has(s)) return false;
  seen.add(s);
  if (s.allOf?.length || anyOfOf(s)?.length || s.oneOf?.length || s.not || s.multipleOf !== undefined) return true;
  const subs = [...Object.values(s.properties ?? {}), typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined, Array.isArray(s.items) ? undefined : s.items];
  return subs.some((x) => x !== undefined && x !== null && needsWalk(x, seen));
}

function walk(s: JSONSchemaProps, v: unknown, path: string, st: WalkState, errs: FieldError[]): void {
  if (v === null || v === undefined) return;
  junctors(s, v, path, st.root, errs);
  if (st.patterns && s.pattern !== undefined && typeof v === 'string' && !re2Matches(v, s.pattern)) errs.push(invalid(path, v, `${path} in body should match '${s.pattern}'`));
  if (s.multipleOf !== undefined && typeof v === 'number' && !isMultiple(v, s.multipleOf)) {
    errs.push(invalid(path, v, `${path} in body should be a multiple of ${goNumber(s.multipleOf, Number.isInteger(v))}`));
  }
  if (Array.isArray(v)) {
    const items = Array.isArray(s.items) ? undefined : s.items;
    if (items) v.forEach((x, i) => walk(items, x, `${path}[${i}]`, st, errs));
    return;
  }
  if (!isObject(v)) return;
  const extra = typeof s.additionalProperties === 'object' && s.additionalProperties !== null ? s.additionalProperties : undefined;
  const props = s.properties === undefined ? undefined : propertyIndex(s.properties);
  for (const k of Object.keys(v)) {
    const sub = props?.get(k) ?? extra;
    if (sub) walk(sub, v[k], child(path, k), st, errs);
  }
}

function isMultiple(v: number, factor: number): boolean {
  if (factor === 0) return true;
  const q = v / factor;
  return Math.abs(q - Math.round(q)) < 1e-9 * Math.max(1, Math.abs(q));
}

/** RE2 matching anywhere in the string; a pattern that does not compile (refused at CRD write) matches nothing. */
function re2Matches(v: string, pattern: string): boolean {
  try {
    return matches(v, pattern);
  } catch {
    return false;
  }
}

/** All errors of `v` against a junctor branch (validate.ts for the branch, this walk for its junctors). */
function branchErrors(s: JSONSchemaProps, v: unknown, path: string, root: string): FieldError[] {
  // patterns are Go's (RE2): matched by the walk, not by validate.ts's JavaScript RegExp
  const errs = validate(withoutPatterns(s), v, { path });
  walk(s, v, path, { root, patterns: true }, errs);
  return errs;
}

function junctors(s: JSONSchemaProps, v: unknown, path: string, root: string, errs: FieldError[]): void {
  const composite = (msg: string) => errs.push(invalid(root, '', msg));
  const name = JSON.stringify(path);
  const anyOf = anyOfOf(s);
  if (anyOf?.length) {
    let firstFailure: FieldError[] | undefined;
    let ok = false;
    for (const b of anyOf) {
      const r = branchErrors(b, v, path, root);
      if (r.length === 0) {
        ok = true;
        break;
      }
      firstFailure ??= r;
    }
    if (!ok) {
      composite(`${name} must validate at least one schema (anyOf)`);
      errs.push(...firstFailure!);
    }
  }
  if (s.oneOf?.length) {
    let valid = 0;
    let firstFailure: FieldError[] | undefined;
    for (const b of s.oneOf) {
      const r = branchErrors(b, v, path, root);
      if (r.length === 0) valid++;
      else if (valid === 0) firstFailure ??= r;
    }
    if (valid !== 1) {
      composite(`${name} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`);
      if (valid === 0 && firstFailure) errs.push(...firstFailure);
    }
  }
  if (s.allOf?.length) {
    let valid = 0;
    for (const b of s.allOf) {
      const r = branchErrors(b, v, path, root);
      if (r.length === 0) valid++;
      errs.push(...r);
    }
    if (valid !== s.allOf.length) composite(`${name} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`);
  }
  if (s.not && branchErrors(s.not, v, path, root).length === 0) composite(`${name} must not validate the schema (not)`);
}

/** kube-openapi reports an error once (same field, same text). */
function dedupe(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const key = `${e.type}\0${e.field}\0${e.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
