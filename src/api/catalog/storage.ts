// storage.svc.io: storage classes and CSI objects, v1 only in 1.27
// (CSIStorageCapacity v1beta1 stopped being served in 1.27; no v1alpha1 kinds
// exist between 1.24 and 1.29).
import { defineGroup, status } from './define.js';

export const storage = defineGroup({
  name: 'storage.svc.io',
  groupPriorityMinimum: 16800,
  versions: [{
    version: 'v1',
    enabledByDefault: true,
    versionPriority: 15,
    resources: [
      { resource: 'csidrivers', kind: 'CSIDriver', namespaced: false },
      { resource: 'csinodes', kind: 'CSINode', namespaced: false },
      { resource: 'csistoragecapacities', kind: 'CSIStorageCapacity', namespaced: true },
      { resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] },
      { resource: 'volumeattachments', kind: 'VolumeAttachment', namespaced: false, subresources: [status('VolumeAttachment')] },
    ],
  }],
});
