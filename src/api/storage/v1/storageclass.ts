// storage/v1 StorageClass: a class of dynamically provisioned volumes.
import { bool, kind, list, mapOf, str } from '../../../schema/index.js';
import { TopologySelectorTerm } from '../../core/v1/index.js';

const PKG = 'io.k8s.api.storage.v1';

export const StorageClass = kind(
  {
    provisioner: str().proto(2, { keepZero: true }).required().desc('The volume plugin or CSI driver that provisions volumes; immutable.'),
    parameters: mapOf(str()).proto(3).desc('Settings for the provisioner; immutable.'),
    reclaimPolicy: str().proto(4, { keepZero: true }).desc('Delete (the default) or Retain: what happens to volumes when released; immutable.'),
    mountOptions: list(str()).proto(5).desc('Mount options of the volumes, such as "ro".'),
    allowVolumeExpansion: bool().proto(6, { keepZero: true }).desc('Whether claims of this class may grow.'),
    volumeBindingMode: str().proto(7, { keepZero: true }).desc('Immediate (the default) or WaitForFirstConsumer: when claims are bound.'),
    allowedTopologies: list(TopologySelectorTerm).proto(8).atomic().desc('Where volumes may be provisioned; anywhere when empty.'),
  },
)
  .id(`${PKG}.StorageClass`)
  .desc('A class of storage that PersistentVolumes are provisioned from.');
