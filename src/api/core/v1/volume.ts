// Pod volumes: Volume with the sources made from API objects (secret,
// configMap, downward API, projected, persistentVolumeClaim, ephemeral) and
// the storage-system sources from volumesource.ts. A Volume embeds
// VolumeSource in Go, so its sources are numbered inside that message (`in: 2`).
import { bool, int32, int64, list, obj, ref, str } from '../../../schema/dsl.js';
import { ObjectMeta } from '../../../schema/common.js';
import { ObjectFieldSelector, ResourceFieldSelector } from './refs.js';
import { PersistentVolumeClaimSpec } from './storage.js';
import { AWSElasticBlockStoreVolumeSource, AzureDiskVolumeSource, AzureFileVolumeSource, CSIVolumeSource, CephFSVolumeSource, CinderVolumeSource, EmptyDirVolumeSource, FCVolumeSource, FlexVolumeSource, FlockerVolumeSource, GCEPersistentDiskVolumeSource, GitRepoVolumeSource, GlusterfsVolumeSource, HostPathVolumeSource, ISCSIVolumeSource, NFSVolumeSource, PhotonPersistentDiskVolumeSource, PortworxVolumeSource, QuobyteVolumeSource, RBDVolumeSource, ScaleIOVolumeSource, StorageOSVolumeSource, VsphereVirtualDiskVolumeSource } from './volumesource.js';
import { core } from './names.js';

export const KeyToPath = obj({
  key: str().required().proto(1, { keepZero: true }).desc('The key to project.'),
  path: str().required().proto(2, { keepZero: true }).desc('The relative file path; no ".." elements.'),
  mode: int32().proto(3, { keepZero: true }).desc("Permission bits of this file (0000-0777, decimal in JSON); the volume's default when unset."),
})
  .id(core('KeyToPath'))
  .desc('Maps one key to a file path within a volume.');

export const SecretVolumeSource = obj({
  secretName: str().proto(1).desc("The name of the Secret in the pod's namespace."),
  items: list(ref(KeyToPath)).proto(2).desc('Which keys to project and where; all keys are projected to files named after them when empty.'),
  defaultMode: int32().proto(3, { keepZero: true }).desc('Permission bits (0000-0777, decimal in JSON) for created files that set none themselves; 0644 by default.'),
  optional: bool().proto(4, { keepZero: true }).desc('Whether it is fine for the referenced object or key to be absent.'),
})
  .id(core('SecretVolumeSource'))
  .desc("A Secret's data presented as files in a volume.");

export const PersistentVolumeClaimVolumeSource = obj({
  claimName: str().required().proto(1, { keepZero: true }).desc('The name of the claim.'),
  readOnly: bool().proto(2).desc('Whether the volume is mounted read-only.'),
})
  .id(core('PersistentVolumeClaimVolumeSource'))
  .desc("A persistent volume claim in the pod's namespace.");

export const DownwardAPIVolumeFile = obj({
  path: str().required().proto(1, { keepZero: true }).desc('The relative path of the file; no ".." elements.'),
  fieldRef: ref(ObjectFieldSelector).proto(2).desc('A pod field to write: metadata annotations, labels, name, namespace or uid.'),
  resourceFieldRef: ref(ResourceFieldSelector).proto(3).desc('A container resource limit or request to write.'),
  mode: int32().proto(4, { keepZero: true }).desc("Permission bits of this file (0000-0777, decimal in JSON); the volume's default when unset."),
})
  .id(core('DownwardAPIVolumeFile'))
  .desc('One file of downward API data.');

export const DownwardAPIVolumeSource = obj({
  items: list(ref(DownwardAPIVolumeFile)).proto(1).desc('The files to create.'),
  defaultMode: int32().proto(2, { keepZero: true }).desc('Permission bits (0000-0777, decimal in JSON) for created files that set none themselves; 0644 by default.'),
})
  .id(core('DownwardAPIVolumeSource'))
  .desc('A volume of files holding pod information.');

