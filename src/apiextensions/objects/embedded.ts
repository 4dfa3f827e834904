// Embedded resources (x-kubernetes-embedded-resource) of a custom resource,
// checked as apiextensions-apiserver's objectmeta.Validate does after the
// schema walk: every embedded object (and the root, when asked) needs apiVersion
// and kind — strings, non-empty, a parseable group/version and a DNS-1035
// kind in any case — and its metadata must decode as ObjectMeta and pass
// ObjectMeta validation (names as path segments, since the embedded object's
// kind is unknown; a missing name is allowed; namespaced when it names a
// namespace).
import { type FieldError, FieldPath, invalid, required } from '../../api/meta/field.js';
import { dns1035LabelErrors, type MetaLike, pathSegmentNameErrors, validateObjectMeta } from '../../api/meta/validation.js';
import { isObject, type Schema } from '../../schema/model.js';
import { propertyIndex } from '../../schema/properties.js';
import { goValue } from './gofmt.js';
import { reaches } from './reach.js';
import { objectMetaDecodeError, typedObjectMeta } from './objectmeta.js';

export interface EmbeddedOptions {
  /** Check the root as an embedded resource too (objectmeta.Validate's isResourceRoot). */
  readonly root?: boolean;
  /** The path of `obj`; the root's is empty. */
  readonly path?: FieldPath;
}

/** The errors of every embedded resource in `obj` under the structural schema `s`. */
export function validateEmbedded(s: Schema | undefined, obj: unknown, opts: EmbeddedOptions = {}): FieldError[] {
  let schema = s;
  if (opts.root) schema = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  else if (!reaches(s, 'embedded')) return [];
  const errs: FieldError[] = [];
  if (schema) visit(schema, obj, opts.path ?? new FieldPath(''), errs);
  return errs;
}

function visit(s: Schema, x: unknown, path: FieldPath, errs: FieldError[]): void {
  if (Array.isArray(x)) {
    if (s.items) for (let i = 0; i < x.length; i++) visit(s.items, x[i], path.index(i), errs);
    return;
  }
  if (!isObject(x)) return;
  if (s['x-kubernetes-embedded-resource']) errs.push(...embeddedResourceErrors(x, path));
  const props = s.properties === undefined ? undefined : propertyIndex(s.properties);
  const extra = s.additionalProperties;
  for (const k of Object.keys(x)) {
    const sub = props?.get(k);
    if (sub !== undefined) visit(sub, x[k], path.child(k), errs);
    else if (typeof extra === 'object') visit(extra, x[k], path.key(k), errs);
  }
}

/** schema.ParseGroupVersion's error, if any. */
export function groupVersionError(gv: string): string | undefined {
  if (gv === '' || gv === '/') return undefined;
  const parts = gv.split('/');
  return parts.length <= 2 ? undefined : `unexpected GroupVersion string: ${gv}`;
}

function embeddedResourceErrors(x: Record<string, unknown>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push(required(path.child('apiVersion'), 'must not be empty'));
  if (!('kind' in x)) errs.push(required(path.child('kind'), 'must not be empty'));
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      const p = path.child(k);
      if (typeof v !== 'string') errs.push(invalid(p, goValue(v), 'must be a string'));
      else if (v === '') errs.push(invalid(p, v, 'must not be empty'));
      else {
        const e = groupVersionError(v);
        if (e) errs.push(invalid(p, v, e));
      }
    } else if (k === 'kind') {
      const p = path.child(k);
      if (typeof v !== 'string') errs.push(invalid(p, goValue(v), 'must be a string'));
      else if (v === '') errs.push(invalid(p, v, 'must not be empty'));
      else {
        const msgs = dns1035LabelErrors(v.toLowerCase());
        if (msgs.length > 0) errs.push(invalid(p, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
      }
    } else if (k === 'metadata') {
      errs.push(...embeddedMetadataErrors(v, path.child('metadata')));
    }
  }
  return errs;
}

function embeddedMetadataErrors(v: unknown, path: FieldPath): FieldError[] {
  const decodeError = objectMetaDecodeError(v);
  if (decodeError !== undefined) return [invalid(path, goValue(v), decodeError)];
  const meta = typedObjectMeta(v, { dropZeroCreationTimestamp: true }) as MetaLike;
  // A name is not required of an embedded object: validated as if it had one.
  if (!meta.name) meta.name = 'fakename';
  const errs = validateObjectMeta(meta, { namespaced: Boolean(meta.namespace), validateName: pathSegmentNameErrors });
  return rebase(errs, path);
}

/** ObjectMeta errors are reported under `metadata`: move them under `path`. */
export function rebase(errs: readonly FieldError[], path: FieldPath): FieldError[] {
  const to = String(path);
  if (to === 'metadata') return [...errs];
  return errs.map((e) => (e.field === 'metadata' || e.field.startsWith('metadata.') || e.field.startsWith('metadata[') ? { ...e, field: to + e.field.slice('metadata'.length) } : e));
}
