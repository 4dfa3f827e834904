// DefaultStorageClass (mutating, default on): a new PersistentVolumeClaim that
// names no class gets the default StorageClass, the one annotated
// is-default-class "true" (the kubernetes.io, svc.io and beta spellings); of
// several defaults the newest; with none the claim keeps no class.
import type { ApiObject } from '../../registry/object.js';
import type { AdmissionPlugin } from '../../registry/admission.js';
import type { Lister } from './common.js';
import { isCoreWrite, newestOf, specOf } from './common.js';

export const DEFAULT_STORAGE_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.svc.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
  'storageclass.beta.svc.io/is-default-class',
] as const;

/** The deprecated annotation a claim may name its class with instead of spec.storageClassName. */
export const CLAIM_CLASS_ANNOTATIONS = ['volume.beta.kubernetes.io/storage-class', 'volume.beta.svc.io/storage-class'] as const;

export function isDefaultStorageClass(sc: ApiObject): boolean {
  return DEFAULT_STORAGE_CLASS_ANNOTATIONS.some((k) => sc.metadata.annotations?.[k] === 'true');
}

/** Whether a claim asked for a class (an empty name is a request for no class). */
function claimHasClass(pvc: ApiObject): boolean {
  const spec = specOf(pvc);
  if (spec && spec.storageClassName !== undefined && spec.storageClassName !== null) return true;
  return CLAIM_CLASS_ANNOTATIONS.some((k) => pvc.metadata.annotations?.[k] !== undefined);
}

/** The default StorageClass, if any. */
export async function defaultStorageClass(storageClasses: Lister): Promise<ApiObject | undefined> {
  const { items } = await storageClasses().list('');
  return newestOf(items.filter(isDefaultStorageClass));
}

export function defaultStorageClassPlugin(storageClasses: Lister): AdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    phase: 'mutating',
    admit(a) {
      if (!isCoreWrite(a, 'persistentvolumeclaims', ['CREATE']) || claimHasClass(a.object!)) return;
      return defaultStorageClass(storageClasses).then((def) => {
        if (!def) return;
        const obj = a.object!;
        obj.spec = { ...(specOf(obj) ?? {}), storageClassName: def.metadata.name };
      });
    },
  };
}
