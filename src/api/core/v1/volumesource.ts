// Volume sources backed by storage systems. Most exist twice: a pod-volume
// form whose secretRef is a LocalObjectReference (same namespace), and a
// persistent-volume form whose secretRef names a secret in any namespace.
// volume.ts (pod volumes) and storage.ts (PersistentVolume) use them.
import { bool, int32, list, mapOf, obj, ref, str, type S } from '../../../schema/dsl.js';
import { Quantity } from '../../../schema/common.js';
import { LocalObjectReference, ObjectReference, SecretReference } from './refs.js';
import { core } from './names.js';

/** The usual fsType and readOnly fields, at a protobuf number (keepZero where Go has a pointer). */
const fsType = (n: number, keepZero = false) => str().proto(n, { keepZero }).desc('The filesystem type to mount, such as "ext4" or "xfs"; the plugin picks a default when empty.');
const readOnly = (n: number, keepZero = false) => bool().proto(n, { keepZero }).desc('Whether the volume is mounted read-only; false (read-write) by default.');

export const HostPathVolumeSource = obj({
  path: str().required().proto(1, { keepZero: true }).desc('The path on the node; symlinks are followed.'),
  type: str().proto(2, { keepZero: true }).desc('What must exist at the path, such as Directory or FileOrCreate; no check when empty.'),
})
  .id(core('HostPathVolumeSource'))
  .desc('A file or directory of the node mounted into the pod.');

export const EmptyDirVolumeSource = obj({
  medium: str().proto(1).desc('The backing storage medium: "" for the node\'s default, or "Memory".'),
  sizeLimit: ref(Quantity).proto(2).desc('The most local storage the directory may use.'),
})
  .id(core('EmptyDirVolumeSource'))
  .desc('A scratch directory that lives as long as the pod.');

export const GCEPersistentDiskVolumeSource = obj({
  pdName: str().required().proto(1, { keepZero: true }).desc('The name of the disk in GCE.'),
  fsType: fsType(2),
  partition: int32().proto(3).desc('The partition to mount; the whole device when 0 or unset.'),
  readOnly: readOnly(4),
})
  .id(core('GCEPersistentDiskVolumeSource'))
  .desc('A Google Compute Engine persistent disk.');

export const AWSElasticBlockStoreVolumeSource = obj({
  volumeID: str().required().proto(1, { keepZero: true }).desc('The ID of the EBS volume.'),
  fsType: fsType(2),
  partition: int32().proto(3).desc('The partition to mount; the whole device when 0 or unset.'),
  readOnly: readOnly(4),
})
  .id(core('AWSElasticBlockStoreVolumeSource'))
  .desc('An AWS Elastic Block Store disk attached to the node and mounted into the pod.');

export const GitRepoVolumeSource = obj({
  repository: str().required().proto(1, { keepZero: true }).desc('The repository URL.'),
  revision: str().proto(2).desc('The commit to check out.'),
  directory: str().proto(3).desc('The directory to clone into; "." for the volume root.'),
})
  .id(core('GitRepoVolumeSource'))
  .desc('A directory holding a clone of a git repository (deprecated).');

export const NFSVolumeSource = obj({
  server: str().required().proto(1, { keepZero: true }).desc('The hostname or IP of the NFS server.'),
  path: str().required().proto(2, { keepZero: true }).desc('The exported path.'),
  readOnly: bool().proto(3).desc('Whether the export is mounted read-only.'),
})
  .id(core('NFSVolumeSource'))
  .desc('An NFS export.');

/** The fields of the ISCSI sources; `secret` is how their secretRef names a secret. */
const iscsiFields = (secret: S) => ({
  targetPortal: str().required().proto(1, { keepZero: true }).desc('The target portal, as an IP or ip:port.'),
  iqn: str().required().proto(2, { keepZero: true }).desc("The target's iSCSI qualified name."),
  lun: int32().required().proto(3, { keepZero: true }).desc('The target LUN number.'),
  iscsiInterface: str().proto(4).desc('The iSCSI interface to use; "default" (tcp) when empty.'),
  fsType: fsType(5),
  readOnly: readOnly(6),
  portals: list(str()).proto(7).desc('More target portals, as IPs or ip:port.'),
  chapAuthDiscovery: bool().proto(8).desc('Whether to use CHAP authentication for discovery.'),
  secretRef: ref(secret).proto(10).desc('The CHAP secret.'),
  chapAuthSession: bool().proto(11).desc('Whether to use CHAP authentication for the session.'),
  initiatorName: str().proto(12, { keepZero: true }).desc('A custom initiator name.'),
});

