// PersistentVolumeLabel (mutating, off by default, deprecated): kube labels
// new PersistentVolumes of in-tree cloud disks with their zone and region
// through the cloud provider. svc has no cloud provider, so it labels
// nothing; building it logs kube's deprecation warning and says so.
import type { AdmissionPlugin } from '../../registry/admission.js';

export const PERSISTENT_VOLUME_LABEL_WARNING = 'PersistentVolumeLabel admission controller is deprecated. Please remove this controller from your configuration files and scripts.';
export const PERSISTENT_VOLUME_LABEL_NO_CLOUD = 'PersistentVolumeLabel: no cloud provider is configured, so no PersistentVolume will be labelled';

export function persistentVolumeLabel(log: (line: string) => void = (l) => console.warn(`W svc: ${l}`)): AdmissionPlugin {
  log(PERSISTENT_VOLUME_LABEL_WARNING);
  log(PERSISTENT_VOLUME_LABEL_NO_CLOUD);
  return {
    name: 'PersistentVolumeLabel',
    phase: 'mutating',
    admit() {
      // Without a cloud provider there is no volume to look up labels for.
    },
  };
}
