// The custom-resource strategy's validation in Kubernetes' order (v1.27
// customResourceStrategy.Validate / ValidateUpdate, statusStrategy.ValidateUpdate),
// up to the CEL rules, which come after and are the caller's:
//
//   create  typeMeta ▸ metadata+schema ▸ scale spec ▸ scale status ▸ embedded ▸ list types
//   update  typeMeta ▸ metadata+schema ▸ scale spec ▸ scale status ▸ embedded ▸ list types (ratcheting)
//   status  typeMeta ▸ metadata+schema ▸ scale status ▸ list types (ratcheting)
//
// ▸ typeMeta errors are the whole answer. The ObjectMeta and schema-walk
// errors are the caller's (registry metadata validation, src/schema validate).
import type { FieldError } from '../../api/meta/field.js';
import type { Schema } from '../../schema/model.js';
import type { CustomResourceSubresourceScale } from '../types.js';
import { validateEmbedded } from './embedded.js';
import { validateListTypes } from './listtype.js';
import { type ResourceKind, validateScaleSpec, validateScaleStatus, validateTypeMeta } from './resource.js';

export interface StrategyInput {
  readonly operation: 'create' | 'update' | 'status';
  readonly obj: Record<string, unknown>;
  /** The stored object (update and status). */
  readonly old?: Record<string, unknown>;
  /** The CRD version's group, version and kind. */
  readonly kind: ResourceKind;
  /** The version's structural schema. */
  readonly schema?: Schema;
  readonly scale?: CustomResourceSubresourceScale;
  /** The ObjectMeta (create or update) and schema-walk errors, computed by the caller; called only when the type meta is right. */
  readonly metaAndSchemaErrors: () => FieldError[];
}

/** Every error of the strategy's validation before CEL rules. */
export function customResourceErrors(input: StrategyInput): FieldError[] {
  const typeErrs = validateTypeMeta(input.obj, input.kind);
  if (typeErrs.length > 0) return typeErrs;
  const errs = [...input.metaAndSchemaErrors()];
  if (input.operation !== 'status') errs.push(...validateScaleSpec(input.obj, input.scale));
  errs.push(...validateScaleStatus(input.obj, input.scale));
  if (input.operation !== 'status') errs.push(...validateEmbedded(input.schema, input.obj));
  errs.push(...validateListTypes(input.schema, input.obj, input.operation === 'create' ? {} : { old: input.old ?? {} }));
  return errs;
}