export const ISCSIVolumeSource = obj(iscsiFields(LocalObjectReference))
  .id(core('ISCSIVolumeSource'))
  .desc('An iSCSI disk mounted into the pod.');

export const ISCSIPersistentVolumeSource = obj(iscsiFields(SecretReference))
  .id(core('ISCSIPersistentVolumeSource'))
  .desc('An iSCSI disk used as a persistent volume.');

const glusterfsFields = {
  endpoints: str().required().proto(1, { keepZero: true }).desc('The Endpoints object listing the GlusterFS servers.'),
  path: str().required().proto(2, { keepZero: true }).desc('The GlusterFS volume path.'),
  readOnly: bool().proto(3).desc('Whether the volume is mounted read-only.'),
};

export const GlusterfsVolumeSource = obj(glusterfsFields)
  .id(core('GlusterfsVolumeSource'))
  .desc('A GlusterFS mount that lives as long as the pod.');

export const GlusterfsPersistentVolumeSource = obj({
  ...glusterfsFields,
  endpointsNamespace: str().proto(4, { keepZero: true }).desc("The namespace of that Endpoints object; the claim's namespace when empty."),
})
  .id(core('GlusterfsPersistentVolumeSource'))
  .desc('A GlusterFS mount used as a persistent volume.');

/** The fields of the RBD sources; `secret` is how their secretRef names a secret. */
const rbdFields = (secret: S) => ({
  monitors: list(str()).required().proto(1).desc('The Ceph monitor addresses.'),
  image: str().required().proto(2, { keepZero: true }).desc('The rados image name.'),
  fsType: fsType(3),
  pool: str().proto(4).desc('The rados pool; "rbd" by default.'),
  user: str().proto(5).desc('The rados user; "admin" by default.'),
  keyring: str().proto(6).desc('The keyring path for the user; /etc/ceph/keyring by default.'),
  secretRef: ref(secret).proto(7).desc('The secret for the user; overrides keyring.'),
  readOnly: readOnly(8),
});

export const RBDVolumeSource = obj(rbdFields(LocalObjectReference))
  .id(core('RBDVolumeSource'))
  .desc('A Ceph RBD image mounted into the pod.');

export const RBDPersistentVolumeSource = obj(rbdFields(SecretReference))
  .id(core('RBDPersistentVolumeSource'))
  .desc('A Ceph RBD image used as a persistent volume.');

/** The fields of the Flex sources; `secret` is how their secretRef names a secret. */
const flexFields = (secret: S) => ({
  driver: str().required().proto(1, { keepZero: true }).desc('The name of the plugin driver.'),
  fsType: fsType(2),
  secretRef: ref(secret).proto(3).desc('The secret whose data is passed to the plugin.'),
  readOnly: readOnly(4),
  options: mapOf(str()).proto(5).desc('Extra options for the plugin.'),
});

export const FlexVolumeSource = obj(flexFields(LocalObjectReference))
  .id(core('FlexVolumeSource'))
  .desc('A volume handled by an exec-based FlexVolume plugin.');

export const FlexPersistentVolumeSource = obj(flexFields(SecretReference))
  .id(core('FlexPersistentVolumeSource'))
  .desc('A persistent volume handled by an exec-based FlexVolume plugin.');

/** The fields of the Cinder sources; `secret` is how their secretRef names a secret. */
const cinderFields = (secret: S) => ({
  volumeID: str().required().proto(1, { keepZero: true }).desc('The Cinder volume ID.'),
  fsType: fsType(2),
  readOnly: readOnly(3),
  secretRef: ref(secret).proto(4).desc('The secret holding parameters for connecting to OpenStack.'),
});

export const CinderVolumeSource = obj(cinderFields(LocalObjectReference))
  .id(core('CinderVolumeSource'))
  .desc('An OpenStack Cinder volume mounted into the pod.');

export const CinderPersistentVolumeSource = obj(cinderFields(SecretReference))
  .id(core('CinderPersistentVolumeSource'))
  .desc('An OpenStack Cinder volume used as a persistent volume.');

/** The fields of the CephFS sources; `secret` is how their secretRef names a secret. */
const cephfsFields = (secret: S) => ({
  monitors: list(str()).required().proto(1).desc('The Ceph monitor addresses.'),
  path: str().proto(2).desc('The path within the Ceph tree to mount; "/" by default.'),
  user: str().proto(3).desc('The rados user name; "admin" by default.'),
  secretFile: str().proto(4).desc('The path of the keyring for the user; /etc/ceph/user.secret by default.'),
  secretRef: ref(secret).proto(5).desc('The secret holding the credentials this volume plugin needs.'),
  readOnly: readOnly(6),
});

