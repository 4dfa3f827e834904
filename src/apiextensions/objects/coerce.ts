// objectmeta.Coerce: before a custom resource is validated (and whenever one
// is read back from storage) its ObjectMeta and TypeMeta are typed — at the
// root and in every embedded resource:
//
//   apiVersion, kind  not a string → `must be a string` (dropping: removed)
//   metadata          decoded as metav1.ObjectMeta and written back typed
//                     (unknown fields gone, empty ones omitted, times in UTC);
//                     a wrong type → `metadata: Invalid value: …: json: cannot
//                     unmarshal …`; dropping: the fields that decode are kept
//
// Requests are coerced without dropping (the first error fails the request);
// objects read from storage with dropping. The walk stops at the first error.
// It also names the metadata fields Go's strict decoding would report
// unknown (fieldValidation), as `metadata.bogus` / `spec.template.metadata.bogus`.
import { type FieldError, FieldPath, invalid } from '../../api/meta/field.js';
import { ObjectMeta } from '../../schema/common.js';
import { isObject, type Schema } from '../../schema/model.js';
import { unknownFields } from '../../schema/unknown.js';
import { goValue } from './gofmt.js';
import { droppingMalformed, objectMetaDecodeError, typedObjectMeta } from './objectmeta.js';

export interface CoerceOptions {
  /** The object is a resource (its root is typed as an embedded resource); true for a custom resource. */
  readonly root?: boolean;
  /** Drop malformed fields instead of failing (objects read from storage). */
  readonly dropInvalidFields?: boolean;
  /** Also return the unknown metadata fields (for fieldValidation Strict/Warn). */
  readonly returnUnknownFieldPaths?: boolean;
}

export interface CoerceResult {
  /** The first error, when not dropping. `obj` may then be partly coerced. */
  readonly error?: FieldError;
  /** Unknown fields inside metadata, sorted (only with returnUnknownFieldPaths). */
  readonly unknownFieldPaths: string[];
}

/** Coerces `obj` in place (it must be a fresh copy the caller owns). */
export function coerceObjectMeta(s: Schema | undefined, obj: unknown, opts: CoerceOptions = {}): CoerceResult {
  let schema = s;
  if (opts.root) schema = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  const unknown: string[] = [];
  const error = schema ? coerce(schema, obj, new FieldPath(''), opts, unknown) : undefined;
  unknown.sort();
  return error ? { error, unknownFieldPaths: unknown } : { unknownFieldPaths: unknown };
}

function coerce(s: Schema, x: unknown, path: FieldPath, opts: CoerceOptions, unknown: string[]): FieldError | undefined {
  if (Array.isArray(x)) {
    if (!s.items) return undefined;
    for (let i = 0; i < x.length; i++) {
      const e = coerce(s.items, x[i], path.index(i), opts, unknown);
      if (e) return e;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  for (const k of Object.keys(x)) {
    if (s['x-kubernetes-embedded-resource']) {
      const e = coerceTypeMeta(x, k, path, opts, unknown);
      if (e) return e;
    }
    const props = s.properties;
    const extra = s.additionalProperties;
    let e: FieldError | undefined;
    if (props && Object.prototype.hasOwnProperty.call(props, k)) e = coerce(props[k]!, x[k], path.child(k), opts, unknown);
    else if (typeof extra === 'object') e = coerce(extra, x[k], path.key(k), opts, unknown);
    if (e) return e;
  }
  return undefined;
}

function coerceTypeMeta(x: Record<string, unknown>, k: string, path: FieldPath, opts: CoerceOptions, unknown: string[]): FieldError | undefined {
  const v = x[k];
  if (k === 'apiVersion' || k === 'kind') {
    if (typeof v === 'string') return undefined;
    if (opts.dropInvalidFields) {
      delete x[k];
      return undefined;
    }
    return invalid(path.child(k), goValue(v), 'must be a string');
  }
  if (k !== 'metadata') return undefined;
  const metaPath = path.child('metadata');
  const decodeError = objectMetaDecodeError(v);
  let source: unknown = v;
  if (decodeError !== undefined) {
    if (!opts.dropInvalidFields) return invalid(metaPath, goValue(v), decodeError);
    source = droppingMalformed(v);
    // Not an object: passed through as it is.
    if (source === undefined) return undefined;
  }
  if (opts.returnUnknownFieldPaths && isObject(source)) unknown.push(...unknownFields(ObjectMeta.schema, source, { path: String(metaPath) }));
  x.metadata = typedObjectMeta(source);
  return undefined;
}
