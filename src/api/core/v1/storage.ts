// PersistentVolume and PersistentVolumeClaim with their spec and status.
// A PersistentVolumeSpec embeds PersistentVolumeSource in Go, so the source
// fields are numbered inside that message (`in: 1`). v1.27 still has the claim's
// status.resizeStatus (replaced by allocatedResourceStatuses in v1.28).
import { list, mapOf, obj, ref, str } from '../../../schema/dsl.js';
import { LabelSelector, Quantity, kind } from '../../../schema/common.js';
import { ResourceRequirements } from './container.js';
import { ObjectReference, TypedLocalObjectReference, TypedObjectReference } from './refs.js';
import { NodeSelector } from './scheduling.js';
import { AWSElasticBlockStoreVolumeSource, AzureDiskVolumeSource, AzureFilePersistentVolumeSource, CSIPersistentVolumeSource, CephFSPersistentVolumeSource, CinderPersistentVolumeSource, FCVolumeSource, FlexPersistentVolumeSource, FlockerVolumeSource, GCEPersistentDiskVolumeSource, GlusterfsPersistentVolumeSource, HostPathVolumeSource, ISCSIPersistentVolumeSource, LocalVolumeSource, NFSVolumeSource, PhotonPersistentDiskVolumeSource, PortworxVolumeSource, QuobyteVolumeSource, RBDPersistentVolumeSource, ScaleIOPersistentVolumeSource, StorageOSPersistentVolumeSource, VsphereVirtualDiskVolumeSource } from './volumesource.js';
import { classicCondition, lastProbeTime } from './condition.js';
import { core } from './names.js';

export const VolumeNodeAffinity = obj({
  required: ref(NodeSelector).proto(1).desc('Node constraints that must hold.'),
})
  .id(core('VolumeNodeAffinity'))
  .desc('The nodes a volume can be accessed from.');

export const PersistentVolumeSpec = obj({
  capacity: mapOf(ref(Quantity)).proto(1).desc('The resources of the volume.'),
  gcePersistentDisk: ref(GCEPersistentDiskVolumeSource).proto(1, { in: 2 }).desc('A GCE persistent disk.'),
  awsElasticBlockStore: ref(AWSElasticBlockStoreVolumeSource).proto(2, { in: 2 }).desc('An AWS EBS disk.'),
  hostPath: ref(HostPathVolumeSource).proto(3, { in: 2 }).desc('A directory on the host; for single-node testing only.'),
  glusterfs: ref(GlusterfsPersistentVolumeSource).proto(4, { in: 2 }).desc('A GlusterFS volume.'),
  nfs: ref(NFSVolumeSource).proto(5, { in: 2 }).desc('An NFS export.'),
  rbd: ref(RBDPersistentVolumeSource).proto(6, { in: 2 }).desc('A Ceph RBD image.'),
  iscsi: ref(ISCSIPersistentVolumeSource).proto(7, { in: 2 }).desc('An iSCSI disk.'),
  cinder: ref(CinderPersistentVolumeSource).proto(8, { in: 2 }).desc('An OpenStack Cinder volume.'),
  cephfs: ref(CephFSPersistentVolumeSource).proto(9, { in: 2 }).desc('A CephFS mount.'),
  fc: ref(FCVolumeSource).proto(10, { in: 2 }).desc('A Fibre Channel volume.'),
  flocker: ref(FlockerVolumeSource).proto(11, { in: 2 }).desc('A Flocker dataset.'),
  flexVolume: ref(FlexPersistentVolumeSource).proto(12, { in: 2 }).desc('A volume handled by a FlexVolume plugin.'),
  azureFile: ref(AzureFilePersistentVolumeSource).proto(13, { in: 2 }).desc('An Azure File share.'),
  vsphereVolume: ref(VsphereVirtualDiskVolumeSource).proto(14, { in: 2 }).desc('A vSphere disk.'),
  quobyte: ref(QuobyteVolumeSource).proto(15, { in: 2 }).desc('A Quobyte volume.'),
  azureDisk: ref(AzureDiskVolumeSource).proto(16, { in: 2 }).desc('An Azure data disk.'),
  photonPersistentDisk: ref(PhotonPersistentDiskVolumeSource).proto(17, { in: 2 }).desc('A Photon Controller disk.'),
  portworxVolume: ref(PortworxVolumeSource).proto(18, { in: 2 }).desc('A Portworx volume.'),
  scaleIO: ref(ScaleIOPersistentVolumeSource).proto(19, { in: 2 }).desc('A ScaleIO volume.'),
  local: ref(LocalVolumeSource).proto(20, { in: 2 }).desc('Storage directly attached to a node.'),
  storageos: ref(StorageOSPersistentVolumeSource).proto(21, { in: 2 }).desc('A StorageOS volume.'),
  csi: ref(CSIPersistentVolumeSource).proto(22, { in: 2 }).desc('A volume managed by a CSI driver.'),
  accessModes: list(str()).proto(3).desc('The ways the volume can be mounted.'),
  claimRef: ref(ObjectReference).granular().proto(4).desc('The claim the volume is bound to.'),
  persistentVolumeReclaimPolicy: str().proto(5).desc('Retain, Delete or Recycle (deprecated): what happens when the claim goes.'),
  storageClassName: str().proto(6).desc('The StorageClass of the volume; none when empty.'),
  mountOptions: list(str()).proto(7).desc('Mount options, not validated.'),
  volumeMode: str().proto(8, { keepZero: true }).desc('Filesystem or Block; Filesystem when empty.'),
  nodeAffinity: ref(VolumeNodeAffinity).proto(9).desc('Which nodes can access the volume.'),
})
  .id(core('PersistentVolumeSpec'))
  .desc('The desired state of a persistent volume.');

