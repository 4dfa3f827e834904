// Defaults in a CRD schema (kube's defaulting.ValidateDefaults): every
// `default` must validate against its own schema (our validator plus the
// junctors), must survive pruning ("must not have unknown fields", when
// required), and must keep the apiVersion/kind/metadata of embedded resources
// valid. A default inside metadata, apiVersion or kind of a resource is
// checked inside a surrounding object built from the resource root down to it
// (kind "Validation", apiVersion "validation/v1" filled in), as kube does.
// additionalProperties and junctors are not followed (defaults are refused there).
import { invalid, type FieldError } from '../../api/meta/field.js';
import { renderCause } from '../../api/meta/govalue.js';
import { isObject, type JsonValue } from '../../schema/model.js';
import { prune } from '../../schema/prune.js';
import { validateRe2 } from '../structural/junctors.js';
import { toStructural, toStructuralNode } from '../structural/runtime.js';
import type { JSONSchemaProps } from '../types.js';
import type { CelSchemaHooks } from './schemaoptions.js';
import { goJson } from './schemagovalue.js';
import { coerceError, embeddedMetaErrors } from './schemametadata.js';

/** Wraps a value in the object around it, from the nearest resource root. */
type Surround = (x: unknown) => { [k: string]: unknown };

const rootSurround: Surround = (x) => {
  const obj = isObject(x) ? x : {};
  if (!('kind' in obj)) obj.kind = 'Validation';
  if (!('apiVersion' in obj)) obj.apiVersion = 'validation/v1';
  return obj;
};

export interface DefaultsOptions {
  requirePrunedDefaults: boolean;
  cel?: CelSchemaHooks;
}

/** The errors of the defaults under `schema`, the openAPIV3Schema at `path` (the resource root). */
export function validateDefaults(schema: JSONSchemaProps, path: string, opts: DefaultsOptions): FieldError[] {
  const root = schema['x-kubernetes-embedded-resource'] ? schema : { ...schema, 'x-kubernetes-embedded-resource': true };
  const errs: FieldError[] = [];
  walk(root, path, root, rootSurround, false, opts, errs);
  return errs;
}

const clone = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const text = renderCause;
/** Go's utilerrors aggregate text. */
const aggregate = (errs: FieldError[]) => (errs.length === 1 ? text(errs[0]!) : `[${errs.map(text).join(', ')}]`);
const under = (base: string, e: FieldError): FieldError => ({ ...e, field: e.field ? `${base}.${e.field}` : base });

function walk(s: JSONSchemaProps, path: string, resourceRoot: JSONSchemaProps, f: Surround, insideMeta: boolean, opts: DefaultsOptions, errs: FieldError[]): void {
  if (s['x-kubernetes-embedded-resource'] === true) {
    insideMeta = false;
    f = rootSurround;
    resourceRoot = s;
  }
  const isResourceRoot = s === resourceRoot;
  const d = s.default;
  if (d !== undefined && d !== null) {
    const at = `${path}.default`;
    const valueErrors = () => {
      return validateRe2(s, d, '').map((e) => under(at, e));
    };
    const celErrors = () => opts.cel?.defaultRules?.({ schema: s, path: at, value: d, isResourceRoot }) ?? [];
    if (insideMeta) {
      const obj = f(clone(d));
      const coerce = coerceError('', obj, resourceRoot, true);
      const metaErrs = coerce ? [] : embeddedMetaErrors('', obj, resourceRoot, true);
      if (coerce) errs.push(invalid(at, goJson(d), `must result in valid metadata: ${text(coerce)}`));
      else if (metaErrs.length) errs.push(invalid(at, goJson(d), `must result in valid metadata: ${aggregate(metaErrs)}`));
      else pushFirst(errs, valueErrors, celErrors);
    } else {
      if (opts.requirePrunedDefaults) {
        const pruned = clone(d);
        if (prune(isResourceRoot ? toStructural(s, 'opaque') : toStructuralNode(s, 'opaque'), pruned).length > 0) errs.push(invalid(at, goJson(d), 'must not have unknown fields'));
      }
      const embedded = s['x-kubernetes-embedded-resource'] === true;
      const coerce = coerceError(at, clone(d), s, embedded);
      if (coerce) errs.push(coerce);
      else {
        const metaErrs = embeddedMetaErrors(at, d, s, embedded);
        if (metaErrs.length) errs.push(...metaErrs);
        else pushFirst(errs, valueErrors, celErrors);
      }
    }
  }
  if (s.items && !Array.isArray(s.items)) {
    const g = f;
    walk(s.items, `${path}.items`, resourceRoot, (x) => g([x]), insideMeta, opts, errs);
  }
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    const g = f;
    const meta = insideMeta || (s['x-kubernetes-embedded-resource'] === true && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    walk(p, `${path}.properties[${k}]`, resourceRoot, (x) => g({ [k]: x as JsonValue }), meta, opts, errs);
  }
}

/** The value errors, or when there are none the CEL errors. */
function pushFirst(errs: FieldError[], value: () => FieldError[], cel: () => FieldError[]): void {
  const v = value();
  errs.push(...(v.length ? v : cel()));
}
