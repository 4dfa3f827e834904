// Lease validation with kube-apiserver v1.27's messages (pkg/apis/coordination/validation).
import { type FieldError, fieldPath, invalid } from '../../meta/field.js';
import { type Obj, num, obj } from '../../meta/checks.js';
import type { KindValidator } from '../../core/v1/validation.js';

export function validateLease(lease: Obj): FieldError[] {
  const spec = obj(lease.spec);
  const p = fieldPath('spec');
  const errs: FieldError[] = [];
  const dur = num(spec.leaseDurationSeconds);
  if (dur !== undefined && dur <= 0) errs.push(invalid(p.child('leaseDurationSeconds'), dur, 'must be greater than 0'));
  const tr = num(spec.leaseTransitions);
  if (tr !== undefined && tr < 0) errs.push(invalid(p.child('leaseTransitions'), tr, 'must be greater than or equal to 0'));
  return errs;
}

export function coordinationValidators(): Record<string, KindValidator> {
  return { Lease: { validate: validateLease, validateUpdate: (o) => validateLease(o) } };
}
