// Server-side defaulting for storage.svc.io/v1 as kube-apiserver v1.27
// applies it: StorageClass, CSIDriver, and the volume sources of a
// VolumeAttachment's inline PersistentVolumeSpec. In place.
import { at, orSet, struct, defaultPersistentVolumeSource, type Gates, type Json } from '../../core/v1/defaults.js';

export function defaultStorageClass(sc: Json): void {
  orSet(sc, 'reclaimPolicy', 'Delete');
  orSet(sc, 'volumeBindingMode', 'Immediate');
}

/** CSIDriver; spec.seLinuxMount only with the SELinuxMountReadWriteOncePod gate (alpha, off, in v1.27). */
export function defaultCSIDriver(driver: Json, gates: Gates): void {
  const spec = struct(driver, 'spec');
  if (!spec) return;
  orSet(spec, 'attachRequired', true);
  orSet(spec, 'podInfoOnMount', false);
  orSet(spec, 'storageCapacity', false);
  orSet(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
  orSet(spec, 'requiresRepublish', false);
  if (gates.enabled('SELinuxMountReadWriteOncePod')) orSet(spec, 'seLinuxMount', false);
}

/** VolumeAttachment: only the sources of an inline volume spec (not the PersistentVolume object defaults). */
export function defaultVolumeAttachment(va: Json): void {
  const inline = at(at(at(va, 'spec') ?? {}, 'source') ?? {}, 'inlineVolumeSpec');
  if (inline) defaultPersistentVolumeSource(inline);
}

/** The storage.svc.io/v1 defaulters by kind (CSINode and CSIStorageCapacity have none). */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  StorageClass: defaultStorageClass,
  CSIDriver: defaultCSIDriver,
  VolumeAttachment: defaultVolumeAttachment,
};