export const CephFSVolumeSource = obj(cephfsFields(LocalObjectReference))
  .id(core('CephFSVolumeSource'))
  .desc('A CephFS mount that lives as long as the pod.');

export const CephFSPersistentVolumeSource = obj(cephfsFields(SecretReference))
  .id(core('CephFSPersistentVolumeSource'))
  .desc('A CephFS mount used as a persistent volume.');

export const FlockerVolumeSource = obj({
  datasetName: str().proto(1).desc('The name of the dataset (deprecated).'),
  datasetUUID: str().proto(2).desc('The UUID of the dataset.'),
})
  .id(core('FlockerVolumeSource'))
  .desc('A Flocker dataset.');

export const FCVolumeSource = obj({
  targetWWNs: list(str()).proto(1).desc('The target worldwide names.'),
  lun: int32().proto(2, { keepZero: true }).desc('The target LUN number.'),
  fsType: fsType(3),
  readOnly: readOnly(4),
  wwids: list(str()).proto(5).desc("The volume's world-wide identifiers; used instead of targetWWNs and lun."),
})
  .id(core('FCVolumeSource'))
  .desc('A Fibre Channel volume.');

const azureFileFields = {
  secretName: str().required().proto(1, { keepZero: true }).desc('The secret holding the Azure storage account name and key.'),
  shareName: str().required().proto(2, { keepZero: true }).desc('The name of the file share.'),
  readOnly: readOnly(3),
};

export const AzureFileVolumeSource = obj(azureFileFields)
  .id(core('AzureFileVolumeSource'))
  .desc('An Azure File share mounted into the pod.');

export const AzureFilePersistentVolumeSource = obj({
  ...azureFileFields,
  secretNamespace: str().proto(4, { keepZero: true }).desc("The namespace of that secret; the pod's namespace when empty."),
})
  .id(core('AzureFilePersistentVolumeSource'))
  .desc('An Azure File share mounted as a persistent volume.');

export const AzureDiskVolumeSource = obj({
  diskName: str().required().proto(1, { keepZero: true }).desc('The name of the data disk in blob storage.'),
  diskURI: str().required().proto(2, { keepZero: true }).desc('The URI of the data disk in blob storage.'),
  cachingMode: str().proto(3, { keepZero: true }).desc('The host caching mode: None, ReadOnly or ReadWrite.'),
  fsType: fsType(4, true),
  readOnly: readOnly(5, true),
  kind: str().proto(6, { keepZero: true }).desc('The disk kind: Shared, Dedicated or Managed.'),
})
  .id(core('AzureDiskVolumeSource'))
  .desc('An Azure data disk mounted into the pod.');

export const VsphereVirtualDiskVolumeSource = obj({
  volumePath: str().required().proto(1, { keepZero: true }).desc("The path of the disk's vmdk."),
  fsType: fsType(2),
  storagePolicyName: str().proto(3).desc('The storage policy (SPBM) profile name.'),
  storagePolicyID: str().proto(4).desc('The storage policy (SPBM) profile ID.'),
})
  .id(core('VsphereVirtualDiskVolumeSource'))
  .desc('A vSphere virtual disk.');

export const QuobyteVolumeSource = obj({
  registry: str().required().proto(1, { keepZero: true }).desc('One or more Quobyte registries, as host:port pairs separated by commas.'),
  volume: str().required().proto(2, { keepZero: true }).desc('The name of the Quobyte volume.'),
  readOnly: bool().proto(3).desc('Whether the volume is mounted read-only.'),
  user: str().proto(4).desc('The user to map volume access to.'),
  group: str().proto(5).desc('The group to map volume access to.'),
  tenant: str().proto(6).desc('The tenant owning the volume.'),
})
  .id(core('QuobyteVolumeSource'))
  .desc('A Quobyte volume.');

export const PhotonPersistentDiskVolumeSource = obj({
  pdID: str().required().proto(1, { keepZero: true }).desc('The ID of the disk.'),
  fsType: fsType(2),
})
  .id(core('PhotonPersistentDiskVolumeSource'))
  .desc('A Photon Controller persistent disk.');

export const PortworxVolumeSource = obj({
  volumeID: str().required().proto(1, { keepZero: true }).desc('The ID of the volume.'),
  fsType: str().proto(2).desc('The filesystem type to mount; ext4 when empty.'),
  readOnly: readOnly(3),
})
  .id(core('PortworxVolumeSource'))
  .desc('A Portworx volume.');