export const ConfigMapVolumeSource = obj({
  name: str().proto(1, { in: 1 }).desc('The name of the ConfigMap.'),
  items: list(ref(KeyToPath)).proto(2).desc('Which keys to project and where; all keys are projected to files named after them when empty.'),
  defaultMode: int32().proto(3, { keepZero: true }).desc('Permission bits (0000-0777, decimal in JSON) for created files that set none themselves; 0644 by default.'),
  optional: bool().proto(4, { keepZero: true }).desc('Whether it is fine for the referenced object or key to be absent.'),
})
  .id(core('ConfigMapVolumeSource'))
  .desc("A ConfigMap's data presented as files in a volume.");

export const SecretProjection = obj({
  name: str().proto(1, { in: 1 }).desc('The name of the Secret.'),
  items: list(ref(KeyToPath)).proto(2).desc('Which keys to project and where; all keys are projected to files named after them when empty.'),
  optional: bool().proto(4, { keepZero: true }).desc('Whether it is fine for the referenced object or key to be absent.'),
})
  .id(core('SecretProjection'))
  .desc('A Secret projected into a projected volume.');

export const DownwardAPIProjection = obj({
  items: list(ref(DownwardAPIVolumeFile)).proto(1).desc('The files to create.'),
})
  .id(core('DownwardAPIProjection'))
  .desc('Downward API data projected into a projected volume.');

export const ConfigMapProjection = obj({
  name: str().proto(1, { in: 1 }).desc('The name of the ConfigMap.'),
  items: list(ref(KeyToPath)).proto(2).desc('Which keys to project and where; all keys are projected to files named after them when empty.'),
  optional: bool().proto(4, { keepZero: true }).desc('Whether it is fine for the referenced object or key to be absent.'),
})
  .id(core('ConfigMapProjection'))
  .desc('A ConfigMap projected into a projected volume.');

export const ServiceAccountTokenProjection = obj({
  audience: str().proto(1).desc('The intended audience of the token; the API server by default.'),
  expirationSeconds: int64().proto(2, { keepZero: true }).desc('The requested lifetime of the token; one hour by default, at least ten minutes.'),
  path: str().required().proto(3, { keepZero: true }).desc('The file path of the token, relative to the mount point.'),
})
  .id(core('ServiceAccountTokenProjection'))
  .desc('A service account token projected into a volume.');

export const VolumeProjection = obj({
  secret: ref(SecretProjection).proto(1).desc("A Secret's data."),
  downwardAPI: ref(DownwardAPIProjection).proto(2).desc('Information about the pod.'),
  configMap: ref(ConfigMapProjection).proto(3).desc("A ConfigMap's data."),
  serviceAccountToken: ref(ServiceAccountTokenProjection).proto(4).desc('A service account token.'),
})
  .id(core('VolumeProjection'))
  .desc('One source of a projected volume; exactly one field is set.');

export const ProjectedVolumeSource = obj({
  sources: list(ref(VolumeProjection)).proto(1).desc('The projected sources.'),
  defaultMode: int32().proto(2, { keepZero: true }).desc('Permission bits (0000-0777, decimal in JSON) for created files that set none themselves.'),
})
  .id(core('ProjectedVolumeSource'))
  .desc('A volume combining several sources into one directory.');

export const PersistentVolumeClaimTemplate = obj({
  metadata: ref(ObjectMeta).proto(1).desc('Labels and annotations copied into the created claim.'),
  spec: ref(PersistentVolumeClaimSpec).required().proto(2).desc('The spec of the created claim.'),
})
  .id(core('PersistentVolumeClaimTemplate'))
  .desc('The template of a claim an ephemeral volume creates.');

export const EphemeralVolumeSource = obj({
  volumeClaimTemplate: ref(PersistentVolumeClaimTemplate).proto(1).desc('The template of the claim to create.'),
})
  .id(core('EphemeralVolumeSource'))
  .desc('A volume backed by a PersistentVolumeClaim created for, and deleted with, the pod.');