export const PersistentVolumeStatus = obj({
  phase: str().proto(1).desc('Pending, Available, Bound, Released or Failed.'),
  message: str().proto(2).desc('Why the volume is in this state.'),
  reason: str().proto(3).desc('A short CamelCase reason for a failure.'),
})
  .id(core('PersistentVolumeStatus'))
  .desc('The observed state of a persistent volume.');

export const PersistentVolume = kind({
  spec: ref(PersistentVolumeSpec).proto(2).desc('The desired state of the volume.'),
  status: ref(PersistentVolumeStatus).proto(3).desc('The observed state of the volume.'),
})
  .id(core('PersistentVolume'))
  .desc('A piece of storage provisioned in the cluster.');

export const PersistentVolumeClaimSpec = obj({
  accessModes: list(str()).proto(1).desc('The access modes the volume must support.'),
  selector: ref(LabelSelector).proto(4).desc('A label query over the volumes to bind to.'),
  resources: ref(ResourceRequirements).proto(2).desc('The minimum resources the volume must have.'),
  volumeName: str().proto(3).desc('The persistent volume bound to the claim.'),
  storageClassName: str().proto(5, { keepZero: true }).desc('The StorageClass the claim asks for.'),
  volumeMode: str().proto(6, { keepZero: true }).desc('Filesystem or Block; Filesystem when empty.'),
  dataSource: ref(TypedLocalObjectReference).proto(7).desc('An object (VolumeSnapshot or PersistentVolumeClaim) to populate the volume from.'),
  dataSourceRef: ref(TypedObjectReference).proto(8).desc('An object of any populator kind to populate the volume from.'),
})
  .id(core('PersistentVolumeClaimSpec'))
  .desc('The desired state of a persistent volume claim.');

export const PersistentVolumeClaimCondition = classicCondition({
  id: core('PersistentVolumeClaimCondition'), of: 'a persistent volume claim', type: 'The condition type, such as Resizing.', transition: 4, extra: lastProbeTime,
});

export const PersistentVolumeClaimStatus = obj({
  phase: str().proto(1).desc('Pending, Bound or Lost.'),
  accessModes: list(str()).proto(2).desc('The access modes of the bound volume.'),
  capacity: mapOf(ref(Quantity)).proto(3).desc('The resources of the bound volume.'),
  conditions: list(ref(PersistentVolumeClaimCondition)).patch('merge', 'type').proto(4).desc('The observed conditions of the claim.'),
  allocatedResources: mapOf(ref(Quantity)).proto(5).desc('The resources allocated to the claim, which may exceed the capacity while resizing.'),
  resizeStatus: str().proto(6, { keepZero: true }).desc('The state of a resize operation, if any (alpha).'),
})
  .id(core('PersistentVolumeClaimStatus'))
  .desc('The observed state of a persistent volume claim.');

export const PersistentVolumeClaim = kind({
  spec: ref(PersistentVolumeClaimSpec).proto(2).desc('The desired state of the claim.'),
  status: ref(PersistentVolumeClaimStatus).proto(3).desc('The observed state of the claim.'),
})
  .id(core('PersistentVolumeClaim'))
  .desc('A request for storage by a user.');
