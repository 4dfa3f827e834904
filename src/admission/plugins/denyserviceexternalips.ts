// DenyServiceExternalIPs (validating, off by default): a Service may not gain
// externalIPs: a create with any, or an update adding one the old Service did
// not have, is refused; removing them is allowed. Dry runs are refused alike.
import type { AdmissionPlugin } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { admissionForbidden, isCoreWrite, specOf } from './common.js';

const externalIPs = (o: ApiObject | undefined): unknown[] => {
  const v = specOf(o)?.externalIPs;
  return Array.isArray(v) ? v : [];
};

export function denyServiceExternalIPs(): AdmissionPlugin {
  return {
    name: 'DenyServiceExternalIPs',
    phase: 'validating',
    admit(a) {
      if (!isCoreWrite(a, 'services')) return;
      const old = new Set(externalIPs(a.oldObject));
      if (externalIPs(a.object).every((ip) => old.has(ip))) return;
      throw admissionForbidden(a, 'Use of external IPs is denied by admission control');
    },
  };
}
