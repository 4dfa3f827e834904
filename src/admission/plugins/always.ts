// AlwaysAdmit and AlwaysDeny (both off by default, deprecated in kube "as no
// real meaning", kept for tests and experiments): each takes part in both
// phases. AlwaysDeny refuses every write reaching admission (create, update,
// delete, connect) with 403 `<resource> "<name>" is forbidden: admission
// control is denying all modifications`, in the mutating phase — so before
// the object is validated.
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import { admissionForbidden } from './common.js';

export const ALWAYS_DENY_MESSAGE = 'admission control is denying all modifications';

export function alwaysAdmit(): AdmissionPlugin {
  return { name: 'AlwaysAdmit', phase: 'mutating', admit() {}, validate() {} };
}

export function alwaysDeny(): AdmissionPlugin {
  const deny = (a: AdmissionAttributes) => {
    throw admissionForbidden(a, ALWAYS_DENY_MESSAGE);
  };
  return { name: 'AlwaysDeny', phase: 'mutating', admit: deny, validate: deny };
}