export const Volume = obj({
  name: str().required().proto(1, { keepZero: true }).desc("The volume's name, a DNS label unique within the pod."),
  hostPath: ref(HostPathVolumeSource).proto(1, { in: 2 }).desc('A file or directory of the node.'),
  emptyDir: ref(EmptyDirVolumeSource).proto(2, { in: 2 }).desc('A scratch directory that lives as long as the pod.'),
  gcePersistentDisk: ref(GCEPersistentDiskVolumeSource).proto(3, { in: 2 }).desc('A GCE persistent disk.'),
  awsElasticBlockStore: ref(AWSElasticBlockStoreVolumeSource).proto(4, { in: 2 }).desc('An AWS EBS disk.'),
  gitRepo: ref(GitRepoVolumeSource).proto(5, { in: 2 }).desc('A git repository clone (deprecated).'),
  secret: ref(SecretVolumeSource).proto(6, { in: 2 }).desc("A Secret's data."),
  nfs: ref(NFSVolumeSource).proto(7, { in: 2 }).desc('An NFS export.'),
  iscsi: ref(ISCSIVolumeSource).proto(8, { in: 2 }).desc('An iSCSI disk.'),
  glusterfs: ref(GlusterfsVolumeSource).proto(9, { in: 2 }).desc('A GlusterFS volume.'),
  persistentVolumeClaim: ref(PersistentVolumeClaimVolumeSource).proto(10, { in: 2 }).desc("A persistent volume claim in the pod's namespace."),
  rbd: ref(RBDVolumeSource).proto(11, { in: 2 }).desc('A Ceph RBD image.'),
  flexVolume: ref(FlexVolumeSource).proto(12, { in: 2 }).desc('A volume handled by a FlexVolume plugin.'),
  cinder: ref(CinderVolumeSource).proto(13, { in: 2 }).desc('An OpenStack Cinder volume.'),
  cephfs: ref(CephFSVolumeSource).proto(14, { in: 2 }).desc('A CephFS mount.'),
  flocker: ref(FlockerVolumeSource).proto(15, { in: 2 }).desc('A Flocker dataset.'),
  downwardAPI: ref(DownwardAPIVolumeSource).proto(16, { in: 2 }).desc('Information about the pod.'),
  fc: ref(FCVolumeSource).proto(17, { in: 2 }).desc('A Fibre Channel volume.'),
  azureFile: ref(AzureFileVolumeSource).proto(18, { in: 2 }).desc('An Azure File share.'),
  configMap: ref(ConfigMapVolumeSource).proto(19, { in: 2 }).desc("A ConfigMap's data."),
  vsphereVolume: ref(VsphereVirtualDiskVolumeSource).proto(20, { in: 2 }).desc('A vSphere disk.'),
  quobyte: ref(QuobyteVolumeSource).proto(21, { in: 2 }).desc('A Quobyte volume.'),
  azureDisk: ref(AzureDiskVolumeSource).proto(22, { in: 2 }).desc('An Azure data disk.'),
  photonPersistentDisk: ref(PhotonPersistentDiskVolumeSource).proto(23, { in: 2 }).desc('A Photon Controller disk.'),
  projected: ref(ProjectedVolumeSource).proto(26, { in: 2 }).desc('Several sources in one directory.'),
  portworxVolume: ref(PortworxVolumeSource).proto(24, { in: 2 }).desc('A Portworx volume.'),
  scaleIO: ref(ScaleIOVolumeSource).proto(25, { in: 2 }).desc('A ScaleIO volume.'),
  storageos: ref(StorageOSVolumeSource).proto(27, { in: 2 }).desc('A StorageOS volume.'),
  csi: ref(CSIVolumeSource).proto(28, { in: 2 }).desc('An inline volume from a CSI driver.'),
  ephemeral: ref(EphemeralVolumeSource).proto(29, { in: 2 }).desc('A volume from a claim created for, and deleted with, the pod.'),
})
  .id(core('Volume'))
  .desc('A named volume of a pod; exactly one source field is set.');
