// PersistentVolumeClaimResize (validating, default on): growing a claim's
// storage request is allowed only for a bound claim whose StorageClass (the
// same before and after) sets allowVolumeExpansion: true; on update.
import { quantityOf } from '../../api/meta/quantity.js';
import type { AdmissionPlugin } from '../../registry/admission.js';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { Getter } from './common.js';
import { admissionForbidden, isCoreWrite, specOf } from './common.js';
import { CLAIM_CLASS_ANNOTATIONS } from './defaultstorageclass.js';

/** The requested storage in nano-units (0 when none). */
function requestedStorage(pvc: ApiObject | undefined): bigint {
  const resources = specOf(pvc)?.resources;
  const requests = isObject(resources) && isObject(resources.requests) ? resources.requests : {};
  return quantityOf(requests.storage)?.nanos ?? 0n;
}

/** The claim's class: the beta annotation first, then spec.storageClassName (kube's GetPersistentVolumeClaimClass). */
export function claimClass(pvc: ApiObject): string {
  for (const k of CLAIM_CLASS_ANNOTATIONS) {
    const v = pvc.metadata.annotations?.[k];
    if (v !== undefined) return v;
  }
  const name = specOf(pvc)?.storageClassName;
  return typeof name === 'string' ? name : '';
}

export function persistentVolumeClaimResize(storageClasses: Getter): AdmissionPlugin {
  async function allowResize(pvc: ApiObject, old: ApiObject): Promise<boolean> {
    const cls = claimClass(pvc);
    if (cls === '' || cls !== claimClass(old)) return false;
    try {
      return (await storageClasses().get('', cls)).allowVolumeExpansion === true;
    } catch {
      return false;
    }
  }
  return {
    name: 'PersistentVolumeClaimResize',
    phase: 'validating',
    admit(a) {
      if (!isCoreWrite(a, 'persistentvolumeclaims', ['UPDATE']) || !a.oldObject) return;
      if (requestedStorage(a.object) <= requestedStorage(a.oldObject)) return;
      const status = a.oldObject.status;
      if (!isObject(status) || status.phase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
      return allowResize(a.object!, a.oldObject).then((allowed) => {
        if (!allowed) throw admissionForbidden(a, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      });
    },
  };
}
