// What a custom resource is checked against, in kube's order
// (customResourceStrategy.Validate): the version's OpenAPI schema, then the
// list types and embedded resources, then the CEL rules — which run only when
// everything before passed, as kube says with its "some validation rules were
// not checked" error.
import type { FieldError } from '../../api/meta/index.js';
import { validate } from '../../schema/validate.js';
import type { Schema } from '../../schema/model.js';
import type { ApiObject } from '../../registry/object.js';
import type { JSONSchemaProps } from '../types.js';
import type { VersionValidator } from './strategy.js';

export interface VersionChecks {
  /** Structural checks beyond the schema walk (list types, embedded resources); none when absent. */
  readonly structural?: (obj: ApiObject, old: ApiObject | undefined) => FieldError[];
  /** The CEL rules of the version; none when absent. */
  readonly rules?: (obj: ApiObject, old: ApiObject | undefined) => FieldError[];
  /** The error kube adds instead of running the rules over an invalid object. */
  readonly rulesSkipped?: () => FieldError;
}

export function versionValidator(schema: JSONSchemaProps | undefined, checks: VersionChecks = {}): VersionValidator {
  const s = schema as Schema | undefined;
  return (obj, old) => {
    const errs = s ? validate(s, obj) : [];
    if (checks.structural) errs.push(...checks.structural(obj, old));
    if (checks.rules) {
      if (errs.length > 0) {
        if (checks.rulesSkipped) errs.push(checks.rulesSkipped());
      } else errs.push(...checks.rules(obj, old));
    }
    return errs;
  };
}
