// The custom-resource strategy's checks around the schema walk
// (apiextensions-apiserver pkg/registry/customresource/validator.go):
//
//   validateTypeMeta   kind and apiVersion are the CRD version's (checked
//                      first; any error here is the whole answer)
//   validateScaleSpec  the scale subresource's spec replicas: an int64 in 0..MaxInt32
//   validateScaleStatus  status replicas likewise, and the label selector a string
//
// Scale paths are the CRD's `.spec.replicas`-style paths; errors name them as
// written (with the leading dot), as Kubernetes does.
import { type FieldError, invalid } from '../../api/meta/field.js';
import type { CustomResourceSubresourceScale } from '../types.js';
import { isObject } from '../../schema/model.js';
import { goPlainV, goTypeOf } from './gofmt.js';

export interface ResourceKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** ValidateTypeMeta: `kind: Invalid value: "X": must be Foo`, `apiVersion: … must be g/v`. */
export function validateTypeMeta(obj: Record<string, unknown>, want: ResourceKind): FieldError[] {
  const errs: FieldError[] = [];
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const gv = `${want.group}/${want.version}`;
  if (kind !== want.kind) errs.push(invalid('kind', kind, `must be ${want.kind}`));
  if (apiVersion !== gv) errs.push(invalid('apiVersion', apiVersion, `must be ${gv}`));
  return errs;
}

type Lookup = { found: false; error?: undefined; value?: undefined } | { found: true; value: unknown; error?: undefined } | { found: false; error: string; value?: undefined };

/** unstructured.NestedFieldNoCopy over a dotted path (a leading dot ignored). */
function nested(obj: Record<string, unknown>, dotted: string): Lookup & { fields: string[] } {
  const fields = (dotted.startsWith('.') ? dotted.slice(1) : dotted).split('.');
  let val: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (val === null || val === undefined) return { found: false, fields };
    if (!isObject(val)) return { found: false, fields, error: `.${fields.slice(0, i + 1).join('.')} accessor error: ${goPlainV(val)} is of the type ${goTypeOf(val)}, expected map[string]interface{}` };
    if (!Object.prototype.hasOwnProperty.call(val, fields[i]!)) return { found: false, fields };
    val = val[fields[i]!];
  }
  return { found: true, value: val, fields };
}

const MAX_INT32 = 2147483647;

function replicasErrors(obj: Record<string, unknown>, path: string): FieldError[] {
  const r = nested(obj, path);
  if (r.error !== undefined) return [invalid(path, 0, r.error)];
  if (!r.found) return [];
  const v = r.value;
  if (typeof v !== 'number' || !Number.isInteger(v)) return [invalid(path, 0, `.${r.fields.join('.')} accessor error: ${goPlainV(v)} is of the type ${goTypeOf(v)}, expected int64`)];
  if (v < 0) return [invalid(path, v, 'should be a non-negative integer')];
  if (v > MAX_INT32) return [invalid(path, v, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

/** ValidateScaleSpec: nothing without a scale subresource. */
export function validateScaleSpec(obj: Record<string, unknown>, scale: CustomResourceSubresourceScale | undefined): FieldError[] {
  return scale ? replicasErrors(obj, scale.specReplicasPath) : [];
}

/** ValidateScaleStatus: status replicas, and the label selector (when the CRD names one) a string. */
export function validateScaleStatus(obj: Record<string, unknown>, scale: CustomResourceSubresourceScale | undefined): FieldError[] {
  if (!scale) return [];
  const errs = replicasErrors(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const r = nested(obj, scale.labelSelectorPath);
    if (r.error !== undefined) errs.push(invalid(scale.labelSelectorPath, '', r.error));
    else if (r.found && typeof r.value !== 'string') {
      errs.push(invalid(scale.labelSelectorPath, '', `.${r.fields.join('.')} accessor error: ${goPlainV(r.value)} is of the type ${goTypeOf(r.value)}, expected string`));
    }
  }
  return errs;
}
