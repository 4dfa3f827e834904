// What a custom resource is checked against, in kube's order
// (customResourceStrategy.Validate/ValidateUpdate, statusStrategy): type meta,
// the version's OpenAPI schema, scale paths, embedded resources and list types
// (objects/), then the CEL rules — which run only when everything before
// passed, as kube says with its "some validation rules were not checked" error.
import type { FieldError } from '../../api/meta/index.js';
import { validate } from '../../schema/validate.js';
import type { Schema } from '../../schema/model.js';
import type { ApiObject } from '../../registry/object.js';
import { customResourceErrors } from '../objects/index.js';
import { junctorValidator } from '../structural/index.js';
import type { CustomResourceSubresourceScale, JSONSchemaProps } from '../types.js';
import type { ValidationOperation, VersionValidator } from './strategy.js';

export interface VersionChecks {
  /** The CEL rules of the version; none when absent. */
  readonly rules?: (obj: ApiObject, old: ApiObject | undefined) => FieldError[];
  /** The error kube adds instead of running the rules over an invalid object. */
  readonly rulesSkipped?: () => FieldError;
}

export interface VersionFacts {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The version's schema as the CRD wrote it (validation), and its structural form (list types, embedded resources). */
  readonly schema: JSONSchemaProps | undefined;
  readonly structural: Schema;
  readonly scale?: CustomResourceSubresourceScale;
}

export function versionValidator(v: VersionFacts, checks: VersionChecks = {}): VersionValidator {
  const s = v.schema as Schema | undefined;
  // allOf/anyOf/oneOf/not and multipleOf, which the schema walk does not check (after its errors).
  const junctors = junctorValidator(v.schema);
  const kind = { group: v.group, version: v.version, kind: v.kind };
  const apiVersion = `${v.group}/${v.version}`;
  return (input, old, operation: ValidationOperation) => {
    // The store has stamped the storage version's type meta; the body's was checked when it was decoded
    // (CustomKind.typeMetaErrors), so the object is validated as this version's.
    const obj = input.apiVersion === apiVersion && input.kind === v.kind ? input : ({ ...input, apiVersion, kind: v.kind } as ApiObject);
    const errs = customResourceErrors({
      operation, obj, ...(old ? { old } : {}), kind, schema: v.structural, ...(v.scale ? { scale: v.scale } : {}),
      metaAndSchemaErrors: () => (s ? [...validate(s, obj), ...(junctors ? junctors(obj, '') : [])] : []),
    });
    if (checks.rules) {
      if (errs.length > 0) {
        if (checks.rulesSkipped) errs.push(checks.rulesSkipped());
      } else errs.push(...checks.rules(obj, old));
    }
    return errs;
  };
}
