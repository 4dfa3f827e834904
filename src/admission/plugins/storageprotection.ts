// StorageObjectInUseProtection (mutating, default on): a new
// PersistentVolumeClaim gets the finalizer svc.io/pvc-protection and a new
// PersistentVolume svc.io/pv-protection, so deleting one that is still in use
// waits until the protection controller removes the finalizer. Server-set
// keys use the svc.io spelling (DESIGN §2; Kubernetes writes kubernetes.io/…).
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';

export const PVC_PROTECTION = 'svc.io/pvc-protection';
export const PV_PROTECTION = 'svc.io/pv-protection';

/** The finalizer a created object of this resource gets, if any. */
function finalizerFor(a: AdmissionAttributes): string | undefined {
  if (a.operation !== 'CREATE' || a.resource.group !== '' || !a.object) return undefined;
  if (a.resource.resource === 'persistentvolumeclaims') return PVC_PROTECTION;
  if (a.resource.resource === 'persistentvolumes') return PV_PROTECTION;
  return undefined;
}

export function storageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: 'StorageObjectInUseProtection',
    phase: 'mutating',
    admit(a) {
      const finalizer = finalizerFor(a);
      if (!finalizer) return;
      const meta = a.object!.metadata;
      const finalizers = meta.finalizers ?? [];
      if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
    },
  };
}
