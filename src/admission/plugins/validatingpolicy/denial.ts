// What a policy's denial answers (kube's celAdmissionController.Validate):
// admission.NewForbidden of the request with the first denied decision's
// message, then the reason of that decision (Invalid when it has none: a
// configuration or evaluation error) and its code, and one cause holding the
// message.
//   ValidatingAdmissionPolicy '<p>' with binding '<b>' denied request: <message>
//   ValidatingAdmissionPolicy '<p>' denied request: <message>   (no binding: the policy's own error)
import { StatusError } from '../../../api/meta/index.js';
import type { AdmissionAttributes } from '../../../registry/admission.js';
import { admissionForbidden } from '../common.js';

export interface DeniedDecision {
  readonly policy: string;
  readonly binding: string | undefined;
  readonly message: string;
  readonly reason: string | undefined;
}

/** kube's reasonToCode: the HTTP code of a validation's reason. */
export function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden': return 403;
    case 'Unauthorized': return 401;
    case 'RequestEntityTooLarge': return 413;
    default: return 422;
  }
}

export function denialMessage(d: DeniedDecision): string {
  return d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
}

export function denialError(a: AdmissionAttributes, d: DeniedDecision): StatusError {
  const message = denialMessage(d);
  const forbidden = admissionForbidden(a, message).status;
  const reason = d.reason || 'Invalid';
  return new StatusError({
    ...forbidden,
    reason,
    details: { ...forbidden.details, causes: [...(forbidden.details?.causes ?? []), { message }] },
    code: reasonToCode(reason),
  });
}
