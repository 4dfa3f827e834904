// storage/v1 StorageClass: a class of dynamically provisioned volumes.
import { bool, kind, list, mapOf, str } from '../../../schema/index.js';
import { TopologySelectorTerm } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.storage.v1';

export const StorageClass = kind(
  {
    provisioner: str().required().desc('The volume plugin or CSI driver that provisions volumes; immutable.'),
    parameters: mapOf(str()).desc('Settings for the provisioner; immutable.'),
    reclaimPolicy: str().desc('Delete (the default) or Retain: what happens to volumes when released; immutable.'),
    mountOptions: list(str()).desc('Mount options of the volumes, such as "ro".'),
    allowVolumeExpansion: bool().desc('Whether claims of this class may grow.'),
    volumeBindingMode: str().desc('Immediate (the default) or WaitForFirstConsumer: when claims are bound.'),
    allowedTopologies: list(TopologySelectorTerm).atomic().desc('Where volumes may be provisioned; anywhere when empty.'),
  },
)
  .id(`${PKG}.StorageClass`)
  .desc('A class of storage that PersistentVolumes are provisioned from.');
