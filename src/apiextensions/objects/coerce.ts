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
//
// coerceResource is the CRD handler's whole decoder step around it
// (unstructuredSchemaCoercer.apply): the root's TypeMeta and ObjectMeta, the
// caller's pruning, then coerceObjectMeta for the embedded resources.
import { type FieldError, FieldPath, invalid } from '../../api/meta/field.js';
import { ObjectMeta } from '../../schema/common.js';
import { isObject, type Schema } from '../../schema/model.js';
import { propertyIndex } from '../../schema/properties.js';
import { unknownFields } from '../../schema/unknown.js';
import { renderCause } from '../../api/meta/govalue.js';
import { groupVersionError } from './embedded.js';
import { goPlainV, goTypeOf, goValue } from './gofmt.js';
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
    const sub = s.properties === undefined ? undefined : propertyIndex(s.properties).get(k);
    const extra = s.additionalProperties;
    let e: FieldError | undefined;
    if (sub !== undefined) e = coerce(sub, x[k], path.child(k), opts, unknown);
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
  x.metadata = typedObjectMeta(source, { dropZeroCreationTimestamp: true });
  return undefined;
}

export interface ResourceCoerceOptions {
  /** The CRD's group and kind: only an object of that group and kind is pruned and has its embedded resources coerced. */
  readonly group: string;
  readonly kind: string;
  /** The structural schema of a served version, or undefined. */
  readonly schemaFor: (version: string) => Schema | undefined;
  /** Storage reads drop malformed metadata fields; requests fail on them. */
  readonly dropInvalidMetadata?: boolean;
  /** Collect unknown field paths (fieldValidation Warn / Strict). */
  readonly returnUnknownFieldPaths?: boolean;
  /**
   * The caller's pruning of a matching object (unknown fields, and nulls of
   * non-nullable fields without defaults), run between the metadata and the
   * embedded resources as Kubernetes does; returns the pruned paths. Left out
   * when the CRD preserves unknown fields.
   */
  readonly prune?: (obj: Record<string, unknown>, schema: Schema | undefined) => string[];
}

export interface ResourceCoerceResult {
  /** The decoding error's text (Kubernetes wraps it: `X in version "v" cannot be handled as a X: <error>`). */
  readonly error?: string;
  readonly unknownFieldPaths: string[];
}

/** unstructured.NestedString's reading of a top-level field. */
function topString(obj: Record<string, unknown>, k: string): { found: boolean; value: string; error?: string } {
  if (!Object.prototype.hasOwnProperty.call(obj, k)) return { found: false, value: '' };
  const v = obj[k];
  if (typeof v === 'string') return { found: true, value: v };
  return { found: false, value: '', error: `.${k} accessor error: ${goPlainV(v)} is of the type ${goTypeOf(v)}, expected string` };
}

/**
 * A custom resource as the CRD handler's decoder types it (unstructuredSchemaCoercer.apply):
 * kind and apiVersion must be strings, the root metadata decodes as ObjectMeta
 * (dropping malformed fields when reading storage) and is written back typed,
 * the apiVersion must parse; then, for the CRD's own group and kind, pruning
 * (the caller's) and the embedded resources' coercion. Modifies `obj` in place.
 */
export function coerceResource(obj: Record<string, unknown>, opts: ResourceCoerceOptions): ResourceCoerceResult {
  const kind = topString(obj, 'kind');
  if (kind.error) return { error: kind.error, unknownFieldPaths: [] };
  const apiVersion = topString(obj, 'apiVersion');
  if (apiVersion.error) return { error: apiVersion.error, unknownFieldPaths: [] };

  const unknown: string[] = [];
  const foundMeta = Object.prototype.hasOwnProperty.call(obj, 'metadata');
  let meta: unknown = obj.metadata;
  if (foundMeta) {
    const decodeError = objectMetaDecodeError(meta);
    if (decodeError !== undefined) {
      if (!opts.dropInvalidMetadata) return { error: decodeError, unknownFieldPaths: [] };
      meta = droppingMalformed(meta);
      if (meta === undefined) return { error: `invalid metadata: expected object, got ${goTypeOf(obj.metadata)}`, unknownFieldPaths: [] };
    }
    if (opts.returnUnknownFieldPaths && isObject(meta)) unknown.push(...unknownFields(ObjectMeta.schema, meta, { path: 'metadata' }));
  }

  const gvError = groupVersionError(apiVersion.value);
  if (gvError) return { error: gvError, unknownFieldPaths: [] };
  const slash = apiVersion.value.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.value.slice(0, slash);
  const version = slash < 0 ? apiVersion.value : apiVersion.value.slice(slash + 1);

  if (group === opts.group && kind.value === opts.kind) {
    const schema = opts.schemaFor(version);
    if (opts.prune) unknown.push(...opts.prune(obj, schema));
    const r = coerceObjectMeta(schema, obj, { dropInvalidFields: opts.dropInvalidMetadata === true, returnUnknownFieldPaths: opts.returnUnknownFieldPaths === true });
    if (r.error) return { error: renderCause(r.error), unknownFieldPaths: [] };
    unknown.push(...r.unknownFieldPaths);
  }

  if (kind.found) obj.kind = kind.value;
  if (apiVersion.found) obj.apiVersion = apiVersion.value;
  if (foundMeta) obj.metadata = typedObjectMeta(meta);
  return { unknownFieldPaths: unknown };
}
