// core/v1 defaulting of storage: PersistentVolumeClaims (also StatefulSet
// claim templates and ephemeral volumes), PersistentVolumes, and the volume
// sources a PersistentVolume shares with pod volumes.
import { at, orSet, orStr, struct, type Json } from './defaults-common.js';

/**
 * The sources a PersistentVolume shares with pod volumes, and their declarative defaults.
 * defaultVolume (defaults-container.ts) calls this only for a volume with one of the keys in its
 * DEFAULTED_SOURCES: a source given defaults here must be listed there too.
 */
export function defaultPersistentVolumeSource(s: Json): void {
  const hostPath = at(s, 'hostPath');
  if (hostPath) orSet(hostPath, 'type', '');
  const iscsi = at(s, 'iscsi');
  if (iscsi) orStr(iscsi, 'iscsiInterface', 'default');
  const rbd = at(s, 'rbd');
  if (rbd) {
    orStr(rbd, 'pool', 'rbd');
    orStr(rbd, 'user', 'admin');
    orStr(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = at(s, 'azureDisk');
  if (azureDisk) {
    orSet(azureDisk, 'cachingMode', 'ReadWrite');
    orSet(azureDisk, 'fsType', 'ext4');
    orSet(azureDisk, 'readOnly', false);
    orSet(azureDisk, 'kind', 'Shared');
  }
  const scaleIO = at(s, 'scaleIO');
  if (scaleIO) {
    orStr(scaleIO, 'storageMode', 'ThinProvisioned');
    orStr(scaleIO, 'fsType', 'xfs');
  }
}

export function defaultPersistentVolumeClaimSpec(spec: Json): void {
  orSet(spec, 'volumeMode', 'Filesystem');
}

/** Also the volumeClaimTemplates of a StatefulSet. */
export function defaultPersistentVolumeClaim(pvc: Json): void {
  const spec = struct(pvc, 'spec');
  if (spec) defaultPersistentVolumeClaimSpec(spec);
  const status = struct(pvc, 'status');
  if (status) orStr(status, 'phase', 'Pending');
}

export function defaultPersistentVolume(pv: Json): void {
  const spec = struct(pv, 'spec');
  if (spec) {
    orStr(spec, 'persistentVolumeReclaimPolicy', 'Retain');
    orSet(spec, 'volumeMode', 'Filesystem');
    defaultPersistentVolumeSource(spec);
  }
  const status = struct(pv, 'status');
  if (status) orStr(status, 'phase', 'Pending');
}