/** The fields of the ScaleIO sources; `secret` is how their secretRef names a secret. */
const scaleIOFields = (secret: S) => ({
  gateway: str().required().proto(1, { keepZero: true }).desc('The address of the ScaleIO API gateway.'),
  system: str().required().proto(2, { keepZero: true }).desc('The name of the ScaleIO storage system.'),
  secretRef: ref(secret).required().proto(3).desc("The secret with the ScaleIO user's credentials."),
  sslEnabled: bool().proto(4).desc('Whether to talk to the gateway over SSL.'),
  protectionDomain: str().proto(5).desc('The ScaleIO protection domain.'),
  storagePool: str().proto(6).desc('The ScaleIO storage pool.'),
  storageMode: str().proto(7).desc('ThickProvisioned or ThinProvisioned; ThinProvisioned by default.'),
  volumeName: str().proto(8).desc('The name of an existing ScaleIO volume.'),
  fsType: str().proto(9).desc('The filesystem type to mount; xfs by default.'),
  readOnly: readOnly(10),
});

export const ScaleIOVolumeSource = obj(scaleIOFields(LocalObjectReference))
  .id(core('ScaleIOVolumeSource'))
  .desc('A ScaleIO volume mounted into the pod.');

export const ScaleIOPersistentVolumeSource = obj(scaleIOFields(SecretReference))
  .id(core('ScaleIOPersistentVolumeSource'))
  .desc('A ScaleIO volume used as a persistent volume.');

/** The fields of the StorageOS sources; `secret` is how their secretRef names a secret. */
const storageosFields = (secret: S) => ({
  volumeName: str().proto(1).desc('The name of the StorageOS volume.'),
  volumeNamespace: str().proto(2).desc("The StorageOS namespace of the volume; the pod's namespace when empty."),
  fsType: fsType(3),
  readOnly: readOnly(4),
  secretRef: ref(secret).proto(5).desc('The secret with the StorageOS API credentials.'),
});

export const StorageOSVolumeSource = obj(storageosFields(LocalObjectReference))
  .id(core('StorageOSVolumeSource'))
  .desc('A StorageOS volume mounted into the pod.');

export const StorageOSPersistentVolumeSource = obj(storageosFields(ObjectReference))
  .id(core('StorageOSPersistentVolumeSource'))
  .desc('A StorageOS volume used as a persistent volume.');

export const CSIVolumeSource = obj({
  driver: str().required().proto(1, { keepZero: true }).desc('The name of the CSI driver.'),
  readOnly: bool().proto(2, { keepZero: true }).desc('Whether the volume is read-only; false by default.'),
  fsType: fsType(3, true),
  volumeAttributes: mapOf(str()).proto(4).desc('Driver-specific properties passed to the driver.'),
  nodePublishSecretRef: ref(LocalObjectReference).proto(5).desc("The secret passed to the driver's NodePublish and NodeUnpublish calls."),
})
  .id(core('CSIVolumeSource'))
  .desc('An inline ephemeral volume provided by a CSI driver.');

export const CSIPersistentVolumeSource = obj({
  driver: str().required().proto(1, { keepZero: true }).desc('The name of the CSI driver.'),
  volumeHandle: str().required().proto(2, { keepZero: true }).desc('The volume ID the driver returned when it created the volume.'),
  readOnly: bool().proto(3).desc('Whether ControllerPublishVolume publishes the volume read-only.'),
  fsType: fsType(4),
  volumeAttributes: mapOf(str()).proto(5).desc('Driver-specific attributes passed when the volume is published.'),
  controllerPublishSecretRef: ref(SecretReference).proto(6).desc("The secret passed to the driver's ControllerPublish and ControllerUnpublish calls."),
  nodeStageSecretRef: ref(SecretReference).proto(7).desc("The secret passed to the driver's NodeStage and NodeUnstage calls."),
  nodePublishSecretRef: ref(SecretReference).proto(8).desc("The secret passed to the driver's NodePublish and NodeUnpublish calls."),
  controllerExpandSecretRef: ref(SecretReference).proto(9).desc("The secret passed to the driver's ControllerExpandVolume call."),
  nodeExpandSecretRef: ref(SecretReference).proto(10).desc("The secret passed to the driver's NodeExpandVolume call."),
})
  .id(core('CSIPersistentVolumeSource'))
  .desc('A persistent volume managed by an external CSI driver.');

export const LocalVolumeSource = obj({
  path: str().required().proto(1, { keepZero: true }).desc('The full path of the directory or block device on the node.'),
  fsType: str().proto(2, { keepZero: true }).desc('The filesystem type, when the path is a block device; chosen automatically when empty.'),
})
  .id(core('LocalVolumeSource'))
  .desc('Storage directly attached to a node.');
